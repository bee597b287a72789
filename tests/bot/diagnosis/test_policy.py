"""The ranking and severity policy (bot/diagnosis/policy.py) on the classes of miss issue 17 names, each on the real
wording people paste (sources in errors.yaml / cues.yaml)."""

from __future__ import annotations

import json

import pytest

from bot.diagnosis.matrix import default
from bot.diagnosis.plan import Plan, triage
from bot.diagnosis.readers import read_case
from bot.diagnosis.rules import diagnose
from tests.conftest import fixture_text


def plan(body: str, title: str = "") -> Plan:
    return triage(default(), body, title)


def first(result: Plan) -> tuple[str | None, str] | None:
    cause = next((f for f in result.findings if f.severity != "info"), None)
    return (cause.category, cause.severity) if cause else None


@pytest.mark.parametrize(
    "body",
    [
        # torch's OOM exception with the allocator's numbers, and ComfyUI's short form
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 90.00 MiB. GPU 0 has a total capacity of "
        "8.00 GiB of which 0 bytes is free.",
        "torch.OutOfMemoryError: Allocation on device ",
    ],
)
def test_out_of_memory_is_recognised_and_labelled_but_never_an_error(body: str) -> None:
    """Policy rule 2: the text says memory ran out, not that the environment is wrong (a leak, a batch too large):
    named first and labelled, as a warning (tune's fine issues with an OOM text were its only false errors)."""
    result = plan(body)
    assert first(result) == ("oom_or_memory", "warning")
    assert result.needs_env and result.findings[-1].category == "missing_env_report"
    assert [i.kind for i in result.intents.values()] == ["category", "needs_env"]


@pytest.mark.parametrize(
    ("body", "category"),
    [
        # the driver-too-old message without its "(found version N)" tail, and wrapped mid-sentence
        ("RuntimeError: The NVIDIA driver on your system is too old. Please update your GPU driver", "driver_too_old"),
        ("RuntimeError: The NVIDIA driver on your system is too\nold (found version 11040).", "driver_too_old"),
        # torchvision's CUDA ops missing, with the quotes an editor made typographic
        (
            "NotImplementedError: Could not run \u2018torchvision::nms\u2019 with arguments from the \u2018CUDA\u2019 "
            "backend.",
            "torchvision_mismatch",
        ),
        # an application's own FP8 floor
        (
            "ERROR: FP8 models require a GPU with Compute Capability 8.9 or higher (e.g., RTX 4090). Your GPU's "
            "capability is 8.6. Please select a non-FP8 model.",
            "fp8_unsupported",
        ),
    ],
)
def test_decisive_texts_are_recognised_and_ranked_above_the_ask(body: str, category: str) -> None:
    result = plan(body)
    assert first(result) == (category, "error")
    # Asking for a report and naming the cause are not exclusive: needs-env is still wanted, below the cause.
    assert result.needs_env and result.findings[-1].category == "missing_env_report"
    assert [i.kind for i in result.intents.values()] == ["category", "needs_env"]


def test_the_container_banner_points_to_the_runtime_without_being_decisive() -> None:
    # Some WSL images print it while the GPU works (NVIDIA/nvidia-docker#1548): a warning, still first.
    body = (
        "WARNING: The NVIDIA Driver was not detected.  GPU functionality will not be available.\n"
        "   Use the NVIDIA Container Toolkit to start this container with GPU support; see\n"
    )
    assert first(plan(body)) == ("container_runtime", "warning")


@pytest.mark.parametrize(
    "body",
    [
        "UserWarning: CUDA initialization: CUDA unknown error - this may be due to an incorrectly set up "
        "environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start.",
        # pytorch/pytorch#49081 (tune): a variable that shows GPU 0 is not what hides it; the driver had been
        # installed without a reboot.
        "RuntimeError: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env "
        "variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero.\n"
        "and I do set the available devices in `~/.bashrc` as followed:\n```\nexport CUDA_VISIBLE_DEVICES = 0\n```\n"
        "GPU configuration: NVIDIA A100",
    ],
)
def test_cuda_unknown_error_points_to_the_driver_not_the_variable_it_names(body: str) -> None:
    assert first(plan(body)) == ("driver_not_loaded", "warning")


def test_a_mig_slice_chosen_by_its_uuid_is_mig_s_business() -> None:
    body = (
        "on a MIG device, `CUDA_VISIBLE_DEVICES=MIG-4f4f1c9a-2a4e-5b1c-9f0e-0d6f2a3b4c5d python -m app` and then\n"
        "RuntimeError: CUDA error: invalid device ordinal"
    )
    result = plan(body)
    assert first(result) == ("mig_related", "error")
    assert all(f.id != "gpus_hidden_by_env" for f in result.findings)


