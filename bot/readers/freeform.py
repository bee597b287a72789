"""Versions, GPUs and errors written in prose: "torch 2.4.1+cu121", "driver 535", "on my RTX 5090", tracebacks.

The lowest-precedence reader: whatever a structured report says wins over what a sentence says.
"""

from __future__ import annotations

import re
from typing import Literal

from bot.matrix import Index
from bot.readers.base import Partial, Quote, Section
from collector.schema import (
    DRIVER,
    ENV,
    GPUS,
    OS,
    PACKAGES,
    PYTHON,
    RUNTIME,
    TORCH,
    DriverInfo,
    Gpu,
    OsInfo,
    Package,
    Packages,
    PythonInfo,
    Runtime,
    TorchInfo,
)

NAME = "text"
TORCH_VERSION = re.compile(
    r"\b(?:py)?torch(?:\s+version)?\s*(?:==|:|=|\s|\bv)\s*v?(\d+\.\d+(?:\.\d+)?(?:\.dev\d+|a0|rc\d+)?(?:\+(?:cu\d{2,3}|cpu|rocm[\d.]+|xpu))?)\b",
    re.I,
)
TAG_ONLY = re.compile(r"\b(\d+\.\d+\.\d+)\+(cu\d{3}|cpu|rocm[\d.]+)\b")
DRIVER_VERSION = re.compile(
    r"\b(?:nvidia\s+)?driver(?:\s+version)?\s*(?:is|:|=)?\s*v?(\d{3}(?:\.\d{1,3}){0,2})\b", re.I
)
COMPANION = re.compile(
    r"\b(torchvision|torchaudio|xformers|flash[-_]attn|vllm|triton|bitsandbytes|deepspeed|transformers|"
    r"transformer[-_]engine|sglang|accelerate|numpy)\s*(?:==|:|=|\s)\s*v?(\d+\.\d+(?:\.\d+)?(?:\.post\d+)?(?:\+\w+)?)\b",
    re.I,
)
PYTHON_VERSION = re.compile(r"\bpython\s*(?:version)?\s*[:=]?\s*(3\.\d{1,2}(?:\.\d{1,2})?)\b", re.I)
WINDOWS = re.compile(r"\bwindows\s*(1[01]|server)\b|\bwin(?:dows)?\s?1[01]\b|[A-Z]:\\\\?(?:Users|Program)", re.I)
WSL = re.compile(r"\bWSL\s*[12]?\b|microsoft-standard-WSL2", re.I)
DOCKER = re.compile(
    r"\bdocker run\b|\bnvidia-docker\b|\b(?:in|inside|within|using|from) (?:a |the |my )?docker\b|"
    r"\bdocker(?:file| image| container)\b|--gpus\b|\bkubernetes\b|\bk8s\b|\bpodman\b",
    re.I,
)
# `export CUDA_VISIBLE_DEVICES=1`, `CUDA_VISIBLE_DEVICES=$0 ./run.py`, `os.environ["CUDA_VISIBLE_DEVICES"]='1'`.
ASSIGNMENT = re.compile(
    r"\b((?:CUDA|NVIDIA)_VISIBLE_DEVICES|CUDA_DEVICE_ORDER|LD_LIBRARY_PATH|NCCL_[A-Z_]+|PYTORCH_CUDA_ALLOC_CONF)"
    r"""(?:["']\])?\s*=\s*["']?([^\s"'`;]*)"""
)
# Subjects named in prose that some rules need alongside the facts (an A100 alone says nothing about FP8).
TOPICS = {
    "fp8": re.compile(r"\bfp8\b|\bfloat8|e4m3", re.I),
    "flash_attention_3": re.compile(
        r"flash[-_ ]?attn[-_ ]?3|flash[-_ ]?attention[- ]?3|\bFA3\b|flash_attn_interface", re.I
    ),
    "flash_attention": re.compile(r"flash[-_ ]?attn|flash[-_ ]?attention", re.I),
    "mig": re.compile(r"(?<!\| )\bMIG\b(?! ?(?:\||M\.))"),  # not the "| MIG |" / "MIG M." table headers
    "nccl_hang": re.compile(
        r"(nccl|all[-_ ]?reduce|collective|ddp|distributed).{0,60}\b(hang|hangs|hung|stuck|freez\w*|deadlock)"
        r"|\b(hang|hangs|hung|stuck|freez\w*|deadlock)\b.{0,60}(nccl|all[-_ ]?reduce)",
        re.I,
    ),
}
EXCEPTION = re.compile(r"^\s*(?:E\s+)?((?:[A-Za-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception|Warning)):\s+(\S.*)$")


