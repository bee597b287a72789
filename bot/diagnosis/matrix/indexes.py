"""Every wheel index of a torch release: its CUDA variants (torch.yaml), ROCm, CPU and XPU (data/indexes.yaml).

A variant names its index, https://download.pytorch.org/whl/<variant>, and is the local version tag of the wheels
there ("2.4.1+rocm6.1" came from /whl/rocm6.1). torchvision and torchaudio only load into a torch from the same index,
so a fix names the index torch came from, never another accelerator's.
"""

from __future__ import annotations

import re
from typing import Literal

from bot.diagnosis.matrix import Index
from bot.diagnosis.matrix.model import TorchRelease, WheelIndex, version_key

Accelerator = Literal["cuda", "rocm", "cpu", "xpu"]
CUDA_VARIANT = re.compile(r"cu\d{3}")
ROCM_VARIANT = re.compile(r"rocm\d{1,2}\.\d{1,2}(?:\.\d{1,2})?")  # release indexes; "rocm7.13.0a2026…" is AMD's own
OTHER_ORDER: tuple[Literal["rocm", "cpu", "xpu"], ...] = ("rocm", "cpu", "xpu")


def accelerator(variant: str) -> Accelerator | None:
    """ "cu128" -> "cuda", "rocm6.2.4" -> "rocm", "cpu", "xpu"; None for a tag that names no release index."""
    if CUDA_VARIANT.fullmatch(variant):
        return "cuda"
    if ROCM_VARIANT.fullmatch(variant):
        return "rocm"
    if variant == "cpu":
        return "cpu"
    if variant == "xpu":
        return "xpu"
    return None


def row(matrix: Index, release: TorchRelease, kind: str) -> WheelIndex | None:
    """The indexes.yaml row that shows `release` on `kind`'s index, if any."""
    wanted = version_key(release.series)
    return next(
        (
            found
            for found in matrix.matrix.indexes
            if found.accelerator == kind and version_key(found.torch_min) <= wanted <= version_key(found.torch_max)
        ),
        None,
    )


def variants(matrix: Index, release: TorchRelease) -> list[str]:
    """Every index `release` has wheels on: the CUDA variants first, then ROCm's, CPU and XPU."""
    found = list(release.variants)
    for kind in OTHER_ORDER:
        if row(matrix, release, kind) is None:
            continue
        found += [f"rocm{version}" for version in release.rocm] if kind == "rocm" else [kind]
    return found


def has(matrix: Index, release: TorchRelease, variant: str) -> bool:
    return variant in variants(matrix, release)