def test_torch_s_device_count_assert_alone_is_a_warning() -> None:
    # pytorch/pytorch#107300 (tune, fine): a script counted the devices, then changed CUDA_VISIBLE_DEVICES, and
    # torch's cached count raised the assert MIG's visibility also raises; the title repeats the body's line, which
    # is one text, not two facts.
    line = (
        'RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at "/data/users/a/pytorch/aten/src/'
        'ATen/cuda/CUDAContext.cpp":50, please report a bug to PyTorch. device=1, num_gpus=1'
    )
    result = plan(line, title="RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED")
    assert first(result) == ("mig_related", "warning")
    partitioned = plan(line + "\nGPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-1)\n  MIG 3g.40gb Device 0: (UUID: MIG-1/2/0)")
    assert first(partitioned) == ("mig_related", "error")
    # Another text that says nothing about which devices the process sees is no second fact.
    memory = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
    assert ("mig_related", "warning") in [(f.category, f.severity) for f in plan(line + "\n" + memory).findings]


def test_error_804_points_to_the_host_driver_as_a_warning() -> None:
    # vllm-project/vllm#4940 (tune): the vllm-openai image on a host driver older than its CUDA.
    body = (
        'I use the command above to test and occur "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you '
        "run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: "
        'forward compatibility was attempted on non supported HW"'
    )
    result = plan(body)
    assert first(result) == ("driver_too_old", "warning")
    assert "compat" in next(f for f in result.findings if f.category == "driver_too_old").fix


def test_two_builds_of_one_package_explain_the_cpu_build_in_use() -> None:
    # PaddlePaddle/Paddle#47344 (tune): "CPU version" alone would say a CPU-only build; both installed says why.
    result = plan("CentOS系统，同时安装了paddle的CPU版本和GPU版本，卸载GPU版本后进入python环境无法import paddle")
    assert first(result) == ("mixed_installs", "warning")
    assert all(f.category != "cpu_only_wheel" for f in result.findings)
    assert "install only the GPU build" in result.findings[0].fix


def test_a_cue_names_a_likely_cause_without_a_label() -> None:
    result = plan("Upon reboot nouveau is loaded again instead of the nvidia driver.", "GPU not found")
    cue = result.findings[0]
    assert (cue.id, cue.category, cue.severity) == ("prose_cue", "driver_not_loaded", "warning")
    assert cue.title.startswith("Likely")
    assert result.labels == ["needs-env"]


def test_a_cue_gives_way_to_an_error_text() -> None:
    # WSL is named, but the error text decides: the cue is not shown at all.
    result = plan("On WSL2 I get: AssertionError: Torch not compiled with CUDA enabled")
    assert [f.id for f in result.findings] == ["cpu_only_wheel", "missing_env_report"]
    assert first(result) == ("cpu_only_wheel", "error")


def test_a_cue_that_needs_a_second_word_waits_for_it() -> None:
    assert first(plan("bash: nvidia-smi: command not found")) == ("missing_env_report", "warning")
    inside = plan("I start the image with docker run and get\nbash: nvidia-smi: command not found")
    assert first(inside) == ("container_runtime", "warning")


def test_facts_refute_what_words_say() -> None:
    # An H100 runs FP8: a pasted FP8 capability error there is not evidence that the GPU lacks it.
    body = (
        "GPU: NVIDIA H100 80GB HBM3\ntorch 2.4.1+cu121\nRuntimeError: torch._scaled_mm is only supported on CUDA "
        "devices with compute capability >= 9.0 or 8.9, or ROCm MI300+"
    )
    assert not any(f.category == "fp8_unsupported" for f in plan(body).findings)
    # The same text on an RTX 3090 (sm_86) is.
    assert first(plan(body.replace("NVIDIA H100 80GB HBM3", "RTX 3090"))) == ("fp8_unsupported", "error")


def test_unknown_is_no_finding_but_the_ask() -> None:
    assert [f.category for f in plan("It does not work, please help.", "bug").findings] == ["missing_env_report"]


def test_a_cpu_only_torch_alone_is_the_likely_cause_and_with_a_gpu_an_error() -> None:
    # One fact: a likely cause (a warning, no label); two that agree: an error.
    assert first(plan("GPU is not used\n[pip3] torch==2.1.0+cpu")) == ("cpu_only_wheel", "warning")
    assert first(plan("My RTX 3060 is not used.\ntorch==2.1.0+cpu")) == ("cpu_only_wheel", "error")


def test_conda_cpu_builds_are_read_as_cpu_only() -> None:
    body = "GPU not used\npytorch                   1.11.0              py3.8_cpu_0    pytorch"
    assert first(plan(body)) == ("cpu_only_wheel", "warning")