def read(section: Section, matrix: Index) -> Partial:
    partial = Partial(NAME)
    packages: dict[str, tuple[int, Package]] = {}
    gpus: list[tuple[int, Gpu]] = []
    variables: dict[str, tuple[int, str]] = {}
    for index, line in enumerate(section.lines):
        _versions(partial, section, index, line)
        _environment(partial, section, index, line)
        for match in COMPANION.finditer(line):
            name = match.group(1).lower().replace("_", "-")
            packages.setdefault(name, (index, Package(name=name, version=match.group(2))))
        gpus.extend((index, gpu) for gpu in _gpus(line, matrix, len(gpus)))
        _errors(partial, section, index, line, matrix)
        _topics(partial, section, index, line)
        for match in ASSIGNMENT.finditer(line):
            variables.setdefault(match.group(1), (index, match.group(2)))
    if packages:
        first = min(index for index, _ in packages.values())
        partial.add(PACKAGES, Packages(selected=[package for _, package in packages.values()]), section, first)
    if gpus:
        partial.add(GPUS, _unique(gpu for _, gpu in gpus), section, gpus[0][0])
    if variables:
        first = min(index for index, _ in variables.values())
        partial.add(ENV, {name: value for name, (_, value) in variables.items()}, section, first)
    return partial


def _topics(partial: Partial, section: Section, index: int, line: str) -> None:
    for name, pattern in TOPICS.items():
        if name not in partial.topics and pattern.search(line):
            partial.topics[name] = Quote(text=line.strip()[:300], where=section.where(index))


def _versions(partial: Partial, section: Section, index: int, line: str) -> None:
    if match := TORCH_VERSION.search(line) or TAG_ONLY.search(line):
        version = match.group(1) if match.re is TORCH_VERSION else f"{match.group(1)}+{match.group(2)}"
        tag = version.split("+", 1)[1] if "+" in version else None
        partial.add(TORCH, TorchInfo(version=version, tag=tag, build=build_of(tag)), section, index)
    if match := DRIVER_VERSION.search(line):
        partial.add(DRIVER, DriverInfo(version=match.group(1)), section, index)
    if match := PYTHON_VERSION.search(line):
        partial.add(PYTHON, PythonInfo(version=match.group(1)), section, index)


def build_of(tag: str | None) -> Literal["cuda", "rocm", "cpu"] | None:
    if tag is None:
        return None
    return "cpu" if tag == "cpu" else "rocm" if tag.startswith("rocm") else "cuda" if tag.startswith("cu") else None


def _environment(partial: Partial, section: Section, index: int, line: str) -> None:
    if WINDOWS.search(line) and not WSL.search(line):
        partial.add(OS, OsInfo(system="Windows", machine="unknown"), section, index)
    if match := WSL.search(line):
        wsl = 1 if re.search(r"\bWSL\s*1\b", line, re.I) else 2
        partial.add(RUNTIME, Runtime(wsl=wsl, evidence=[match.group(0)]), section, index)  # type: ignore[arg-type]
    elif match := DOCKER.search(line):
        partial.add(RUNTIME, Runtime(container="docker", evidence=[match.group(0)]), section, index)


def _gpus(line: str, matrix: Index, start: int) -> list[Gpu]:
    model = matrix.gpu(line)
    if model is None:
        return []
    found = re.search(model.match, line, re.I)
    name = found.group(0).strip() if found else model.example
    return [Gpu(index=start, name=name)]


def _unique(gpus: object) -> list[Gpu]:
    seen: dict[str, Gpu] = {}
    for gpu in gpus:  # type: ignore[attr-defined]
        seen.setdefault(gpu.name.lower(), Gpu(index=len(seen), name=gpu.name))
    return list(seen.values())


def _errors(partial: Partial, section: Section, index: int, line: str, matrix: Index) -> None:
    # Terminals and issue editors wrap long errors after "...so:"; read such a line with its continuation.
    following = section.lines[index + 1].strip() if index + 1 < len(section.lines) else ""
    if line.rstrip().endswith(":") and following:
        joined = f"{line.strip()} {following}"
        if matrix.errors_in(joined):
            partial.errors.append(Quote(text=joined[:500], where=section.where(index)))
            return
    if matrix.errors_in(line) or EXCEPTION.match(line):
        partial.errors.append(Quote(text=line.strip()[:500], where=section.where(index)))
