"""The CUDA toolkit on the machine (nvcc). It is what extensions compile with, not what torch runs on."""

from __future__ import annotations

import ntpath
import os
import posixpath
import re
from typing import Literal

from collector import native
from collector.context import Context
from collector.probes import probe
from collector.report.model import Fact, Missing, Result
from collector.report.schema import TOOLKIT, Nvcc

Via = Literal["PATH", "CUDA_HOME", "default"]
NVCC_RELEASE = re.compile(r"release (\d+\.\d+), V(\d+\.\d+\.\d+)")


@probe(TOOLKIT)
def toolkit(ctx: Context) -> Result:
    found = []
    for path, via in _candidates(ctx):
        result = ctx.run((path, "--version"), timeout=5.0)
        match = NVCC_RELEASE.search(result.stdout)
        version = match.group(2) if match else None
        found.append(Nvcc(path=path, version=version, found_via=via))
    if not found:
        places = "under CUDA_PATH" if ctx.platform == native.WINDOWS else "under CUDA_HOME or in /usr/local/cuda"
        return Missing(f"nvcc not found on PATH, {places} (torch wheels do not need it)")
    return Fact(found, source="nvcc --version")


def _candidates(ctx: Context) -> list[tuple[str, Via]]:
    # Windows: nvcc.exe, PATH split at ";", and the installer's CUDA_PATH instead of /usr/local/cuda.
    windows = ctx.platform == native.WINDOWS
    join, nvcc, separator = (ntpath.join, "nvcc.exe", ";") if windows else (posixpath.join, "nvcc", ":")
    places: list[tuple[str, Via]] = [
        (join(directory, nvcc), "PATH") for directory in ctx.env.get("PATH", "").split(separator) if directory
    ]
    for name in ("CUDA_HOME", "CUDA_PATH"):
        if ctx.env.get(name):
            places.append((join(ctx.env[name], "bin", nvcc), "CUDA_HOME"))
    if not windows:
        places.append(("/usr/local/cuda/bin/nvcc", "default"))
    seen: set[str] = set()
    unique = []
    for path, via in places:
        real = os.path.realpath(ctx.host.path(path))
        if ctx.host.exists(path) and real not in seen:
            seen.add(real)
            unique.append((path, via))
    return unique
