"""The GPUs against the wheel and the driver: missing kernels, GPUs too old, GPUs hidden, MIG."""

from __future__ import annotations

from collections.abc import Iterator

from bot.diagnosis import archs
from bot.diagnosis.findings import Finding, Severity
from bot.diagnosis.matrix.model import series, version_key
from bot.diagnosis.readers.base import Quote
from bot.diagnosis.rules import advice, finding, rule
from bot.diagnosis.rules.build import ccs
from bot.diagnosis.rules.view import GpuView, View
from collector.report.schema import DRIVER, ENV, GPUS, TORCH

VISIBILITY = ("mig_related", "gpus_hidden_by_env")  # texts about which devices a process is shown


def compiled(v: View) -> tuple[list[archs.Arch], str] | None:
    """The wheel's arch list: as torch reported it, else from the matrix for its version and variant."""
    if v.torch and v.torch.arch_list:
        return archs.arch_list(v.torch.arch_list), "torch.cuda.get_arch_list()"
    if v.torch and v.torch.version and v.variant:
        wheel = v.matrix.wheel(v.torch.version, v.variant, "windows" if v.windows else "linux-x86_64")
        wheel = wheel or v.matrix.wheel(v.torch.version, v.variant)
        if wheel:
            return archs.arch_list(wheel.archs, wheel.ptx), f"matrix: {wheel.variant} wheels ({wheel.source})"
    return None


@rule
def gpu_arch_unsupported(v: View) -> Iterator[Finding]:
    built = compiled(v)
    if built is None or v.cpu_build:
        return
    arch_list, where = built
    unsupported = [
        g for g in v.gpus
        if g.cc and not archs.runs_on(arch_list, g.cc) and not too_old_for_cuda(v, g) and not _no_wheel_speaks_for(v, g)
    ]  # fmt: skip
    for gpu in _distinct(unsupported):
        start = series(v.torch.version) if v.torch and v.torch.version else None
        older = archs.older_than_all(arch_list, gpu.cc or "")
        wheel = advice.choose(v.matrix, ccs(v), _driver(v), not_before=start)
        if older and wheel is None:
            wheel = advice.newest(v.matrix, ccs(v), _driver(v))
        evidence = [*v.evidence(TORCH), *v.gpu_evidence(), f"compiled for {archs.describe(arch_list)} ({where})"]
        # The direction decides the category: a GPU below the wheel's oldest architecture needs an older build
        # (Pascal under the cu128 wheels of torch 2.8), one above its newest a newer build (RTX 50 under cu124).
        name, category = (
            ("gpu_older_than_wheel", "gpu_too_old_for_cuda")
            if older
            else ("gpu_arch_unsupported", "gpu_arch_unsupported")
        )
        yield finding(
            name, category, "error", evidence,
            confidence=0.9 if gpu.cc_from_matrix else 1.0,
            gpu=gpu.gpu.name, cc=gpu.cc, sm="sm_" + (gpu.cc or "").replace(".", ""), built=archs.describe(arch_list),
            version=v.torch.version if v.torch else None, command=advice.install_command(wheel) if wheel else None,
            wheel=wheel, floor=_floor(v, wheel.variant) if wheel else None,
        )  # fmt: skip


def too_old_for_cuda(v: View, gpu: GpuView) -> bool:
    family = v.matrix.family(v.torch_cuda) if v.torch_cuda else None
    return bool(gpu.cc and family and family.min_cc and version_key(gpu.cc) < version_key(family.min_cc))


