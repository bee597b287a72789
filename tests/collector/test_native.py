"""Every probe on Windows and macOS, simulated on any OS: each answers or says why not, and the report renders.

The probes see the platform through `Context.platform`; what they would ask Windows or macOS itself (the `platform`
module, the registry and kernel32, sysctl) is answered from real outputs in tests/fixtures/{windows,macos,pastes}.
"""

from __future__ import annotations

import os
import platform as stdlib_platform
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from collector import gather, markdown, native
from collector.collect import collect
from collector.context import Options
from collector.probes import all_probes, gpus, platform
from collector.report.model import Fact, Meta, Missing, Report
from collector.report.schema import CPU, DRIVER, GPUS, LIMITS, OS, RUNTIME, TOOLKIT, DriverInfo, Limits, OsInfo
from tests.collector.conftest import FakeNvml, FakeRunner, NVMLError, make_context, ok
from tests.conftest import fixture_text

MIB = 1024 * 1024
SYSTEM32_SMI = "C:\\Windows\\System32\\nvidia-smi.exe"
NVSMI_SMI = "C:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvidia-smi.exe"
# The CUDA installer's layout; the nvcc banner below (ComfyUI user, mixlab-nodes#344) says release 12.1.
CUDA_PATH = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.1"


def host_probes() -> list[Any]:
    """Every probe but the interpreter's: its children run in the real interpreter, whatever the simulated OS."""
    return [probe for probe in all_probes() if not probe.name.startswith("collector.probes.interpreter.")]


def windows_11_box() -> dict[str, str]:
    """The Windows 11 Pro machine of pytorch#51858 (tests/fixtures/pastes/collect_env-windows-1.txt)."""
    text = fixture_text("pastes", "collect_env-windows-1.txt")
    fields = dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)
    cpu = re.search(r"^Name=(.+)$", text, re.M)
    assert cpu is not None
    return {"platform": fields["Python platform"], "cpu": cpu.group(1), "cuda_bin": fields["cuDNN version"]}


def nvcc_banner() -> str:
    text = fixture_text("windows", "nvidia-smi-driver-model-560.txt")
    return text.split("## NVCC --VERSION\n```\n", 1)[1].split("```", 1)[0]


def simulate_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    box = windows_11_box()
    _, release, version, service_pack = box["platform"].split("-")  # "Windows-10-10.0.22621-SP0"
    monkeypatch.setattr(stdlib_platform, "win32_ver", lambda: (release, version, service_pack, "Multiprocessor Free"))
    monkeypatch.setattr(stdlib_platform, "win32_edition", lambda: "Professional", raising=False)  # "Windows 11 Pro"
    monkeypatch.setattr(stdlib_platform, "machine", lambda: "AMD64")
    # 65536 MB: the Windows box of ComfyUI-LatentSyncWrapper#128 ("Memory Size: 65536 MB Total").
    monkeypatch.setattr(native, "_windows_memory", lambda: 65536 * MIB)
    monkeypatch.setattr(native, "_windows_cpu", lambda: (box["cpu"], ["sse4_2", "avx", "avx2"]))


