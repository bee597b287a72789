"""torch's build against the driver: a CPU-only wheel on a GPU machine, a CUDA newer than the driver runs."""

from __future__ import annotations

from collections.abc import Iterator

from bot.diagnosis.findings import Finding
from bot.diagnosis.matrix.model import ErrorSignature, series, version_key
from bot.diagnosis.readers.base import Quote
from bot.diagnosis.rules import advice, finding, refutes, rule
from bot.diagnosis.rules.view import View
from collector.report.schema import DRIVER, TORCH


def target_series(v: View) -> str:
    """Where a fix should start: the user's own release if the matrix knows it, else the newest known."""
    if v.release is not None:
        return v.release.series
    return v.matrix.newest_release().series


def ccs(v: View) -> list[str]:
    return [g.cc for g in v.gpus if g.cc]


# Reports that list the GPUs when there are any (a package list does not).
SHOWS_GPUS = frozenset({"envtriage report", "collect_env", "nvidia-smi"})


@rule
def cpu_only_wheel(v: View) -> Iterator[Finding]:
    quoted = v.quoted("cpu_only_wheel")
    gpus = [g.gpu.name for g in v.gpus]
    has_gpu = bool(gpus) or bool(v.driver and v.driver.version)
    if not (v.cpu_build or (quoted and not v.torch_cuda)):
        return
    if v.cpu_build and not (has_gpu or quoted) and set(v.case.formats) & SHOWS_GPUS:
        return  # a report that shows no NVIDIA GPU: a CPU-only torch is what such a host runs (AMD, Intel, none)
    if _without_nvidia(v):
        yield from _no_cuda_here(v, quoted)
        return
    # Two facts that agree (a CPU-only torch and a GPU, or a decisive text) make an error; the +cpu build alone, in
    # an issue about a GPU, is the likely cause but not a proven one (policy rule 2): a warning with no label.
    decisive = (v.cpu_build and (has_gpu or quoted)) or v.decisively_quoted("cpu_only_wheel")
    driver = v.driver.version if v.driver and not v.windows else None
    wheel = advice.choose(v.matrix, ccs(v), driver, not_before=target_series(v))
    evidence = [*v.evidence(TORCH), *v.gpu_evidence(), *(f"{q.text} ({q.where})" for _, q in quoted)]
    yield finding(
        "cpu_only_wheel", "cpu_only_wheel", "error" if decisive else "warning", evidence,
        confidence=1.0 if v.cpu_build and decisive else 0.8 if decisive else 0.45,
        version=v.torch.version if v.torch else None, gpus=", ".join(dict.fromkeys(gpus)), windows=v.windows,
        uninstall=advice.uninstall_command(), command=advice.install_command(wheel) if wheel else None,
    )  # fmt: skip


@refutes("cpu_only_wheel")
def torch_is_a_cuda_build_or_no_nvidia_here(v: View) -> bool:
    """torch says which CUDA it was built with: whatever the words, it is not a CPU-only build. A version named in a
    sentence is words too, and refutes none. On a Mac, or a machine the reporter says has no NVIDIA GPU, with none
    named, a CPU build is all torch has: the code asked for CUDA where there is none (datalab-to/chandra#11, an Apple
    M2); the rule's own warning (_no_cuda_here) says so instead of the words' findings."""
    if _without_nvidia(v):
        return True
    return bool(v.torch_cuda) and not v.cpu_build and not v.told_in_prose(TORCH)


def _no_cuda_here(v: View, quoted: list[tuple[ErrorSignature, Quote]]) -> Iterator[Finding]:
    """A Mac, or a machine the reporter says has no NVIDIA GPU: a torch without CUDA is the only kind it runs, and
    the code asks for CUDA. That is the build the issue is about, but no reinstall changes it and the environment
    is not at fault: a warning below a label's confidence, with the way out (MPS, the CPU, another machine)."""
    evidence = [*v.evidence(TORCH), *(f"{q.text} ({q.where})" for _, q in quoted)]
    said = v.case.topics.get("no_nvidia_gpu")
    evidence += [f"{said.text} ({said.where})"] if said and not v.mac else []
    if evidence:
        yield finding("cpu_only_wheel_no_gpu", "cpu_only_wheel", "warning", evidence, confidence=0.45, mac=v.mac)


def _without_nvidia(v: View) -> bool:
    """A Mac, or a machine the reporter says has no NVIDIA GPU, with none named and no driver version."""
    no_gpu = v.mac or "no_nvidia_gpu" in v.case.topics
    return no_gpu and not (v.gpus or (v.driver and v.driver.version))


@rule
def driver_too_old(v: View) -> Iterator[Finding]:
    cuda = v.torch_cuda
    # torch.cuda.is_available() True: the driver ran this build's CUDA runtime, so it is new enough for it (a 580.00
    # Jetson Thor driver under CUDA 13.0, below the desktop toolkit's 580.65.06, vllm-project/vllm#34470); a PTX the
    # driver cannot JIT is an error text's to tell (ptx_unsupported_toolchain), not the versions'.
    if cuda is None or v.cpu_build or v.driver is None or (v.torch is not None and v.torch.available is True):
        return
    family = v.matrix.family(cuda)
    if family is None:
        return
    floor = family.min_driver_windows if v.windows and family.min_driver_windows else family.min_driver_linux
    if v.driver.version:
        too_old = version_key(v.driver.version) < version_key(floor)
    elif v.driver.cuda_max:
        too_old = version_key(v.driver.cuda_max)[:2] < (family.major, family.minor or 0)
    else:
        return
    if not too_old:
        return
    start = series(v.torch.version) if v.torch and v.torch.version else target_series(v)
    wheel = advice.choose(v.matrix, ccs(v), None if v.windows else v.driver.version, not_before=start)
    yield finding(
        "driver_too_old", "driver_too_old", "error", [*v.evidence(TORCH), *v.evidence(DRIVER)],
        cuda=cuda, driver=v.driver.version, driver_cuda=v.driver.cuda_max, floor=floor, branch=family.min_driver_branch,
        covers=family.label,
        command=advice.install_command(wheel) if wheel and wheel.cuda != cuda else None,
        wheel_cuda=wheel.cuda if wheel else None, source=family.source,
    )  # fmt: skip