@rule
def gpu_too_old_for_cuda(v: View) -> Iterator[Finding]:
    for gpu in _distinct([g for g in v.gpus if too_old_for_cuda(v, g)]):
        start = series(v.torch.version) if v.torch and v.torch.version else None
        wheel = advice.choose(v.matrix, [gpu.cc or ""], _driver(v), not_before=start)
        branch = v.matrix.last_branch_for(gpu.cc or "")
        yield finding(
            "gpu_too_old_for_cuda", "gpu_too_old_for_cuda", "error", [*v.evidence(TORCH), *v.gpu_evidence()],
            gpu=gpu.gpu.name, cc=gpu.cc, cuda=v.torch_cuda, family=v.matrix.family(v.torch_cuda or ""),
            command=advice.install_command(wheel) if wheel else None, branch=branch,
        )  # fmt: skip
    if v.torch_cuda is None:
        yield from _unsupported_by_any_wheel(v)
        yield from _older_than_every_cuda(v)
    driver = v.driver.version if v.driver else None
    for gpu in _distinct(v.gpus):
        branch = v.matrix.last_branch_for(gpu.cc or "99")
        if driver and branch and version_key(driver)[0] > branch.last_branch:
            yield finding(
                "gpu_dropped_by_driver", "gpu_too_old_for_cuda", "error", [*v.evidence(DRIVER), *v.gpu_evidence()],
                gpu=gpu.gpu.name, cc=gpu.cc, driver=driver, branch=branch,
            )  # fmt: skip


# NVIDIA's container runtime reads "void" and "none" as "no GPU"; an empty CUDA_VISIBLE_DEVICES hides them all.
HIDES_ALL = {"", "void", "none", "-1"}


def _no_wheel_speaks_for(v: View, gpu: GpuView) -> bool:
    """Whether _unsupported_by_any_wheel names this GPU: then "no wheel runs on it" is the cause, and "this wheel
    has no kernels for it" only its symptom (DeepStack#129, a GT 710 under a torch built for sm_37 and up)."""
    return v.torch_cuda is None and _below_every_wheel(v, gpu)


def _below_every_wheel(v: View, gpu: GpuView) -> bool:
    """Older than anything any wheel in the matrix was built for, where torch is in play (an old GPU in an issue
    about a CUDA 8 container is not a torch problem)."""
    oldest = v.matrix.oldest_wheel_arch
    return bool(oldest and v.torch_in_play and gpu.cc and version_key(gpu.cc) < oldest)


def dropped_by_current_torch(v: View) -> Quote | None:
    """A GPU the issue names that no wheel of the newest torch release runs on (Kepler, Fermi; not a Jetson, whose
    torch comes from NVIDIA's own builds), said as a quote: with "no kernel image" or "invalid device function", the
    GPU is too old for the builds of today rather than too new for an old one (isl-org/MiDaS#143, a GT 710)."""
    built = [archs.arch_list(w.archs, w.ptx) for w in v.matrix.newest_release_wheels]
    for gpu in v.gpus if built else ():
        if gpu.cc and gpu.cc not in archs.JETSON and not any(archs.runs_on(arch_list, gpu.cc) for arch_list in built):
            where = f"no wheel of torch {v.matrix.newest_release().series} runs on it"
            return Quote(f"{gpu.gpu.name}: compute capability {gpu.cc}", where)
    return None


def _unsupported_by_any_wheel(v: View) -> Iterator[Finding]:
    """Without torch's CUDA (gpu_too_old_for_cuda asks only then): the GPUs no wheel runs on."""
    oldest = v.matrix.oldest_wheel_arch
    for gpu in _distinct([g for g in v.gpus if _below_every_wheel(v, g)]):
        yield finding(
            "gpu_unsupported_by_any_wheel", "gpu_too_old_for_cuda", "error", v.gpu_evidence(),
            confidence=0.9, gpu=gpu.gpu.name, cc=gpu.cc, oldest=".".join(map(str, oldest or ())),
        )  # fmt: skip


def _older_than_every_cuda(v: View) -> Iterator[Finding]:
    """Where torch is not in play (_unsupported_by_any_wheel speaks there): a GPU older than every CUDA release the
    matrix knows (Fermi, the Tesla architecture) runs nothing built with them. One fact read from a name: a warning."""
    oldest = min((version_key(f.min_cc) for f in v.matrix.matrix.families if f.min_cc), default=None)
    if oldest is None or v.torch_in_play:
        return
    for gpu in _distinct([g for g in v.gpus if g.cc and version_key(g.cc) < oldest]):
        model = v.matrix.gpu(gpu.gpu.name)
        yield finding(
            "gpu_older_than_every_cuda", "gpu_too_old_for_cuda", "warning", v.gpu_evidence(),
            confidence=0.6, gpu=gpu.gpu.name, cc=gpu.cc, architecture=model.architecture if model else None,
            oldest=".".join(map(str, oldest)),
        )  # fmt: skip


