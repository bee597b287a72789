"""The compatibility matrix's rows: reviewed data with a `source` on every row (see bot/diagnosis/matrix/data/*.yaml).

Versions are strings in the data ("12.8", "570.26", "2.7.1") and compared through `version_key`; a torch
"series" is its major.minor ("2.7").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

VERSION = re.compile(r"\d+(?:\.\d+)*")
DIGIT = re.compile(r"\d")


def version_key(version: str) -> tuple[int, ...]:
    """ "570.124.06" -> (570, 124, 6); anything after the numbers (+cu128, rc1) is ignored."""
    match = VERSION.match(version.strip())
    if not match:
        raise ValueError(f"not a version: {version!r}")
    return tuple(int(part) for part in match.group(0).split("."))


def is_version(text: str) -> bool:
    """Whether `version_key` can read `text` ("unknown", from a `pip freeze` URL line, cannot)."""
    return DIGIT.match(text.strip()) is not None


def series(version: str) -> str:
    """ "2.7.1+cu128" -> "2.7"."""
    parts = version_key(version)
    return ".".join(str(part) for part in parts[:2])


@dataclass(frozen=True)
class Toolkit:
    """A CUDA toolkit release and the driver NVIDIA packages with it (Table 3 of the release notes)."""

    version: str  # "12.8" or "12.8.1" for an update
    driver_linux: str | None
    source: str
    driver_windows: str | None = None
    label: str | None = None  # "12.8 Update 1"


@dataclass(frozen=True)
class CudaFamily:
    """Minor-version compatibility: anything built with CUDA <major>.x runs on a driver >= min_driver.

    Before CUDA 11 there was none: a 10.1 build needs the driver the 10.1 toolkit shipped with, so each such
    release is a row of its own (`minor` set), and the row for the exact release is the one that applies.
    """

    major: int
    min_driver_linux: str
    min_driver_branch: int
    source: str
    min_driver_windows: str | None = None
    min_cc: str | None = None  # the oldest compute capability this toolkit family can compile for
    max_cc: str | None = None
    minor: int | None = None  # a release of its own (CUDA < 11); None: the whole major

    @property
    def label(self) -> str:
        """How the text names what the row covers: "12.x", or "10.1" for a release of its own."""
        return f"{self.major}.{self.minor}" if self.minor is not None else f"{self.major}.x"


@dataclass(frozen=True)
class DriverBranch:
    """Old GPUs lose driver support: the last branch that still runs an architecture."""

    architecture: str
    max_cc: str  # GPUs with compute capability <= this are this architecture (or older)
    last_branch: int
    source: str


@dataclass(frozen=True)
class TorchRelease:
    series: str  # "2.7"
    patches: list[str]  # ["2.7.0", "2.7.1"]
    variants: list[str]  # CUDA wheel indexes: ["cu118", "cu126", "cu128"]
    default_variant: str  # what plain `pip install torch` gives on Linux x86_64
    python_min: str
    python_max: str
    torchvision: dict[str, str]  # torch patch -> torchvision version
    torchaudio: dict[str, str]  # torch patch -> the torchaudio to install with it
    source: str
    released: str | None = None
    rocm: list[str] = field(default_factory=list)
    windows_default: str = "cpu"


@dataclass(frozen=True)
class WheelArchs:
    """The architectures compiled into the wheels of `variant` for a range of torch series."""

    torch_min: str  # first series, inclusive ("2.8")
    torch_max: str  # last series, inclusive ("2.10")
    variant: str
    archs: list[str]  # compute capabilities with SASS: ["7.0", "7.5", "8.0", ...]
    source: str
    platform: Literal["linux-x86_64", "linux-aarch64", "windows"] = "linux-x86_64"
    ptx: str | None = None  # the capability whose PTX is embedded too, if any
    verified: bool = True  # False where the source is secondary or the PTX part is uncertain


@dataclass(frozen=True)
class WheelIndex:
    """Wheels for CPU, AMD (ROCm) or Intel (XPU) GPUs for a range of torch series, each on its own index
    (download.pytorch.org/whl/cpu, /rocm6.2.4, /xpu); CUDA's indexes are TorchRelease.variants."""

    accelerator: Literal["cpu", "rocm", "xpu"]
    torch_min: str  # first series, inclusive
    torch_max: str  # last series, inclusive
    source: str
    linux_only: bool = False


