"""Readers on real pastes of many shapes (tests/fixtures/pastes, sources in its SOURCES.md)."""

from __future__ import annotations

import pytest

from bot.diagnosis.matrix import Index
from bot.diagnosis.readers import read_case
from collector.report.schema import DRIVER, GPUS, OS, PACKAGES, TORCH
from tests.conftest import fixture_text


def read(matrix: Index, name: str):  # type: ignore[no-untyped-def]
    return read_case(matrix, fixture_text("pastes", name))


@pytest.mark.parametrize(
    ("name", "version", "build", "hip"),
    [
        ("collect_env-rocm-1.txt", "2.7.0.dev20250123+rocm6.3", "rocm", "6.3.42131-fa1d09cbd"),
        ("collect_env-rocm-2.txt", "2.5.1+rocm6.2", "rocm", "6.2.41133-dd7f95766"),
        ("collect_env-rocm-3.txt", None, "rocm", None),
        ("collect_env-rocm-4.txt", "2.9.1+rocm7.13.0a20260401", "rocm", None),
    ],
)
def test_rocm_reports(matrix: Index, name: str, version: str | None, build: str, hip: str | None) -> None:
    torch = read(matrix, name).report.get(TORCH)
    assert torch is not None and torch.build == build
    if version:
        assert torch.version == version
    if hip:
        assert torch.hip == hip
    assert torch.cuda is None


def test_rocm_gpu_name(matrix: Index) -> None:
    gpus = read(matrix, "collect_env-rocm-2.txt").report.get(GPUS) or []
    assert [g.name for g in gpus] == ["AMD Instinct MI300X (gfx942:sramecc+:xnack-)"]


@pytest.mark.parametrize("name", ["collect_env-windows-1.txt", "collect_env-windows-2.txt", "issue-form-3.md"])
def test_windows_reports(matrix: Index, name: str) -> None:
    case = read(matrix, name)
    assert case.report.get(OS) and case.report.get(OS).system == "Windows"  # type: ignore[union-attr]
    assert case.report.get(TORCH) is not None


def test_quoted_old_report_with_yes_no(matrix: Index) -> None:
    torch = read(matrix, "collect_env-old-1.txt").report.get(TORCH)
    assert torch and torch.version and torch.version.startswith("1.5.0") and torch.available is True
    assert torch.debug is False
    gpus = read(matrix, "collect_env-old-1.txt").report.get(GPUS) or []
    assert len(gpus) == 2 and all("TITAN RTX" in g.name for g in gpus)


def test_old_report_pip_and_conda_disagree(matrix: Index) -> None:
    case = read(matrix, "collect_env-old-2.txt")
    assert case.report.get(TORCH).available is False  # type: ignore[union-attr]
    packages = case.report.get(PACKAGES)
    assert packages and [d.name for d in packages.duplicates] == ["torch", "torchvision"]


@pytest.mark.parametrize("name", ["vllm-collect_env-1.txt", "vllm-collect_env-3.txt"])
def test_vllm_new_format(matrix: Index, name: str) -> None:
    torch = read(matrix, name).report.get(TORCH)
    assert torch is not None and torch.version


def test_vllm_new_format_cpu_build(matrix: Index) -> None:
    torch = read(matrix, "vllm-collect_env-1.txt").report.get(TORCH)
    assert torch and (torch.version, torch.build, torch.available) == ("2.8.0+cpu", "cpu", False)


def test_vllm_old_format(matrix: Index) -> None:
    case = read(matrix, "vllm-collect_env-old-1.txt")
    torch = case.report.get(TORCH)
    assert torch and torch.version == "2.4.0+cu121"
    assert [g.name for g in case.report.get(GPUS) or []][:1] == ["NVIDIA L40S-48C"]


@pytest.mark.parametrize(
    ("name", "driver", "cuda", "count", "first"),
    [
        ("nvidia-smi-2.txt", "517.48", "11.7", 2, None),
        ("nvidia-smi-3.txt", "546.80", None, 1, "NVIDIA GeForce RTX 3060"),
        ("nvidia-smi-4.txt", "550.54.15", "12.4", None, "NVIDIA H100 80GB HBM3"),
        ("nvidia-smi-5.txt", "610.43.02", "13.3", 2, "NVIDIA B200"),
        ("nvidia-smi-6.txt", "510.108.03", None, None, None),
    ],
)
def test_nvidia_smi_tables(
    matrix: Index, name: str, driver: str, cuda: str | None, count: int | None, first: str | None
) -> None:
    report = read(matrix, name).report
    info = report.get(DRIVER)
    assert info and info.version == driver
    if cuda:
        assert info.cuda_max == cuda
    gpus = report.get(GPUS) or []
    if count:
        assert len(gpus) == count
    if first:
        assert gpus[0].name == first


def test_nvidia_smi_mig_enabled(matrix: Index) -> None:
    gpus = read(matrix, "nvidia-smi-6.txt").report.get(GPUS) or []
    assert gpus and all(g.mig_mode for g in gpus)


def test_nvidia_smi_listing_with_mig_devices(matrix: Index) -> None:
    gpus = read(matrix, "nvidia-smi-L-2.txt").report.get(GPUS) or []
    assert [g.index for g in gpus] == [0, 1, 2, 3] and gpus[0].name == "NVIDIA A100-SXM4-80GB"


def test_conda_lists(matrix: Index) -> None:
    cpu = read(matrix, "conda-list-1.txt").report.get(PACKAGES)
    torch = next(p for p in cpu.selected if p.name == "torch")  # type: ignore[union-attr]
    # conda's "py3.8_cpu_0" build is read as pip would tag it: a CPU-only torch
    assert torch.version == "1.11.0+cpu" and torch.installer == "conda"


def test_issue_form_with_the_template_left_in(matrix: Index, run) -> None:  # type: ignore[no-untyped-def]
    plan = run(fixture_text("pastes", "issue-form-1.md"))
    assert plan.needs_env


def test_could_not_collect_beside_a_torch_version_is_a_build_without_cuda(matrix: Index) -> None:
    # collect_env prints torch.version.cuda None as "None" only on a host with no CUDA at all, else "Could not
    # collect": this Windows paste's plain 2.2.2 is PyPI's CPU-only Windows wheel beside an RTX 4080.
    torch = read(matrix, "issue-form-3.md").report.get(TORCH)
    assert torch is not None and (torch.version, torch.build) == ("2.2.2", "cpu")


def test_could_not_collect_without_a_torch_version_says_nothing_of_the_build(matrix: Index) -> None:
    # torch that did not import: every torch field is "N/A" or "Could not collect"; no build can be read.
    text = fixture_text("pastes", "issue-form-3.md").replace("PyTorch version: 2.2.2", "PyTorch version: N/A")
    torch = read_case(matrix, text).report.get(TORCH)
    assert torch is None or torch.build is None
