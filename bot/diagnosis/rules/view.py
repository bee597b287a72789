"""The questions every rule asks of a case, answered once: torch's CUDA, the GPUs with their capability, ..."""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.diagnosis.matrix import Index
from bot.diagnosis.matrix.model import ErrorSignature, TorchRelease, is_version
from bot.diagnosis.readers import Case
from bot.diagnosis.readers.base import PROSE as PROSE_READER
from bot.diagnosis.readers.base import Quote
from bot.diagnosis.readers.versions import build_of, tag_of
from collector.child.packages_child import normalise
from collector.report.model import Fact, Missing
from collector.report.schema import (
    DRIVER,
    ENV,
    GPUS,
    LIBRARIES,
    LIBRARY_COPIES,
    OS,
    PACKAGES,
    RUNTIME,
    TORCH,
    DriverInfo,
    Gpu,
    Key,
    Library,
    LibraryCopy,
    Package,
    Runtime,
    TorchInfo,
)


@dataclass(frozen=True)
class GpuView:
    gpu: Gpu
    cc: str | None
    cc_from_matrix: bool  # the capability was looked up by name, not reported


def summary(key: Key[Any], value: Any) -> str:
    """A fact in one short line, for evidence when there is no pasted line to quote."""
    if isinstance(value, TorchInfo):
        return f"torch {value.version or '?'}" + (f", CUDA {value.cuda}" if value.cuda else "")
    if isinstance(value, DriverInfo):
        return f"driver {value.version or '?'}" + (f" (CUDA ≤ {value.cuda_max})" if value.cuda_max else "")
    if isinstance(value, list) and value and isinstance(value[0], Gpu):
        return "GPUs: " + ", ".join(f"{gpu.name} ({gpu.cc or '?'})" for gpu in value)
    if isinstance(value, Runtime):
        parts = [value.container, f"WSL{value.wsl}" if value.wsl else None, value.jetson, value.hypervisor]
        return "runs in " + (", ".join(p for p in parts if p) or "no container or VM")
    if isinstance(value, dict):
        return (
            "; ".join(f"{name}={text}" for name, text in value.items() if "VISIBLE" in name or "LD_" in name)
            or key.title
        )
    return key.title


V = TypeVar("V", TorchInfo, DriverInfo)


def readable(value: V, *fields: str) -> V:
    """`value` with the version fields the rules cannot compare (a hand-edited twin's "n/a") as unknown."""
    unreadable: dict[str, Any] = {name: None for name in fields if not is_version(getattr(value, name) or "0")}
    return dataclasses.replace(value, **unreadable) if unreadable else value


# Readers whose output is a whole environment report rather than a sentence.
STRUCTURED = {"envtriage report", "collect_env", "nvidia-smi", "package list"}
CUDA_VARIANT = re.compile(r"cu(\d+)(\d)")  # "cu128": CUDA 12.8
TAGGED_CUDA = re.compile(r"cu\d{3}")


