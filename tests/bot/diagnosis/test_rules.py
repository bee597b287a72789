"""Each rule on real reports and on the shapes users write; every finding has evidence and a concrete fix."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.diagnosis.config import RepoConfig
from bot.diagnosis.findings import CATEGORIES
from bot.diagnosis.plan import Plan
from tests.conftest import captured_output, fixture_text

Run = Callable[..., Plan]


def top(plan: Plan) -> tuple[str | None, str]:
    found = next((f for f in plan.findings if f.severity != "info"), None)
    return (found.category, found.fix) if found else (None, "")


@pytest.mark.parametrize(
    ("fixture", "category", "in_fix"),
    [
        ("broken-ld-cudnn.md", "library_shadowing", "unset LD_LIBRARY_PATH"),
        ("broken-cvd-empty.md", "gpus_hidden_by_env", "unset CUDA_VISIBLE_DEVICES"),
        (
            "broken-torchvision.md",
            "torchvision_mismatch",
            "pip install --force-reinstall --no-deps torchvision==0.26.0 --index-url https://download.pytorch.org/whl/cu130",
        ),
    ],
)
def test_three_real_broken_h200_environments(run: Run, fixture: str, category: str, in_fix: str) -> None:
    plan = run(fixture_text("h200-1gpu", fixture))
    assert top(plan)[0] == category
    assert in_fix in top(plan)[1]


@pytest.mark.parametrize("fixture", ["collector.md", "collector-no-smoke.md", "collector-deep.md"])
def test_healthy_h200_reports_get_no_finding(run: Run, fixture: str) -> None:
    plan = run(fixture_text("h200-1gpu", fixture))
    assert plan.findings == [] and plan.labels == [] and plan.comment is None


def test_healthy_collect_env_gets_no_finding(run: Run) -> None:
    assert run(captured_output("h200", "torch-collect-env.txt")).findings == []


def test_rtx_5090_on_a_cu124_wheel(run: Run) -> None:
    plan = run("RTX 5090, torch==2.5.1+cu124, driver 570.124.06\nno kernel image is available for execution")
    category, fix = top(plan)
    assert category == "gpu_arch_unsupported"
    assert "torch==2.7.1" in fix and "--index-url https://download.pytorch.org/whl/cu128" in fix
    assert plan.labels == ["env: gpu-arch-unsupported"]


def test_pascal_on_the_default_cu128_wheel(run: Run) -> None:
    # A GPU below the wheel's oldest architecture is too old for that build (torch itself says "too old"); the fix
    # is the same torch from the index whose build still has sm_61.
    category, fix = top(run("GeForce GTX 1080 Ti\ntorch 2.8.0+cu128, driver 550.54.14"))
    assert category == "gpu_too_old_for_cuda" and "whl/cu126" in fix and "torch==2.8.0" in fix
    assert "sm_61" in fix and "dropped" in fix


def test_volta_on_cuda_13_is_too_old_for_the_toolkit(run: Run) -> None:
    category, fix = top(run("Tesla V100-SXM2-32GB, torch 2.11.0+cu130, driver 580.65.06"))
    assert category == "gpu_too_old_for_cuda" and "cu126" in fix


def test_driver_too_old_for_cuda_13(run: Run) -> None:
    category, fix = top(run("torch 2.11.0+cu130 on NVIDIA A100-SXM4-80GB\nNVIDIA driver version: 570.133.20"))
    assert category == "driver_too_old"
    assert "580.65.06" in fix and "whl/cu12" in fix


def test_before_cuda_11_each_release_needs_its_own_driver(run: Run) -> None:
    # pytorch/pytorch#28321's report, trimmed: a 10.1 build on the 410 driver that CUDA 10.0 shipped with.
    env = "PyTorch version: 1.3.0\nCUDA used to build PyTorch: 10.1.243\n"
    env += "GPU models and configuration: GPU 0: Tesla T4\n"
    category, fix = top(run(env + "Nvidia driver version: 410.104"))
    assert category == "driver_too_old"
    assert ">= 418.39" in fix and "CUDA 10.1 wheels" in fix and "10.x" not in fix
    assert top(run(env + "Nvidia driver version: 418.87.01"))[0] != "driver_too_old"


def test_a_gpu_older_than_every_cuda_outside_torch(run: Run) -> None:
    # fireice-uk/xmr-stak#840 and #1169 (tune): a GeForce 9500GT and a Quadro FX1800 under CUDA 9 miners.
    for body in ["My GPU is Palit nVidia GeForce 9500GT 1GB.\nthe miner fails", "I have NVIDIA QUADRO FX1800"]:
        category, fix = top(run(body))
        assert category == "gpu_too_old_for_cuda" and "compute capability below 3.0" in fix
    assert top(run("my GTX 1060 fails in the miner"))[0] != "gpu_too_old_for_cuda"


def test_torch_found_version_message(run: Run) -> None:
    body = (
        "UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 12020)."
        "\ntorch 2.4.1+cu124"
    )
    assert top(run(body))[0] == "driver_too_old"


def test_cpu_wheel_with_a_gpu(run: Run) -> None:
    category, fix = top(
        run("torch 2.7.1+cpu\nNVIDIA GeForce RTX 3090\nAssertionError: Torch not compiled with CUDA enabled")
    )
    assert category == "cpu_only_wheel" and "pip uninstall -y torch torchvision torchaudio" in fix
    assert "whl/cu126" in fix


def test_cpu_wheel_on_windows_says_why(run: Run) -> None:
    _, fix = top(run("Windows 11, torch 2.5.1+cpu, RTX 4070\nTorch not compiled with CUDA enabled"))
    assert "on Windows, `pip install torch` from PyPI always installs the CPU build" in fix


def test_torchaudio_after_its_last_release(run: Run) -> None:
    category, fix = top(run("pip freeze:\ntorch==2.13.0\ntorchaudio==2.8.0\ntorchvision==0.28.0"))
    assert category == "torchaudio_mismatch" and "torchaudio==2.11.1" in fix


def test_cu11_and_cu12_libraries_together(run: Run) -> None:
    body = "torch==2.4.1\nnvidia-nccl-cu11==2.14.3\nnvidia-nccl-cu12==2.20.5\nnvidia-cudnn-cu12==9.1.0.70\n"
    assert top(run(body))[0] == "mixed_installs"


@pytest.mark.parametrize(
    "listing",
    [
        "onnx - 1.6.0\nonnxruntime 1.2.0\nonnxruntime-gpu  1.2.0\nTensorflow-gpu 1.15.0",  # microsoft/onnxruntime#3787
        "onnxruntime==1.17.1\nonnxruntime-gpu==1.17.1\n",
        "faiss-cpu                 1.7.4\nfaiss-gpu                 1.7.2\n",
        "tensorflow==2.1.0\ntensorflow-addons==0.7.0\ntensorflow-cpu==2.1.0\n",  # tensorflow/addons#864
    ],
)
def test_the_cpu_and_the_gpu_build_of_one_package_in_a_listing(run: Run, listing: str) -> None:
    plan = run(listing + "\nBut the model runs only on CPU")
    category, fix = top(plan)
    assert category == "mixed_installs" and "pip uninstall -y " in fix
    assert next(f for f in plan.findings if f.category == "mixed_installs").severity == "warning"


def test_one_build_alone_is_no_finding_of_two(run: Run) -> None:
    assert "mixed_installs" not in {f.category for f in run("onnxruntime-gpu==1.17.1\ntorch==2.5.1").findings}


def test_fp8_on_an_a100(run: Run) -> None:
    body = "Running vllm with --quantization fp8 on NVIDIA A100-SXM4-80GB fails\ntorch 2.5.1+cu124"
    assert top(run(body))[0] == "fp8_unsupported"


def test_flash_attention_on_a_t4(run: Run) -> None:
    plan = run("RuntimeError: FlashAttention only supports Ampere GPUs or newer.\nGPU: Tesla T4")
    assert top(plan)[0] == "flash_attn_unsupported" and "sdpa" in top(plan)[1]


def test_wsl1_has_no_gpu(run: Run) -> None:
    category, fix = top(run("I'm using wsl 1 on windows 10\nRuntimeError: Found no NVIDIA driver on your system."))
    assert category == "wsl_specific" and "Windows" in fix


def test_docker_without_gpus(run: Run) -> None:
    body = 'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].'
    assert top(run(body))[0] == "container_runtime"


def test_nothing_at_all_asks_for_a_report(run: Run) -> None:
    plan = run("It doesn't work, please help.")
    assert top(plan)[0] == "missing_env_report" and plan.needs_env
    assert plan.labels == ["needs-env"] and RepoConfig().collector_command in (plan.comment or "")


def test_newer_torch_than_the_matrix_is_an_info_note_never_an_error(run: Run) -> None:
    plan = run("torch 2.16.0+cu132 on an NVIDIA H200, driver 600.10")
    assert [(f.id, f.severity, f.category) for f in plan.findings] == [("matrix_does_not_know", "info", None)]
    assert "does not know torch 2.16.0" in plan.findings[0].title
    assert plan.labels == [] and plan.comment is None


def test_every_finding_has_evidence_a_fix_and_a_known_category(run: Run) -> None:
    texts = [fixture_text("h200-1gpu", name) for name in ("broken-ld-cudnn.md", "broken-cvd-empty.md")]
    texts += ["RTX 5090, torch==2.5.1+cu124", "torch 2.7.1+cpu RTX 3090", "It doesn't work"]
    for text in texts:
        for finding in run(text).findings:
            assert finding.evidence and finding.fix.strip()
            assert finding.category in CATEGORIES or (finding.category is None and finding.severity == "info")


def test_the_rules_alone_import_no_reader() -> None:
    """The collector diagnoses its own report with the rules alone; the readers' patterns are a tenth of its run."""
    import subprocess
    import sys

    code = (
        "import sys; from bot.diagnosis.rules import all_rules; all_rules(); "
        "print(sorted(m for m in sys.modules if m.startswith('bot.diagnosis.readers.') and m.rsplit('.', 1)[1] in "
        "('freeform', 'collect_env', 'nvidia_smi', 'packages', 'torch_messages')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stdout


def test_a_gpu_no_wheel_runs_on_is_a_cause_only_where_torch_is_in_play(run: Run) -> None:
    # NVIDIA/nvidia-docker#177 (tune): a Quadro K4000 (3.0) under a CUDA 8 image; torch is nowhere in the issue.
    nothing_of_torch = run("nvidia-docker run --rm nvidia/cuda nvidia-smi fails on my Quadro K4000")
    assert all(f.id != "gpu_unsupported_by_any_wheel" for f in nothing_of_torch.findings)
    with_torch = run("I use torch 2.4.1.\nMy GPU is a Quadro K4000.")
    assert any(f.id == "gpu_unsupported_by_any_wheel" for f in with_torch.findings)