def test_a_failed_probe_speaks_only_through_its_own_error_text() -> None:
    # The real H200 report with CUDA_VISIBLE_DEVICES= (tests/fixtures/h200-1gpu), and cuDNN's probe failing as it
    # must there: the failure is the hidden GPU's, not evidence of a shadowing library.
    report = json.loads(fixture_text("h200-1gpu", "broken-cvd-empty.json"))
    report["facts"]["torch"]["value"]["cudnn_error"] = "RuntimeError: No CUDA GPUs are available"
    assert [(f.category, f.severity) for f in plan(json.dumps(report)).findings] == [("gpus_hidden_by_env", "error")]
    # cuDNN's own version error does speak for shadowing (the broken-ld-cudnn environment).
    shadowed = json.loads(fixture_text("h200-1gpu", "broken-ld-cudnn.json"))
    assert first(plan(json.dumps(shadowed))) == ("library_shadowing", "error")


def test_a_variable_listed_in_a_healthy_report_is_no_finding() -> None:
    # Our own report lists the environment's variables and modules; none of it is prose to read cues from.
    report = json.loads(fixture_text("h200-1gpu", "collector.json"))
    listed = report["facts"]["env"]["value"]
    listed.update({"NCCL_P2P_DISABLE": "1", "CUDA_VISIBLE_DEVICES": "0", "LD_LIBRARY_PATH": "/usr/local/cuda/lib64"})
    assert plan(json.dumps(report)).findings == []


def test_an_install_command_is_not_what_is_installed() -> None:
    # The workaround a reporter quotes names other versions than the environment has (a real pattern: an issue
    # ending "downgrading works: pip install ... torch==2.4.1 torchvision==0.19.1 torchaudio==2.4.1").
    body = (
        "- PyTorch: 2.8.0+cu128\n\nDowngrading works:\n"
        " pip install --index-url https://download.pytorch.org/whl/cu121 torch==2.4.1 torchvision==0.19.1 "
        "torchaudio==2.4.1"
    )
    assert not {f.id for f in plan(body).findings} & {"torchvision_mismatch", "torchaudio_mismatch"}  # the facts' rules


def test_a_wheel_url_in_pip_freeze_is_read_with_its_tag() -> None:
    body = "My RTX 4090 is not used\ntorch @ file:///tmp/wheels/torch-2.5.1%2Bcpu-cp311-cp311-linux_x86_64.whl"
    assert first(plan(body)) == ("cpu_only_wheel", "error")


@pytest.mark.parametrize("fixture", ["bundle-collector.md", "listed-nccl-env.md"])
def test_real_healthy_h200_reports_from_the_one_file_collector_get_no_finding(fixture: str) -> None:
    # listed-nccl-env.md lists NCCL_P2P_DISABLE=1 in the report's own variables section: context, not an error.
    assert plan(fixture_text("h200-1gpu", fixture)).findings == []


def test_a_real_h200_with_its_only_gpu_hidden_by_cuda_visible_devices() -> None:
    assert first(plan(fixture_text("h200-1gpu", "broken-cvd-missing.md"))) == ("gpus_hidden_by_env", "error")


def test_a_torch_read_from_a_listing_is_evidence_for_every_rule() -> None:
    # Found by benches/fuzz_bench.py: a torch newer than the matrix, known only from a pip freeze line, made the
    # matrix_does_not_know note with no evidence (a ValueError inside the rule).
    case = read_case(default(), "torch==9.9.0+cu130")
    del case.report.facts["torch"]  # as where only the package list read it (the fuzz body's torch line was mangled)
    notes = [f for f in diagnose(case, default()) if f.id == "matrix_does_not_know"]
    assert notes and notes[0].evidence == ["torch==9.9.0+cu130 (package list (body, line 1))"]


@pytest.mark.parametrize(
    ("body", "category"),
    [
        # The text alone: its row's own cause.
        ("RuntimeError: CUDA error: no CUDA-capable device is detected", "gpus_hidden_by_env"),
        # The prose names another usual cause of the same text (errors.yaml other_causes; wording from tune issues).
        ("I run it under WSL2 on Windows 11.\nRuntimeError: CUDA error: no CUDA-capable device is detected",
         "wsl_specific"),
        ("Since the kernel was upgraded it fails:\ncudaGetDeviceCount: no CUDA-capable device is detected",
         "driver_not_loaded"),
        ("Inside docker run -it myimage python train.py:\nRuntimeError: Found no NVIDIA driver on your system.",
         "container_runtime"),
    ],
)  # fmt: skip
def test_the_prose_names_which_usual_cause_an_ambiguous_text_has(body: str, category: str) -> None:
    result = plan(body)
    cause = next(f for f in result.findings if f.severity != "info")
    assert cause.category == category and cause.severity == "warning"
    moved = category != "gpus_hidden_by_env"
    assert ("with what you describe" in result.comment) == moved, result.comment


