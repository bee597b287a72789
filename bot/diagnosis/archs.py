"""Which GPUs a compiled arch list can run on: torch's own rule (torch/cuda/__init__.py DEVICE_REQUIREMENT).

SASS built for X.Y runs on devices of the same major with minor >= Y, except the Jetson iGPUs (5.3, 6.2, 7.2,
8.7, 10.1/11.0), which only run code built for themselves; arch-specific builds ("9.0a") run on exactly that
capability. PTX (compute_X.Y) is compiled by the driver for any capability >= X.Y.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.diagnosis.matrix.model import version_key

JETSON = {"5.3", "6.2", "7.2", "8.7", "10.1", "11.0"}
ARCH = re.compile(r"^(?:(sm|compute)_)?(\d+)\.?(\d)?(a|f)?$")


@dataclass(frozen=True)
class Arch:
    cc: str  # "9.0"
    ptx: bool = False
    specific: bool = False  # sm_90a: runs on exactly 9.0

    @property
    def sm(self) -> str:
        return ("compute_" if self.ptx else "sm_") + self.cc.replace(".", "") + ("a" if self.specific else "")


def parse(entry: str) -> Arch | None:
    """ "sm_120" / "compute_90" / "9.0" / "90a" -> Arch; None for what is not an arch ("gfx942")."""
    match = ARCH.match(entry.strip())
    if not match:
        return None
    kind, digits, minor, suffix = match.groups()
    if minor is None:  # "sm_120" / "120": the last digit is the minor
        if len(digits) < 2:
            return None
        digits, minor = digits[:-1], digits[-1]
    return Arch(cc=f"{int(digits)}.{minor}", ptx=kind == "compute", specific=suffix is not None)


def arch_list(entries: list[str], ptx: str | None = None) -> list[Arch]:
    archs = [arch for arch in (parse(entry) for entry in entries) if arch is not None]
    if ptx:
        archs.append(Arch(cc=ptx, ptx=True))
    return archs


def runs_on(archs: list[Arch], cc: str) -> bool:
    """True if some entry of the list has code the device with capability `cc` can run."""
    return any(_runs(arch, cc) for arch in archs)


def older_than_all(archs: list[Arch], cc: str) -> bool:
    """True if the device is older than every entry (so no PTX can be JIT-compiled for it either)."""
    return bool(archs and cc) and all(version_key(cc) < version_key(arch.cc) for arch in archs)


def _runs(arch: Arch, cc: str) -> bool:
    if arch.ptx:
        return version_key(cc) >= version_key(arch.cc)
    if arch.specific or arch.cc in JETSON or cc in JETSON:
        return arch.cc == cc
    code_major, code_minor = version_key(arch.cc)[:2]
    device_major, device_minor = version_key(cc)[:2]
    return code_major == device_major and device_minor >= code_minor


def describe(archs: list[Arch]) -> str:
    """ "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90" in capability order."""
    return " ".join(arch.sm for arch in sorted(archs, key=lambda a: (version_key(a.cc), a.ptx)))