class View:
    def __init__(self, case: Case, matrix: Index) -> None:
        self.case = case
        self.matrix = matrix
        self.report = case.report

    # --- evidence ---------------------------------------------------------------------------------------

    def fact(self, key: Key[Any]) -> Fact[Any] | None:
        result = self.report.facts.get(key.name)
        return result if isinstance(result, Fact) else None

    def told_in_prose(self, key: Key[Any]) -> bool:
        """Whether the fact was read from a sentence ("torch 2.4.1+cu121 was replaced by ...") rather than from a
        report or a listing: a sentence can name several versions, so it is only as sure as any other words."""
        fact = self.fact(key)
        return fact is not None and fact.source.startswith(f"{PROSE_READER} (")

    @property
    def torch_in_play(self) -> bool:
        """Whether the issue is about torch at all: a version read, or torch named anywhere (installed, in a
        traceback's paths). An old GPU under a CUDA 8 image, or "the release binary is CPU-only", may not be."""
        return self.torch is not None or "torch" in self.case.topics

    def missing(self, key: Key[Any]) -> Missing | None:
        result = self.report.facts.get(key.name)
        return result if isinstance(result, Missing) else None

    def evidence(self, key: Key[Any]) -> list[str]:
        """The line a fact was read from, or (for our own report, which has no lines) what it says."""
        fact = self.fact(key)
        if fact is None:
            # torch read from a package listing (`_listed_torch`) has the listing for its evidence
            return self.evidence(PACKAGES) if key is TORCH and self.torch is not None else []
        return [f"{fact.evidence or summary(key, fact.value)} ({fact.source})"]

    # --- torch ------------------------------------------------------------------------------------------

    @functools.cached_property
    def torch(self) -> TorchInfo | None:
        """torch as a report or a sentence gives it, else as a package listing does (`torch==2.1.0+cpu`)."""
        torch, listed = self.report.get(TORCH), self._listed_torch()
        if torch and listed and not torch.tag and listed.tag and (listed.version or "").startswith(f"{torch.version}+"):
            torch = dataclasses.replace(torch, tag=listed.tag, build=torch.build or listed.build)  # "torch 2.1.0"
        torch = torch or listed
        return readable(torch, "version", "cuda") if torch else None

    def _listed_torch(self) -> TorchInfo | None:
        listed = self.packages.get("torch")
        if listed is None or not listed.version:
            return None
        tag = tag_of(listed.version)
        return TorchInfo(version=listed.version, tag=tag, build=build_of(tag))

    @functools.cached_property
    def torch_cuda(self) -> str | None:
        """The CUDA torch was built with: torch.version.cuda, else the wheel tag ("cu121" -> "12.1")."""
        if self.torch is None:
            return None
        if self.torch.cuda:
            return self.torch.cuda
        tag = self.torch.tag or ""
        match = CUDA_VARIANT.fullmatch(tag)
        return f"{match.group(1)}.{match.group(2)}" if match else None

    @functools.cached_property
    def variant(self) -> str | None:
        """The wheel index the build came from: "cu121"; derived from torch.version.cuda when untagged."""
        if self.torch and self.torch.tag and TAGGED_CUDA.fullmatch(self.torch.tag):
            return self.torch.tag
        cuda = self.torch_cuda
        return "cu" + cuda.replace(".", "") if cuda else None

    @functools.cached_property
    def release(self) -> TorchRelease | None:
        version = self.torch.version if self.torch else None
        return self.matrix.release(version) if version else None

    @property
    def cpu_build(self) -> bool:
        return bool(self.torch and (self.torch.build == "cpu" or self.torch.tag == "cpu"))

    # --- GPUs, driver, platform -------------------------------------------------------------------------

    @functools.cached_property
    def gpus(self) -> list[GpuView]:
        views = []
        for gpu in self.report.get(GPUS) or []:
            if gpu.cc and is_version(gpu.cc):
                views.append(GpuView(gpu, gpu.cc, False))
                continue
            model = self.matrix.gpu(gpu.name)
            views.append(GpuView(gpu, model.cc if model else None, model is not None))
        return views

    def gpu_evidence(self) -> list[str]:
        notes = self.evidence(GPUS)
        for view in self.gpus:
            if view.cc_from_matrix and view.cc:
                notes.append(f"{view.gpu.name}: compute capability {view.cc} (matrix, gpus.yaml)")
        return notes

    @functools.cached_property
    def driver(self) -> DriverInfo | None:
        driver = self.report.get(DRIVER)
        return readable(driver, "version", "cuda_max") if driver else None

    @property
    def runtime(self) -> Runtime:
        return self.report.get(RUNTIME) or Runtime()

    @property
    def windows(self) -> bool:
        os_info = self.report.get(OS)
        return bool(os_info and os_info.system == "Windows")

    @property
    def mac(self) -> bool:
        os_info = self.report.get(OS)
        return bool(os_info and os_info.system == "Darwin")

    @property
    def env(self) -> dict[str, str]:
        return self.report.get(ENV) or {}

    @functools.cached_property
    def packages(self) -> dict[str, Package]:
        found = self.report.get(PACKAGES)
        return {normalise(p.name): p for p in found.selected} if found else {}

    @property
    def libraries(self) -> list[Library]:
        return self.report.get(LIBRARIES) or []

    @property
    def library_copies(self) -> list[LibraryCopy]:
        return self.report.get(LIBRARY_COPIES) or []

    # --- quoted errors ----------------------------------------------------------------------------------

    @functools.cached_property
    def signatures(self) -> list[tuple[ErrorSignature, Quote]]:
        found: list[tuple[ErrorSignature, Quote]] = []
        for quote in self.case.errors:
            found.extend((signature, quote) for signature in self.matrix.errors_in(quote.text))
        return found

    @functools.cached_property
    def cues(self) -> dict[str, Quote]:
        """The cues the prose holds, less those a more exact cue there explains (Cue.subsumes)."""
        found = self.case.cues
        explained = {name for cue in self.matrix.matrix.cues if cue.id in found for name in cue.subsumes}
        return {name: quote for name, quote in found.items() if name not in explained}

    def quoted(self, *categories: str) -> list[tuple[ErrorSignature, Quote]]:
        """The quoted texts about torch, the driver and the GPUs for these categories (not another package's)."""
        return [(s, q) for s, q in self.signatures if s.category in categories and s.package is None]

    def decisively_quoted(self, *categories: str) -> bool:
        """Whether a decisive text for these categories is quoted: a suggestive one makes an error only beside a second,
        independent fact (policy rule 2), never beside the fact it implies itself (WSL's own dxg messages on WSL)."""
        return any(s.strength == "decisive" for s, _ in self.quoted(*categories))

    def usable_report(self) -> bool:
        """Enough to diagnose: a structured report, or at least torch's version and the GPU or driver."""
        if any(reader in STRUCTURED for reader in self.case.formats):
            return True
        torch_known = bool(self.torch and self.torch.version)
        return torch_known and bool(self.gpus or (self.driver and self.driver.version))