def test_the_installed_torch_is_the_one_xformers_says_you_have() -> None:
    """xFormers names the torch it was built for first: the CPU build after "you have" is the installed one (a
    CUDA build read from the same line would refute the CPU-only diagnosis; invoke-ai/InvokeAI#5130's wording)."""
    body = (
        "After upgrading it falls back to the CPU.\n```\nWARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. "
        "xFormers was built for:\n    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.1.0+cpu)\n```"
    )
    assert first(plan(body)) == ("cpu_only_wheel", "error")


# DGL's own CPU build (dmlc/dgl#5427, a tune issue), beside a torch that is a CUDA build.
DGL_CPU = (
    "PyTorch version: 2.1.0+cu121\nIs CUDA available: True\nCUDA used to build PyTorch: 12.1\n"
    "dgl._ffi.base.DGLError: [17:19:38] /opt/dgl/src/runtime/c_runtime_api.cc:88: Check failed: allow_missing: "
    "Device API gpu is not enabled. Please install the cuda version of dgl.\n"
)


def test_another_package_s_cpu_build_is_named_with_its_own_fix_and_torch_s_facts_do_not_refute_it() -> None:
    result = plan(DGL_CPU)
    cause = result.findings[0]
    assert (cause.id, cause.category) == ("package_without_cuda", "cpu_only_wheel")
    assert "dgl" in cause.title and "https://www.dgl.ai/pages/start.html" in cause.fix
    # never torch's wheel index: the text is not about torch
    assert "download.pytorch.org" not in cause.fix and "pip uninstall -y torch" not in cause.fix
    assert not any(f.id == "cpu_only_wheel" for f in result.findings)


def test_a_torch_cpu_text_still_gets_torch_s_fix_and_a_package_text_alone_no_torch_finding() -> None:
    torch_cpu = plan("AssertionError: Torch not compiled with CUDA enabled")
    assert "download.pytorch.org" in torch_cpu.findings[0].fix
    jax = plan(
        "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu."
    )
    assert [f.id for f in jax.findings if f.category == "cpu_only_wheel"] == ["package_without_cuda"]
    assert jax.findings[0].severity == "warning" and "jaxlib" in jax.findings[0].fix


def test_host_ram_exhaustion_is_told_as_ram_not_gpu_memory() -> None:
    result = plan(
        "RuntimeError: [enforce fail at alloc_cpu.cpp:73] . DefaultCPUAllocator: can't allocate memory: you tried to "
        "allocate 116813856768 bytes. Error code 12 (Cannot allocate memory)"
    )
    assert first(result) == ("oom_or_memory", "warning")
    assert "RAM" in result.findings[0].fix and "PYTORCH_CUDA_ALLOC_CONF" not in result.findings[0].fix
    assert "RAM" in result.findings[0].title and "GPU memory exhausted" not in result.findings[0].title


def test_a_version_named_in_a_sentence_refutes_no_words_but_a_report_s_does() -> None:
    # meizhong986/WhisperJAV#334 (tune): the sentence names the CUDA build that was replaced, then the CPU one.
    told = plan(
        "doing `pip install git+https://example.invalid/x.git` it seems to uninstall the `torch-2.11.0+cu128` and "
        "replace it with `torch-2.12.0`\n\nEdit:Seems to install the CPU version of `torchvision-0.27.0` too",
        "When Installing ClearerVoice-Studio it installs Torch for CPU",
    )
    assert first(told) == ("cpu_only_wheel", "warning")
    reported = plan(
        "PyTorch version: 2.5.1+cu124\nCUDA used to build PyTorch: 12.4\n\nI think pip gave me the cpu version"
    )
    assert all(f.category != "cpu_only_wheel" for f in reported.findings)


def test_words_about_a_cpu_only_build_in_an_issue_that_never_names_torch_get_no_torch_command() -> None:
    """A CPU-only "release binary" may be llama.cpp's or onnxruntime's: torch's reinstall would be wrong."""
    unnamed = plan("The release binary is a CPU-only build, so the GPU is never used.")
    cause = unnamed.findings[0]
    assert cause.category == "cpu_only_wheel" and "pip uninstall -y torch" not in cause.fix
    assert "torch is a CPU-only build" not in cause.title
    named = plan("pip gave me the cpu-only build of torch")
    assert "pip uninstall -y torch" in named.findings[0].fix