@rule
def gpus_hidden_by_env(v: View) -> Iterator[Finding]:
    hiding = {
        name: value
        for name, value in v.env.items()
        if name == "CUDA_VISIBLE_DEVICES" or (name == "NVIDIA_VISIBLE_DEVICES" and value.strip().lower() in HIDES_ALL)
    }
    # A MIG slice is chosen by its UUID in CUDA_VISIBLE_DEVICES ("MIG-…"): what it shows is mig_related's business.
    if not hiding or any(g.gpu.mig_mode for g in v.gpus) or any("mig" in value.lower() for value in hiding.values()):
        return
    seen_by_torch = v.torch.device_count if v.torch else None
    total = len(v.gpus)
    said_none = v.torch is not None and "No CUDA GPUs are available" in (v.torch.init_error or "")
    fewer = seen_by_torch is not None and total > seen_by_torch
    hides_all = any(value.strip().strip("`").lower() in HIDES_ALL for value in hiding.values())
    quoted = v.quoted("gpus_hidden_by_env")
    gpu_expected = bool(v.gpus or v.torch_cuda or quoted)
    if not (said_none or fewer or (hides_all and gpu_expected) or quoted):
        return
    evidence = [*v.evidence(ENV), *v.evidence(GPUS), *v.evidence(TORCH), *(f"{q.text} ({q.where})" for _, q in quoted)]
    yield finding(
        "gpus_hidden_by_env", "gpus_hidden_by_env", "error", evidence,
        confidence=1.0 if said_none or fewer else 0.85, hiding=hiding, seen=seen_by_torch, total=total or None,
    )  # fmt: skip


@rule
def mig_related(v: View) -> Iterator[Finding]:
    partitioned = [g for g in v.gpus if g.gpu.mig_mode]
    quoted = v.quoted("mig_related")
    mentioned = v.case.topics.get("mig")
    if not partitioned and not quoted:
        if mentioned and _mig_capable(v):
            evidence = [f"{mentioned.text} ({mentioned.where})", *v.gpu_evidence()]
            yield finding(
                "mig_related", "mig_related", "warning", evidence, confidence=0.6,
                gpus=[], instances=0, seen=None, visible=v.env.get("CUDA_VISIBLE_DEVICES"),
            )  # fmt: skip
        return
    seen = v.torch.device_count if v.torch else None
    # A suggestive text (torch's device-count assert, which a stale cached count raises too) is an error only beside
    # a second, independent fact: a partitioned GPU, another text about which devices the process sees (a MIG UUID
    # chosen, then "invalid device ordinal"; an out-of-memory line beside it is no such fact), or torch seeing no
    # device (policy rule 2).
    visibility = {s.id for s, _ in v.signatures if s.category in VISIBILITY and s.package is None}
    agreeing = bool(partitioned) or len(visibility) > 1
    decided = v.decisively_quoted("mig_related") or (bool(quoted) and agreeing)
    severity: Severity = "error" if decided or seen == 0 else "warning"
    evidence = [*v.evidence(GPUS), *v.evidence(TORCH), *(f"{q.text} ({q.where})" for _, q in quoted)]
    yield finding(
        "mig_related", "mig_related", severity, evidence,
        gpus=[g.gpu.name for g in partitioned], instances=sum(len(g.gpu.mig_instances) for g in partitioned),
        seen=seen, visible=v.env.get("CUDA_VISIBLE_DEVICES"),
    )  # fmt: skip


def _mig_capable(v: View) -> bool:
    """ "MIG" in the text means the partitioning only beside a GPU that can do it (or no GPU named at all)."""
    models = [v.matrix.gpu(g.gpu.name) for g in v.gpus]
    return not v.gpus or any(model is not None and model.mig for model in models)


def _distinct(gpus: list[GpuView]) -> list[GpuView]:
    seen: dict[tuple[str, str | None], GpuView] = {}
    for gpu in gpus:
        seen.setdefault((gpu.gpu.name, gpu.cc), gpu)
    return list(seen.values())


def _driver(v: View) -> str | None:
    return v.driver.version if v.driver and not v.windows else None


def _floor(v: View, variant: str) -> str | None:
    family = v.matrix.family(advice.cuda_of(variant))
    return family.min_driver_linux if family else None