def test_every_probe_on_windows_answers_or_says_why_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    simulate_windows(monkeypatch)
    nvcc = CUDA_PATH + "\\bin\\nvcc.exe"
    runner = FakeRunner(
        {
            (SYSTEM32_SMI, "-q", "-x"): ok((SYSTEM32_SMI,), fixture_text("windows", "nvidia-smi-q-x-wddm-531.xml")),
            (nvcc, "--version"): ok((nvcc,), nvcc_banner()),
        }
    )
    env = {"WINDIR": "C:\\Windows", "PATH": CUDA_PATH + "\\bin;C:\\Windows\\System32", "CUDA_PATH": CUDA_PATH}
    ctx = make_context(tmp_path, files={SYSTEM32_SMI: "", nvcc: ""}, env=env, runner=runner, platform="win32")
    report = collect(ctx, host_probes(), Meta())

    assert_answered(report)
    assert report.get(OS) == OsInfo(
        system="Windows", machine="AMD64", distro="Windows 11 Professional", kernel="10.0.22621"
    )
    (gpu,) = report.get(GPUS) or []
    assert (gpu.name, gpu.driver_model, gpu.pci_bus_id) == ("NVIDIA GeForce RTX 3080 Ti", "WDDM", "00000000:01:00.0")
    assert report.get(DRIVER) == DriverInfo(version="531.41", cuda_max="12.1")
    runtime = report.get(RUNTIME)
    assert runtime is not None and runtime.wsl is None and "sys.platform is win32" in runtime.evidence[0]
    assert report.get(LIMITS) == Limits(memory_bytes=65536 * MIB)
    assert report.get(CPU).model == windows_11_box()["cpu"]  # type: ignore[union-attr]
    toolkit = report.result(TOOLKIT)
    assert isinstance(toolkit, Fact) and [(n.path, n.version) for n in toolkit.value] == [(nvcc, "12.1.66")]
    for name in ("kernel_modules", "library_copies"):
        assert report.facts[name].status == "skipped" and "Windows" in report.facts[name].reason  # type: ignore[union-attr]

    text = markdown.render(report)
    assert "Windows 11 Professional" in text and "NVIDIA GeForce RTX 3080 Ti (sm_?, WDDM)" in text
    assert "/dev/shm:" not in text and "Traceback" not in text  # the Platform section names no Linux-only place


def test_every_probe_on_macos_answers_or_says_why_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = fixture_text("macos", "plasma-systeminfo-ventura.txt").splitlines()
    summary = dict(line.split(": ", 1) for line in lines if ": " in line)
    brand = fixture_text("macos", "sysctl-machdep-cpu-m1pro.txt").rsplit("machdep.cpu.brand_string: ", 1)[1].strip()
    monkeypatch.setattr(stdlib_platform, "mac_ver", lambda: (summary["OS"].split()[1], ("", "", ""), "arm64"))
    monkeypatch.setattr(stdlib_platform, "machine", lambda: "arm64")
    memsize = str(int(summary["RAM"].split()[0]) * MIB)
    runner = FakeRunner(
        {
            ("sysctl", "-n", "machdep.cpu.brand_string"): ok(("sysctl",), brand + "\n"),
            ("sysctl", "-n", "hw.memsize"): ok(("sysctl",), memsize + "\n"),
        }
    )
    ctx = make_context(tmp_path, runner=runner, platform="darwin")
    report = collect(ctx, host_probes(), Meta())

    assert_answered(report)
    assert not [argv for argv in runner.calls if "nvidia-smi" in argv[0]], "no NVIDIA driver to ask on macOS"
    for name in ("driver", "gpus", "topology", "kernel_modules", "library_copies"):
        missing = report.facts[name]
        assert isinstance(missing, Missing) and missing.status == "skipped" and "macOS" in missing.reason, name
    assert report.get(OS).distro == "macOS 13.4.1"  # type: ignore[union-attr]
    assert report.get(CPU).model == "Apple M1 Pro"  # type: ignore[union-attr]
    assert report.get(LIMITS).memory_bytes == 16384 * MIB  # type: ignore[union-attr]

    text = markdown.render(report)
    assert "macOS 13.4.1" in text and "NVIDIA ships no CUDA driver for macOS" in text and "Traceback" not in text


def test_macos_memory_unreadable_says_why(tmp_path: Path) -> None:
    result = platform.limits(make_context(tmp_path, platform="darwin"))
    assert isinstance(result, Missing) and result.reason.startswith("macOS: the total memory could not be read")
    assert "sysctl not found" in result.reason


def test_windows_without_nvml_or_nvidia_smi_says_both(tmp_path: Path) -> None:
    result = gpus.driver(make_context(tmp_path, env={"WINDIR": "C:\\Windows"}, platform="win32"))
    assert isinstance(result, Missing)
    assert result.reason == "nvmlInit failed: NVML Shared Library Not Found; fallback failed: nvidia-smi not found"


@pytest.mark.parametrize(
    ("files", "env", "expected"),
    [
        ({SYSTEM32_SMI: ""}, {"WINDIR": "C:\\Windows"}, SYSTEM32_SMI),  # DCH drivers
        ({NVSMI_SMI: ""}, {"PROGRAMFILES": "C:\\Program Files"}, NVSMI_SMI),  # older drivers; os.environ upper-cases
        ({}, {}, "nvidia-smi"),  # neither: left to the search path, and its failure says "not found"
    ],
)
def test_nvidia_smi_exe_is_looked_for_where_the_driver_puts_it(
    tmp_path: Path, files: dict[str, str], env: dict[str, str], expected: str
) -> None:
    assert native.nvidia_smi(make_context(tmp_path, files=files, env=env, platform="win32")) == expected


