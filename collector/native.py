"""Platform facts where Linux's files are absent: Windows (its registry and kernel32) and macOS (sysctl).

The probes in collector/probes/platform.py read /proc and /sys; on Windows and macOS they ask here instead. Each
function answers a Result: a Fact from the OS's own interface, or a Missing that says what this OS lacks. WSL is
Linux (sys.platform "linux") and never comes here: its kernel release and /usr/lib/wsl/lib tell it apart.
"""

from __future__ import annotations

import ntpath
import os
import platform
from typing import Any

from collector.context import Context
from collector.report.model import Fact, Missing, Result
from collector.report.schema import CpuInfo, Limits, OsInfo, Runtime

WINDOWS, MACOS = "win32", "darwin"
NAMES = {WINDOWS: "Windows", MACOS: "macOS"}
# IsProcessorFeaturePresent's PF_* numbers (winnt.h) for the ISA features torch's CPU kernels and wheels need.
# Windows releases before 10 2004 do not know 38-41 and answer "absent" for them.
WINDOWS_CPU_FEATURES = {"sse4_2": 38, "avx": 39, "avx2": 40, "avx512f": 41}
# Python before 3.12 names Windows 11 "10"; the build number tells them apart.
WINDOWS_11_BUILD = 22000


def elsewhere(ctx: Context) -> bool:
    """Whether the probed OS is one this module answers for."""
    return ctx.platform in NAMES


def name(ctx: Context) -> str:
    return NAMES.get(ctx.platform, ctx.platform)


def os_info(ctx: Context) -> Result:
    if ctx.platform == WINDOWS:
        release, version, _, _ = platform.win32_ver()
        build = version.rsplit(".", 1)[-1]
        if release == "10" and build.isdigit() and int(build) >= WINDOWS_11_BUILD:
            release = "11"
        edition = getattr(platform, "win32_edition", lambda: None)()
        distro = " ".join(part for part in ("Windows", release, edition) if part)
        info = OsInfo(system="Windows", machine=platform.machine(), distro=distro, kernel=version or None)
        return Fact(info, source="platform.win32_ver, platform.win32_edition")
    release = platform.mac_ver()[0]
    info = OsInfo(
        system="Darwin",
        machine=platform.machine(),
        distro=f"macOS {release}" if release else "macOS",
        kernel=platform.release() or None,
    )
    return Fact(info, source="platform.mac_ver, uname")


def runtime(ctx: Context) -> Result:
    evidence = [f"sys.platform is {ctx.platform}: {name(ctx)} itself (under WSL it would be linux)"]
    slurm = "SLURM_JOB_ID" in ctx.env
    return Fact(Runtime(slurm_job=slurm, evidence=evidence), source="sys.platform, environment")


def limits(ctx: Context) -> Result:
    memory, source = (_windows_memory(), "GlobalMemoryStatusEx") if ctx.platform == WINDOWS else _mac_memory(ctx)
    if memory is None:
        return Missing(f"{name(ctx)}: the total memory could not be read ({source}); it has no cgroups or /dev/shm")
    return Fact(Limits(memory_bytes=memory), source=f"{source} ({name(ctx)} has no cgroups or /dev/shm)")


def _windows_memory() -> int | None:
    import ctypes

    class MemoryStatus(ctypes.Structure):
        _fields_ = [("length", ctypes.c_ulong), ("load", ctypes.c_ulong)] + [
            (field, ctypes.c_ulonglong)
            for field in ("total", "available", "page_total", "page_free", "virtual", "virtual_free", "extended")
        ]

    status = MemoryStatus()
    status.length = ctypes.sizeof(MemoryStatus)
    try:
        kernel32: Any = ctypes.windll.kernel32  # type: ignore[attr-defined,unused-ignore]
        ok = kernel32.GlobalMemoryStatusEx(ctypes.byref(status))
    except (AttributeError, OSError):
        return None
    return int(status.total) if ok else None


def _mac_memory(ctx: Context) -> tuple[int | None, str]:
    result = ctx.run(("sysctl", "-n", "hw.memsize"), 5.0)
    text = result.stdout.strip()
    return (int(text), "sysctl hw.memsize") if result.ok and text.isdigit() else (None, result.failure())


def cpu(ctx: Context) -> Result:
    if ctx.platform == WINDOWS:
        model, flags = _windows_cpu()
        source = "registry CentralProcessor\\0, IsProcessorFeaturePresent"
    else:
        result = ctx.run(("sysctl", "-n", "machdep.cpu.brand_string"), 5.0)
        model, flags = (result.stdout.strip() or None) if result.ok else None, []
        source = "sysctl machdep.cpu.brand_string" if result.ok else f"os.cpu_count ({result.failure()})"
    return Fact(CpuInfo(model=model, threads=os.cpu_count(), flags=flags), source=source)


def _windows_cpu() -> tuple[str | None, list[str]]:
    model = None
    try:
        import winreg

        key = r"HARDWARE\DESCRIPTION\System\CentralProcessor\0"
        with winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, key) as handle:  # type: ignore[attr-defined,unused-ignore]
            model = str(winreg.QueryValueEx(handle, "ProcessorNameString")[0]).strip() or None  # type: ignore[attr-defined,unused-ignore]
    except (ImportError, OSError):
        pass
    try:
        import ctypes

        present: Any = ctypes.windll.kernel32.IsProcessorFeaturePresent  # type: ignore[attr-defined,unused-ignore]
        flags = [flag for flag, number in WINDOWS_CPU_FEATURES.items() if present(number)]
    except (AttributeError, OSError):
        flags = []
    return model, flags


def kernel_modules(ctx: Context) -> Missing:
    if ctx.platform == WINDOWS:
        return Missing("Windows has no Linux kernel modules: its NVIDIA driver is a display driver", "skipped")
    return Missing("macOS has no Linux kernel modules, and NVIDIA ships no CUDA driver for macOS", "skipped")


def no_nvidia_driver() -> Missing:
    return Missing("macOS: NVIDIA ships no CUDA driver for macOS (the last was for CUDA 10.2)", "skipped")


def nvidia_smi(ctx: Context) -> str:
    """nvidia-smi's path. Windows DCH drivers put nvidia-smi.exe in System32 (on the search path); older ones in
    %ProgramFiles%\\NVIDIA Corporation\\NVSMI, which is not on PATH: the places pynvml looks for nvml.dll."""
    if ctx.platform != WINDOWS:
        return "nvidia-smi"
    windows = _env(ctx, "WINDIR") or _env(ctx, "SystemRoot") or "C:\\Windows"
    programs = _env(ctx, "ProgramFiles") or "C:\\Program Files"
    for path in (
        ntpath.join(windows, "System32", "nvidia-smi.exe"),
        ntpath.join(programs, "NVIDIA Corporation", "NVSMI", "nvidia-smi.exe"),
    ):
        if ctx.host.exists(path):
            return path
    return "nvidia-smi"


def _env(ctx: Context, name: str) -> str | None:
    # Windows' environment is case-insensitive; os.environ copies it upper-cased.
    return ctx.env.get(name) or ctx.env.get(name.upper())
