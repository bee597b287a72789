"""The DLLs a Windows process has loaded, for the torch child (Windows has no /proc/self/maps).

Stdlib only and Python >= 3.8. The list comes from the process itself (K32EnumProcessModules, kernel32 since
Windows 7), not from scanning torch\\lib: torch loads every DLL there at import, but a cuDNN or cuBLAS found first on
PATH or in System32 is the one that runs, and only the process's own module list shows which.
"""

from __future__ import annotations

import ntpath
from typing import Any

# CUDA DLLs are named <family>64_<major>.dll (cudnn_ops64_9.dll, cublasLt64_12.dll, nvrtc64_120_0.dll), nvJitLink
# is nvJitLink_<ver>_0.dll, and the driver's own is nvcuda.dll. Families take Linux's "lib" names in the report.
FAMILIES = ("cudart", "cublas", "cublasLt", "cudnn", "nvrtc", "nvJitLink", "cusparseLt")


def dll_family(path: str) -> tuple[str, str | None] | None:
    """("libcudnn_ops", "9") for ...\\cudnn_ops64_9.dll; ("libcuda", None) for nvcuda.dll; None for other DLLs."""
    name = ntpath.basename(path)
    if not name.lower().endswith(".dll"):
        return None
    stem = name[:-4]
    if stem.lower() == "nvcuda":
        return "libcuda", None
    head, sep, version = stem.partition("64_")
    if not sep:
        head, _, version = stem.partition("_")
    if head.split("_")[0] not in FAMILIES:
        return None
    return "lib" + head, version.split("_")[0] or None


def loaded_modules() -> list[str] | None:
    """Every module's full path in this process, or None where the list cannot be had."""
    try:
        return _modules()
    except Exception:  # ctypes.ArgumentError and the like: the torch facts already sent must not be lost with it
        return None


def _modules() -> list[str] | None:
    try:
        import ctypes
        from ctypes import wintypes

        kernel32: Any = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined,unused-ignore]
    except (ImportError, AttributeError, OSError):
        return None
    kernel32.GetCurrentProcess.restype = wintypes.HANDLE
    enum = kernel32.K32EnumProcessModules
    enum.argtypes = [wintypes.HANDLE, ctypes.POINTER(wintypes.HMODULE), wintypes.DWORD, ctypes.POINTER(wintypes.DWORD)]
    kernel32.GetModuleFileNameW.argtypes = [wintypes.HMODULE, wintypes.LPWSTR, wintypes.DWORD]
    process, needed, count = kernel32.GetCurrentProcess(), wintypes.DWORD(), 1024
    while True:
        handles = (wintypes.HMODULE * count)()
        if not enum(process, handles, ctypes.sizeof(handles), ctypes.byref(needed)):
            return None
        if needed.value <= ctypes.sizeof(handles):
            break
        count = needed.value // ctypes.sizeof(wintypes.HMODULE)  # more DLLs than room: ask again, bigger
    paths = []
    buffer = ctypes.create_unicode_buffer(32768)
    for handle in handles[: needed.value // ctypes.sizeof(wintypes.HMODULE)]:
        if kernel32.GetModuleFileNameW(handle, buffer, len(buffer)):
            paths.append(buffer.value)
    return paths