class DriverModelNvml(FakeNvml):
    """The H200 capture, with NVML's driver-model answer: Linux refuses the call; Windows answers [current, pending]."""

    def __init__(self, models: list[int] | None) -> None:
        fixture = FakeNvml.from_fixture()
        super().__init__(fixture.probe)
        self.models = models

    def nvmlDeviceGetDriverModel(self, handle: int) -> list[int]:
        if self.models is None:
            raise NVMLError("Not Supported")
        return self.models


@pytest.mark.parametrize(("models", "expected"), [(None, None), ([0, 0], "WDDM"), ([1, 1], "TCC"), ([2, 0], "MCDM")])
def test_driver_model_from_nvml(tmp_path: Path, models: list[int] | None, expected: str | None) -> None:
    nvml = DriverModelNvml(models)
    result = gpus.gpus(make_context(tmp_path, nvml=lambda: nvml))
    assert isinstance(result, Fact) and {gpu.driver_model for gpu in result.value} == {expected}


@pytest.mark.parametrize(("fixture", "expected"), [("proc-version-wsl2.txt", 2), ("proc-version-wsl1.txt", 1)])
def test_wsl_is_told_by_the_kernel_release_in_proc_version_too(tmp_path: Path, fixture: str, expected: int) -> None:
    files = {"/proc/version": fixture_text("windows", fixture), "/usr/lib/wsl/lib/libcuda.so.1": ""}
    runtime = platform.runtime(make_context(tmp_path, files=files))
    assert isinstance(runtime, Fact) and runtime.value.wsl == expected
    assert "/usr/lib/wsl/lib exists (the Windows driver's libraries)" in runtime.value.evidence


def test_native_linux_is_neither_wsl_nor_windows(tmp_path: Path) -> None:
    files = {"/proc/version": "Linux version 6.1.0-40-cloud-amd64 (debian-kernel@lists.debian.org)\n"}
    runtime = platform.runtime(make_context(tmp_path, files=files))
    assert isinstance(runtime, Fact) and runtime.value.wsl is None and runtime.value.evidence == []


def assert_answered(report: Report) -> None:
    """Each fact is a Fact, or a Missing with a reason; none is a probe's exception (status "error")."""
    for name, result in report.facts.items():
        assert isinstance(result, (Fact, Missing)), name
        if isinstance(result, Missing):
            assert result.status in ("missing", "skipped") and result.reason, (name, result)
            assert "Traceback" not in (result.detail or ""), name


def test_the_collector_run_under_sys_platform_win32(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real entry (gather.probe_report, real runner, real pynvml, this machine's files and interpreter), with
    Windows' sys.platform and no process groups: pynvml looks for nvml.dll in System32 and NVSMI, the probes take
    Windows' ways, children are ended without killpg; every fact answers or says why, and the report renders."""
    for module in ("socket", "xml.etree.ElementTree", "collector.parsers.smi", "pynvml"):  # imported as on Linux
        __import__(module)
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.delattr(os, "killpg", raising=False)
    options = Options(python=sys.executable, smoke="quick", timeout=60.0)
    env = {"PATH": os.environ.get("PATH", ""), "WINDIR": "C:\\Windows"}
    report = gather.redacted(options, env, gather.probe_report(options, env))
    monkeypatch.undo()

    assert_answered(report)
    assert report.get(OS).system == "Windows"  # type: ignore[union-attr]
    driver = report.facts["driver"]
    assert isinstance(driver, Missing) and driver.reason.startswith("nvmlInit failed: NVML Shared Library Not Found")
    assert "(nvml.dll, part of the NVIDIA driver, is in neither %WINDIR%\\System32 nor" in driver.reason
    assert report.facts["kernel_modules"].status == "skipped"  # type: ignore[union-attr]
    assert isinstance(report.facts["python"], Fact) and isinstance(report.facts["packages"], Fact)
    text = markdown.render(report)
    assert "### Environment" in text and "Traceback" not in text
