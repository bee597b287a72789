"""Where torch runs: the kernel driver itself, WSL, containers, and the links between GPUs (NCCL, P2P)."""

from __future__ import annotations

from collections.abc import Iterator

from bot.diagnosis.findings import Finding, Severity
from bot.diagnosis.rules import finding, rule
from bot.diagnosis.rules.features import smoke_failed
from bot.diagnosis.rules.view import View
from collector.report.schema import DRIVER, KERNEL_MODULES, LIMITS, RUNTIME, SMOKE_NCCL, SMOKE_P2P, TOPOLOGY, TORCH

DOCKER_DEFAULT_SHM = 64 * 1024 * 1024
SHM_ENOUGH = 1024 * 1024 * 1024


def _library_absent(reason: str) -> bool:
    return "not found" in reason.lower() or "shared library" in reason.lower()


@rule
def driver_not_loaded(v: View) -> Iterator[Finding]:
    modules = v.report.get(KERNEL_MODULES)
    missing = v.missing(DRIVER)
    reason = missing.reason if missing else ""
    cause = None
    if "mismatch" in reason.lower():
        cause = "mismatch"
    elif modules and modules.nouveau:
        cause = "nouveau"
    elif modules and modules.nvidia and v.driver and v.driver.version and modules.nvidia != v.driver.version:
        cause = "mismatch"
    elif missing and "not loaded" in reason.lower():
        cause = "not_loaded"
    elif missing and _library_absent(reason) and v.torch_cuda and not (v.runtime.container or v.runtime.wsl):
        cause = "not_installed"
    if cause is None:
        return
    evidence = [*([f"driver: {reason}"] if reason else []), *v.evidence(KERNEL_MODULES), *v.evidence(DRIVER)]
    yield finding(
        "driver_not_loaded", "driver_not_loaded", "error", evidence,
        cause=cause, reason=reason, module=modules.nvidia if modules else None,
        library=v.driver.version if v.driver else None,
    )  # fmt: skip


@rule
def container_runtime(v: View) -> Iterator[Finding]:
    container = v.runtime.container
    if not container:
        return
    missing = v.missing(DRIVER)
    gpu_expected = bool(v.torch_cuda or v.gpus or v.quoted("container_runtime", "driver_not_loaded"))
    if missing and _library_absent(missing.reason) and gpu_expected:
        evidence = [*v.evidence(RUNTIME), f"driver: {missing.reason}", *v.evidence(TORCH)]
        yield finding("container_no_gpu", "container_runtime", "error", evidence, container=container)
    limits = v.report.get(LIMITS)
    if limits and limits.shm_bytes is not None and limits.shm_bytes < SHM_ENOUGH:
        severity: Severity = "error" if v.quoted("container_runtime") else "warning"
        evidence = [*v.evidence(RUNTIME), f"/dev/shm is {limits.shm_bytes // (1024 * 1024)} MiB", *v.evidence(LIMITS)]
        yield finding(
            "container_small_shm", "container_runtime", severity, evidence,
            container=container, shm_mib=limits.shm_bytes // (1024 * 1024),
        )  # fmt: skip


@rule
def wsl_specific(v: View) -> Iterator[Finding]:
    if not v.runtime.wsl:
        return
    missing = v.missing(DRIVER)
    quoted = v.quoted("wsl_specific", "driver_not_loaded")
    not_available = v.torch is not None and v.torch.available is False and not v.cpu_build
    # WSL 1 has no GPU paravirtualisation at all: any CUDA failure there is WSL's (microsoft/WSL#5554, #6122).
    any_cuda_error = v.runtime.wsl == 1 and bool(v.signatures)
    if not (missing or quoted or not_available or any_cuda_error):
        return
    evidence = [*v.evidence(RUNTIME), *([f"driver: {missing.reason}"] if missing else []), *v.evidence(TORCH)]
    evidence += [f"{q.text} ({q.where})" for _, q in (quoted or (v.signatures if any_cuda_error else []))]
    # A suggestive text that only WSL prints (dxg's ioctl messages, /usr/lib/wsl/lib, which working setups show
    # too) is not confirmed by the host being WSL: the two are one fact, so it stays a warning.
    decided = (
        bool(missing) or not_available or any_cuda_error or v.decisively_quoted("wsl_specific", "driver_not_loaded")
    )
    severity: Severity = "error" if decided else "warning"
    yield finding(
        "wsl_specific", "wsl_specific", severity, evidence, confidence=1.0 if decided else 0.6, wsl=v.runtime.wsl
    )


@rule
def nccl_topology_or_p2p(v: View) -> Iterator[Finding]:
    failures = [text for text in (smoke_failed(v, SMOKE_NCCL), smoke_failed(v, SMOKE_P2P)) if text]
    topology = v.report.get(TOPOLOGY)
    blocked = []
    if topology and topology.p2p:
        blocked = [
            f"{topology.gpus[i]}↔{topology.gpus[j]} {status}"
            for i, row in enumerate(topology.p2p)
            for j, status in enumerate(row)
            if i < j and status not in ("OK", "X") and i < len(topology.gpus) and j < len(topology.gpus)
        ]
    quoted = v.quoted("nccl_topology_or_p2p")
    hang = v.case.topics.get("nccl_hang")
    if not failures and not (blocked and quoted):
        if hang:
            evidence = [f"{hang.text} ({hang.where})", *v.evidence(TOPOLOGY), *v.gpu_evidence()]
            yield finding("nccl_hang", "nccl_topology_or_p2p", "warning", evidence, confidence=0.55, quote=hang.text)
        return
    evidence = [*failures, *blocked, *(f"{q.text} ({q.where})" for _, q in quoted), *v.evidence(TOPOLOGY)]
    yield finding(
        "nccl_topology_or_p2p", "nccl_topology_or_p2p", "error", evidence,
        failures=failures, blocked=blocked, container=v.runtime.container, hypervisor=v.runtime.hypervisor,
    )  # fmt: skip
