"""CPU, ROCm and XPU wheels in the matrix (data/indexes.yaml): `bot matrix` answers for them, and a fix keeps a user
on the wheel index their torch came from, never another accelerator's (issue 17, item 4)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from bot.diagnosis.matrix import Index, indexes, query
from bot.diagnosis.plan import Plan
from tests.conftest import captured_output, fixture_text

Run = Callable[..., Plan]
H200_ENV = captured_output("h200", "torch-collect-env.txt")


def fixes(plan: Plan) -> dict[str, str]:
    return {finding.category or "": finding.fix for finding in plan.findings}


def test_every_index_row_has_a_source_and_a_known_accelerator(matrix: Index) -> None:
    assert {row.accelerator for row in matrix.matrix.indexes} == {"cpu", "rocm", "xpu"}
    for row in matrix.matrix.indexes:
        assert row.source.strip() and matrix.release(row.torch_min) and matrix.release(row.torch_max), row


def test_the_indexes_of_a_release(matrix: Index) -> None:
    def of(torch: str) -> list[str]:
        release = matrix.release(torch)
        assert release is not None
        return indexes.variants(matrix, release)

    assert of("2.13.0") == ["cu126", "cu129", "cu130", "cu132", "rocm7.1", "rocm7.2", "cpu", "xpu"]
    assert of("2.4.1") == ["cu118", "cu121", "cu124", "rocm6.0", "rocm6.1", "cpu"]  # XPU wheels start with 2.5
    assert of("2.14.1") == ["cu126", "cu130", "cu132", "cpu"]  # its ROCm and XPU wheels are not in a source read
    assert [indexes.accelerator(v) for v in ("cu128", "rocm6.2.4", "cpu", "xpu", "rocm7.13.0a20260401", "git")] == [
        "cuda", "rocm", "cpu", "xpu", None, None,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("torch", "index", "runs_on"),
    [
        ("2.13.0+cpu", "cpu", "the CPU only"),
        ("2.4.1+rocm6.1", "rocm6.1", "AMD GPUs with ROCm 6.1 (Linux only)"),
        ("2.6.0+rocm6.2.4", "rocm6.2.4", "AMD GPUs with ROCm 6.2.4"),
        ("2.6.0+xpu", "xpu", "Intel GPUs (XPU)"),
    ],
)
def test_matrix_answers_for_cpu_rocm_and_xpu_wheels(
    matrix: Index, capsys: pytest.CaptureFixture[str], torch: str, index: str, runs_on: str
) -> None:
    assert query.run(matrix, torch) == 0
    out = capsys.readouterr().out
    assert f"--index-url https://download.pytorch.org/whl/{index}\n" in out
    assert runs_on in out and "index source:" in out
    assert "driver:" not in out and "whl/cu" not in out  # no NVIDIA driver floor, no CUDA index


def test_matrix_json_for_a_cpu_wheel(matrix: Index, capsys: pytest.CaptureFixture[str]) -> None:
    assert query.run(matrix, "2.13.0+cpu", as_json=True) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["variant"], data["accelerator"], data["archs"]) == ("cpu", "cpu", None)
    assert "driver_linux" not in data and data["runs_on"] == []
    assert (
        data["command"]
        == "pip install torch==2.13.0 torchvision==0.28.0 --index-url https://download.pytorch.org/whl/cpu"
    )
    assert "previous-versions" in data["index"]["source"]


def test_matrix_refuses_an_index_no_source_shows(matrix: Index) -> None:
    assert query.answer(matrix, "2.14.1+xpu") == "torch 2.14 has no xpu wheels (variants: cu126, cu130, cu132, cpu)"
    assert "has no rocm9.9 wheels" in str(query.answer(matrix, "2.4.1+rocm9.9"))


def cpu_build(torchvision: str) -> str:
    """The real H200 collect_env as a CPU-only 2.5.1 build would print it, with `torchvision` beside it."""
    return (
        H200_ENV.replace("2.11.0+cu130", "2.5.1+cpu")
        .replace("CUDA used to build PyTorch: 13.0", "CUDA used to build PyTorch: None")
        .replace("[pip3] torch==2.11.0", "[pip3] torch==2.5.1+cpu")
        .replace("[pip3] torchaudio==2.11.0", "[pip3] torchaudio==2.5.1+cpu")
        .replace("[pip3] torchvision==0.26.0", f"[pip3] torchvision=={torchvision}")
    )


@pytest.mark.parametrize("torchvision", ["0.19.0", "0.20.1+cu124"])
def test_a_cpu_torchvision_mismatch_is_fixed_from_the_cpu_index(run: Run, torchvision: str) -> None:
    fix = fixes(run(cpu_build(torchvision)))["torchvision_mismatch"]
    assert "torchvision==0.20.1 --index-url https://download.pytorch.org/whl/cpu" in fix
    assert "whl/cu" not in fix


def rocm_build(torch: str, *pip: str) -> str:
    """A real ROCm collect_env (vllm-project/vllm#6375: MI100, ROCm 6.1) as `torch` would print it, with `pip`
    lines in the listing its excerpt was cut before."""
    text = fixture_text("pastes", "collect_env-rocm-3.txt").replace("2.4.0.dev20240612+rocm6.1", torch)
    return text + "\nVersions of relevant libraries:\n" + "".join(f"[pip3] {line}\n" for line in pip)


def test_a_rocm_companion_mismatch_is_fixed_from_its_rocm_index(run: Run) -> None:
    text = rocm_build("2.4.1+rocm6.1", "torch==2.4.1+rocm6.1", "torchvision==0.20.1+rocm6.1", "torchaudio==2.5.1")
    found = fixes(run(text))
    assert "torchvision==0.19.1 --index-url https://download.pytorch.org/whl/rocm6.1" in found["torchvision_mismatch"]
    assert "torchaudio==2.4.1 --index-url https://download.pytorch.org/whl/rocm6.1" in found["torchaudio_mismatch"]
    assert not any("whl/cu" in fix for fix in found.values())


def test_a_rocm_build_from_an_index_the_matrix_does_not_know_is_given_no_cuda_index(run: Run) -> None:
    # pytorch/pytorch#180500: AMD's own ROCm 7.13 wheels of torch 2.9.1 (TheRock), not download.pytorch.org's.
    text = fixture_text("pastes", "collect_env-rocm-4.txt") + "\n[pip3] torchvision==0.23.0+rocm7.13.0a20260401\n"
    fix = fixes(run(text))["torchvision_mismatch"]
    assert "pip install --force-reinstall --no-deps torchvision==0.24.1" in fix
    assert "--index-url` torch was installed from" in fix and "download.pytorch.org" not in fix
