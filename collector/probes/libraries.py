"""Other copies of the CUDA libraries torch loads, on LD_LIBRARY_PATH and in the ldconfig cache.

With RUNPATH, LD_LIBRARY_PATH beats the wheel's own copies; a stale system libcudnn or libnccl found first is
the classic "undefined symbol" / "cuDNN version incompatibility" cause.
"""

from __future__ import annotations

import os
import posixpath
import re
from typing import Literal

from collector import native
from collector.context import Context
from collector.probes import probe
from collector.report.model import Fact, Missing, Result
from collector.report.schema import LIBRARY_COPIES, LibraryCopy

WATCHED = re.compile(
    r"^(libcudnn|libnccl|libcublas|libcublasLt|libcudart|libnvrtc|libnvJitLink|libcuda)\.so(\.[\d.]+)?$"
)
LDCONFIG_LINE = re.compile(r"^\s*(\S+) \(([^)]*)\) => (\S+)$")


@probe(LIBRARY_COPIES)
def library_copies(ctx: Context) -> Result:
    if ctx.platform == native.WINDOWS:
        reason = "Windows has no LD_LIBRARY_PATH or ldconfig; the DLLs torch loaded, and from where, are in libraries"
        return Missing(reason, "skipped")
    if ctx.platform == native.MACOS:
        return Missing("macOS: no CUDA libraries to shadow (NVIDIA ships no CUDA for macOS)", "skipped")
    copies: dict[str, LibraryCopy] = {}
    for directory in ctx.env.get("LD_LIBRARY_PATH", "").split(":"):
        for filename in ctx.host.listdir(directory) if directory else []:
            _add(ctx, copies, posixpath.join(directory, filename), "LD_LIBRARY_PATH")
    result = ctx.run(("ldconfig", "-p"), timeout=5.0)
    if result.not_found:
        result = ctx.run(("/sbin/ldconfig", "-p"), timeout=5.0)
    for line in result.stdout.splitlines() if result.ok else []:
        match = LDCONFIG_LINE.match(line)
        # 32-bit copies ("libc6" without x86-64/AArch64) are never loaded by a 64-bit torch.
        if match and "64" in match.group(2):
            _add(ctx, copies, match.group(3), "ldconfig")
    sources = "LD_LIBRARY_PATH, ldconfig -p" if result.ok else f"LD_LIBRARY_PATH ({result.failure()})"
    return Fact(sorted(copies.values(), key=lambda copy: (copy.name, copy.path)), source=sources)


def _add(ctx: Context, copies: dict[str, LibraryCopy], path: str, via: Literal["LD_LIBRARY_PATH", "ldconfig"]) -> None:
    match = WATCHED.match(os.path.basename(path))
    if not match:
        return
    real = os.path.realpath(ctx.host.path(path))
    if real in copies:
        return
    copies[real] = LibraryCopy(
        name=match.group(1), path=path, version=soname_version(os.path.basename(real)), found_via=via
    )


def soname_version(filename: str) -> str | None:
    """libcudnn.so.9.14.0 -> "9.14.0"; libnccl.so.2 -> "2"."""
    match = re.search(r"\.so\.([\d.]+)$", filename)
    return match.group(1) if match else None
