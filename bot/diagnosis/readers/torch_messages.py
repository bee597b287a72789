"""Facts hidden in messages torch prints: the arch-mismatch warning, the driver check, the capability check.

"NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.
The current PyTorch install supports CUDA capabilities sm_50 sm_60 ... sm_90." names the GPU, its capability and
the wheel's arch list; "The NVIDIA driver on your system is too old (found version 12020)" names the CUDA the
driver supports.
"""

from __future__ import annotations

import re

from bot.diagnosis.matrix import Index
from bot.diagnosis.readers.base import Partial, Section
from collector.report.schema import DRIVER, GPUS, TORCH, DriverInfo, Gpu, TorchInfo

NAME = "torch message"
# The GPU's name is whatever precedes this on the line; matching it with a leading ".*?" would be quadratic.
NOT_COMPATIBLE = re.compile(r" with CUDA capability sm_(\d+) is not compatible with the current PyTorch")
SUPPORTS = re.compile(r"current PyTorch install supports CUDA capabilities ((?:(?:sm|compute)_\d+a?\s*)+)")
FOUND_GPU = re.compile(r"Found GPU(\d+) (.{1,200}?) which is of (?:cuda|compute) capability (?:\(CC\) )?(\d+)\.(\d+)")
CC_TABLE = re.compile(r"^\s*-\s*(\d+\.\d+) which supports hardware CC")
DRIVER_TOO_OLD = re.compile(r"driver on your system is too old \(found version (\d{4,5})\)")


def read(section: Section, matrix: Index) -> Partial:
    partial = Partial(NAME)
    if "capability" not in section.lowered and "too old" not in section.lowered:
        return partial
    gpus: dict[int, Gpu] = {}
    first_gpu = -1
    archs: list[str] = []
    arch_line = -1
    for index, line in enumerate(section.lines):
        if match := NOT_COMPATIBLE.search(line):
            name = _gpu_name(line[: match.start()])
            gpus.setdefault(len(gpus), Gpu(index=len(gpus), name=name, cc=_cc(match.group(1))))
            first_gpu = index if first_gpu < 0 else first_gpu
        elif match := FOUND_GPU.search(line):
            number = int(match.group(1))
            gpus[number] = Gpu(index=number, name=match.group(2), cc=f"{match.group(3)}.{match.group(4)}")
            first_gpu = index if first_gpu < 0 else first_gpu
        if match := SUPPORTS.search(line):
            archs, arch_line = match.group(1).split(), index
        elif match := CC_TABLE.match(line):
            archs.append("sm_" + match.group(1).replace(".", ""))
            arch_line = index if arch_line < 0 else arch_line
        if match := DRIVER_TOO_OLD.search(line):
            found = int(match.group(1))  # cudaDriverGetVersion: 12020 means CUDA 12.2
            partial.add(DRIVER, DriverInfo(cuda_max=f"{found // 1000}.{found % 1000 // 10}"), section, index)
    if gpus:
        partial.add(GPUS, [gpus[key] for key in sorted(gpus)], section, first_gpu)
    if archs:
        partial.add(TORCH, TorchInfo(arch_list=archs), section, arch_line)
    return partial


def _gpu_name(before: str) -> str:
    """ "…UserWarning: NVIDIA GeForce RTX 5090" -> "NVIDIA GeForce RTX 5090"."""
    name = before.rsplit("Warning:", 1)[-1].rsplit("warn(", 1)[-1]
    return name.strip(" \t'\"`>") or "unknown GPU"


def _cc(sm: str) -> str:
    """ "120" -> "12.0", "86" -> "8.6"."""
    return f"{sm[:-1]}.{sm[-1]}"
