"""`python -m bot matrix --torch 2.7.1+cu128`: what a wheel needs (driver, Python, companions) and runs on.

A CPU, ROCm or XPU tag ("2.13.0+cpu", "2.6.0+rocm6.2.4", "2.6.0+xpu") is answered from its own index; it needs no
NVIDIA driver and carries no CUDA kernels.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from dataclasses import dataclass

from bot.diagnosis import archs
from bot.diagnosis.matrix import Index, indexes
from bot.diagnosis.matrix.model import GpuModel, TorchRelease, WheelArchs, WheelIndex, is_version, version_key
from bot.diagnosis.rules.advice import Wheel, cuda_of, install_command
from collector import templating
from collector.report import codec


@dataclass(frozen=True)
class WheelAnswer:
    torch: str
    patch: str
    variant: str
    default_variant: str
    release: TorchRelease
    wheel: WheelArchs | None
    driver_linux: str | None
    driver_windows: str | None
    runs_on: list[GpuModel]
    does_not_run_on: list[GpuModel]
    command: str
    accelerator: str = "cuda"  # "cuda", "rocm", "cpu" or "xpu"
    variants: list[str] | None = None  # every index of the release, CUDA's first
    index: WheelIndex | None = None  # where a ROCm, CPU or XPU index is known from (data/indexes.yaml)


def answer(matrix: Index, torch: str) -> WheelAnswer | str:
    if not is_version(torch):
        return f"{torch!r} is not a torch version (e.g. 2.7.1, 2.7.1+cu128)"
    release = matrix.release(torch)
    if release is None:
        newest = matrix.newest_release().series
        return f"the matrix does not know torch {torch} (it knows {matrix.matrix.releases[0].series} to {newest})"
    base, _, tag = torch.partition("+")
    patch = base if base in release.patches else release.patches[-1]
    variant = tag or release.default_variant
    known = indexes.variants(matrix, release)
    if variant not in known:
        return f"torch {release.series} has no {variant} wheels (variants: {', '.join(known)})"
    kind = indexes.accelerator(variant) or "cuda"
    found = WheelAnswer(
        torch=f"{patch}+{variant}", patch=patch, variant=variant, default_variant=release.default_variant,
        release=release, wheel=None, driver_linux=None, driver_windows=None, runs_on=[], does_not_run_on=[],
        command=install_command(Wheel(release, patch, variant)), accelerator=kind, variants=known,
        index=indexes.row(matrix, release, kind) if kind != "cuda" else None,
    )  # fmt: skip
    return found if kind != "cuda" else _cuda(matrix, found)


def _cuda(matrix: Index, found: WheelAnswer) -> WheelAnswer:
    """What a CUDA wheel adds: the driver it needs and the GPUs its kernels run on."""
    wheel = matrix.wheel(found.release.series, found.variant)
    family = matrix.family(cuda_of(found.variant))
    compiled = archs.arch_list(wheel.archs, wheel.ptx) if wheel else []
    runs = [gpu for gpu in matrix.matrix.gpus if compiled and archs.runs_on(compiled, gpu.cc)]
    return dataclasses.replace(
        found, wheel=wheel, driver_linux=family.min_driver_linux if family else None,
        driver_windows=family.min_driver_windows if family else None,
        runs_on=sorted(runs, key=lambda g: version_key(g.cc)),
        does_not_run_on=sorted([g for g in matrix.matrix.gpus if g not in runs], key=lambda g: version_key(g.cc)),
    )  # fmt: skip


def run(matrix: Index, torch: str, as_json: bool = False) -> int:
    result = answer(matrix, torch)
    if isinstance(result, str):
        sys.stderr.write(f"python -m bot matrix: {result}\n")
        return 1
    if as_json:
        data = codec.encode(result)
        data["archs"] = archs.describe(archs.arch_list(result.wheel.archs, result.wheel.ptx)) if result.wheel else None
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
    else:
        sys.stdout.write(templating.render("matrix.txt.j2", a=result, archs=archs))
    return 0