@dataclass(frozen=True)
class GpuModel:
    """GPU names (a case-insensitive regular expression on the marketing name) and their capability."""

    match: str
    cc: str
    architecture: str
    source: str
    example: str  # a real name the pattern matches, checked by the consistency tests
    datacenter: bool = False
    mig: bool = False


@dataclass(frozen=True)
class Feature:
    """A capability gate: e.g. FP8 matmul needs CC >= 8.9."""

    id: str
    title: str
    min_cc: str
    source: str
    max_cc: str | None = None
    only_cc: list[str] = field(default_factory=list)  # FlashAttention-3: Hopper only
    min_torch: str | None = None
    min_cuda: str | None = None


@dataclass(frozen=True)
class ErrorSignature:
    """A known error text and the cause it points to (category from bot.diagnosis.findings.CATEGORIES)."""

    id: str
    pattern: str  # a regular expression, case-insensitive, searched line by line
    category: str
    source: str
    example: str  # a real occurrence of the text, checked against the pattern by the consistency tests
    strength: Literal["decisive", "suggestive"] = "suggestive"
    examples: list[str] = field(default_factory=list)  # more real occurrences, worded differently, checked likewise
    # The text's other usual causes, most telling first: where the prose names one of them (a cue of that category:
    # "in WSL", "inside docker", "after a kernel update"), that is the diagnosis - "no CUDA-capable device" in a
    # container is the container's, not CUDA_VISIBLE_DEVICES'.
    other_causes: list[str] = field(default_factory=list)
    # The package whose own build the text is about, where it is not torch: DGL's, jaxlib's or PaddlePaddle's CPU
    # build says so in its own words while torch may well be a CUDA build. Its fix names that package and the page
    # (`install`, from the package's own docs) that gives its CUDA build: never torch's wheel index.
    package: str | None = None
    install: str | None = None
    # A fix worded for this text where the category's usual one would mislead (host RAM is not the GPU's memory;
    # PYTORCH_CUDA_ALLOC_CONF means nothing to XLA): templates/categories/<fix>.md.j2, named <category>_<what>.
    fix: str | None = None


@dataclass(frozen=True)
class Cue:
    """What people write about their setup (not an error text) that points to a likely cause: "nouveau is still
    loaded", "after resume from suspend", "it installed the CPU version". Never decisive: a cue makes a "likely"
    warning, below every error text and fact."""

    id: str
    pattern: str  # a regular expression, case-insensitive, searched in the prose (title, body, comments)
    category: str
    source: str  # why the words point to the cause
    examples: list[str]  # real sentences from issues, each checked against the pattern by the consistency tests
    also: str | None = None  # a second pattern that must occur somewhere in the same text
    weak: bool = False  # a broad mention (Docker, NCCL, an sm_XY): any specific cue for another category outranks it
    # What happened, not why ("is_available() returns False"): it speaks only where no cue names a cause, even a
    # broad one ("in docker" says why is_available() is False there).
    symptom: bool = False
    fix: str | None = None  # as ErrorSignature.fix: a wording of the category's fix for what these words are about
    # Cues these words explain more exactly ("both the CPU and the GPU build installed" says why "the CPU version"
    # is in use): where this cue speaks, they do not.
    subsumes: list[str] = field(default_factory=list)
    # Words that only say which of an error text's other causes it is ("I built xgboost with CUDA myself" beside
    # "not compiled with GPU support"): no finding of their own, where no such text was quoted.
    context_only: bool = False


@dataclass(frozen=True)
class Matrix:
    toolkits: list[Toolkit]
    families: list[CudaFamily]
    driver_branches: list[DriverBranch]
    releases: list[TorchRelease]
    wheels: list[WheelArchs]
    indexes: list[WheelIndex]
    gpus: list[GpuModel]
    features: list[Feature]
    errors: list[ErrorSignature]
    cues: list[Cue]
    reviewed: str  # date the data was last reviewed, shown in comments
