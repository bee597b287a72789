"""Concrete fixes: which torch release and wheel variant runs on these GPUs with this driver, and the command."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.diagnosis import archs
from bot.diagnosis.matrix import Index
from bot.diagnosis.matrix.model import TorchRelease, series, version_key

INDEX_URL = "https://download.pytorch.org/whl/{variant}"
CUDA_VARIANT = re.compile(r"cu(\d+)(\d)")  # "cu128": CUDA 12.8


@dataclass(frozen=True)
class Wheel:
    release: TorchRelease
    patch: str
    variant: str

    @property
    def cuda(self) -> str:
        return cuda_of(self.variant)


def cuda_of(variant: str) -> str:
    """ "cu128" -> "12.8"."""
    match = CUDA_VARIANT.fullmatch(variant)
    if not match:
        raise ValueError(f"not a CUDA wheel variant: {variant}")
    return f"{match.group(1)}.{match.group(2)}"


def driver_allows(matrix: Index, variant: str, driver: str | None) -> bool:
    if driver is None:
        return True
    family = matrix.family(cuda_of(variant))
    return family is None or version_key(driver) >= version_key(family.min_driver_linux)


def runs_everywhere(matrix: Index, release: TorchRelease, variant: str, ccs: list[str]) -> bool:
    wheel = matrix.wheel(release.series, variant)
    if wheel is None:
        return False
    compiled = archs.arch_list(wheel.archs, wheel.ptx)
    return all(archs.runs_on(compiled, cc) for cc in ccs)


def choose(matrix: Index, ccs: list[str], driver: str | None, not_before: str | None = None) -> Wheel | None:
    """The oldest release (not before `not_before`) with a variant that runs on every GPU and on the driver.

    The release's default variant is preferred; otherwise its newest CUDA that the driver can run.
    """
    releases = sorted(matrix.matrix.releases, key=lambda r: version_key(r.series))
    starting = [r for r in releases if not not_before or version_key(r.series) >= version_key(not_before)]
    return next((wheel for r in starting if (wheel := _fitting(matrix, r, ccs, driver))), None)


def newest(matrix: Index, ccs: list[str], driver: str | None) -> Wheel | None:
    """The newest release with a variant that runs on every GPU and on the driver: for GPUs that newer releases
    dropped (Kepler after torch 1.12's cu113 wheels)."""
    releases = sorted(matrix.matrix.releases, key=lambda r: version_key(r.series), reverse=True)
    return next((wheel for r in releases if (wheel := _fitting(matrix, r, ccs, driver))), None)


def _fitting(matrix: Index, release: TorchRelease, ccs: list[str], driver: str | None) -> Wheel | None:
    """The release's wheel for these GPUs and this driver: its default variant if that fits, else its newest CUDA."""
    fitting = [v for v in release.variants if runs_everywhere(matrix, release, v, ccs)]
    fitting = [v for v in fitting if driver_allows(matrix, v, driver)]
    if not fitting:
        return None
    variant = release.default_variant if release.default_variant in fitting else max(fitting, key=cuda_key)
    return Wheel(release, release.patches[-1], variant)


def cuda_key(variant: str) -> tuple[int, ...]:
    return version_key(cuda_of(variant))


def install_command(wheel: Wheel, packages: tuple[str, ...] = ("torchvision", "torchaudio")) -> str:
    """ "pip install torch==2.7.1 torchvision==0.22.1 torchaudio==2.7.1 --index-url .../cu128"."""
    parts = [f"torch=={wheel.patch}"]
    for name in packages:
        table = wheel.release.torchvision if name == "torchvision" else wheel.release.torchaudio
        version = table.get(wheel.patch)
        # Only a torchaudio built for this torch comes from its wheel index (after 2.11 there is none: the pure
        # Python 2.11.1 the matrix pairs with later releases is on PyPI, and installing it is the mismatch fix's job).
        if version and (name != "torchaudio" or series(version) == series(wheel.patch)):
            parts.append(f"{name}=={version}")
    return f"pip install {' '.join(parts)} --index-url {INDEX_URL.format(variant=wheel.variant)}"


def uninstall_command(packages: tuple[str, ...] = ("torch", "torchvision", "torchaudio")) -> str:
    return f"pip uninstall -y {' '.join(packages)}"
