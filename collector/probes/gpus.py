"""The driver and every GPU, through NVML; `nvidia-smi -q -x` when NVML cannot be used."""

from __future__ import annotations

from typing import Any

from collector import native
from collector.context import Context, NvmlUnavailable
from collector.probes import probe
from collector.report.model import Fact, Missing, Result, Status
from collector.report.schema import DRIVER, GPUS, DriverInfo, Gpu, MigInstance

MIB = 1024 * 1024


@probe(DRIVER)
def driver(ctx: Context) -> Result:
    if ctx.platform == native.MACOS:
        return native.no_nvidia_driver()
    try:
        nvml = ctx.nvml.get()
    except NvmlUnavailable as exc:
        from collector.parsers import smi  # with xml.etree: imported only when NVML cannot answer

        return _from_smi(ctx, str(exc), lambda log: Fact(smi.driver_from_xml(log), source="nvidia-smi -q -x"))
    cuda = nvml.nvmlSystemGetCudaDriverVersion_v2()
    info = DriverInfo(
        version=_text(nvml.nvmlSystemGetDriverVersion()),
        cuda_max=f"{cuda // 1000}.{cuda % 1000 // 10}",
        nvml=_text(nvml.nvmlSystemGetNVMLVersion()),
    )
    return Fact(info, source="nvml")


@probe(GPUS)
def gpus(ctx: Context) -> Result:
    if ctx.platform == native.MACOS:
        return native.no_nvidia_driver()
    try:
        nvml = ctx.nvml.get()
    except NvmlUnavailable as exc:
        from collector.parsers import smi

        return _from_smi(ctx, str(exc), lambda log: Fact(smi.gpus_from_xml(log, _smi_ccs(ctx)), "nvidia-smi -q -x"))
    devices = [_gpu(nvml, index) for index in range(nvml.nvmlDeviceGetCount())]
    return Fact(devices, source="nvml")


def _from_smi(ctx: Context, nvml_error: str, build: Any) -> Result:
    from collector.parsers import smi

    result = ctx.run_once((native.nvidia_smi(ctx), "-q", "-x"), timeout=10.0)
    if not result.ok:
        status: Status = "timeout" if result.timed_out else "missing"
        return Missing(f"{nvml_error}; fallback failed: {result.failure()}", status=status)
    try:
        fact: Result = build(result.stdout)
    except smi.SmiParseError as exc:
        return Missing(f"{nvml_error}; nvidia-smi -q -x output unreadable: {exc}", status="error")
    return fact


def _smi_ccs(ctx: Context) -> dict[str, str]:
    # -q -x has no compute capability; the CSV query has had it since driver 510.
    from collector.parsers import smi

    query = (native.nvidia_smi(ctx), "--query-gpu=pci.bus_id,compute_cap", "--format=csv,noheader")
    result = ctx.run_once(query, 10.0)
    return smi.ccs_from_csv(result.stdout) if result.ok else {}


def _gpu(nvml: Any, index: int) -> Gpu:
    handle = nvml.nvmlDeviceGetHandleByIndex(index)
    major, minor = nvml.nvmlDeviceGetCudaComputeCapability(handle)
    mig = _optional(nvml, nvml.nvmlDeviceGetMigMode, handle)
    ecc = _optional(nvml, nvml.nvmlDeviceGetEccMode, handle)
    return Gpu(
        index=index,
        name=_text(nvml.nvmlDeviceGetName(handle)),
        cc=f"{major}.{minor}",
        memory_mib=nvml.nvmlDeviceGetMemoryInfo(handle).total // MIB,
        uuid=_text(nvml.nvmlDeviceGetUUID(handle)),
        pci_bus_id=_text(nvml.nvmlDeviceGetPciInfo(handle).busId),
        architecture=_architecture(nvml, handle),
        mig_mode=bool(mig[0]) if mig else None,
        mig_pending=bool(mig[1]) if mig else None,
        mig_instances=_mig_instances(nvml, handle) if mig and mig[0] else [],
        ecc=bool(ecc[0]) if ecc else None,
        ecc_volatile_uncorrected=_volatile_uncorrected(nvml, handle) if ecc and ecc[0] else None,
        persistence=_flag(_optional(nvml, nvml.nvmlDeviceGetPersistenceMode, handle)),
        pcie_gen=_optional(nvml, nvml.nvmlDeviceGetCurrPcieLinkGeneration, handle),
        pcie_width=_optional(nvml, nvml.nvmlDeviceGetCurrPcieLinkWidth, handle),
        pcie_max_gen=_optional(nvml, nvml.nvmlDeviceGetMaxPcieLinkGeneration, handle),
        pcie_max_width=_optional(nvml, nvml.nvmlDeviceGetMaxPcieLinkWidth, handle),
        numa_node=_optional(nvml, getattr(nvml, "nvmlDeviceGetNumaNodeId", None), handle),
        driver_model=_driver_model(nvml, handle),
    )


# nvmlDriverModel_t: NVML's "WDM" is what nvidia-smi and everyone else call TCC.
DRIVER_MODELS = {0: "WDDM", 1: "TCC", 2: "MCDM"}


def _driver_model(nvml: Any, handle: Any) -> str | None:
    """Windows only (Linux answers NOT_SUPPORTED); [current, pending], of which the current one counts."""
    models = _optional(nvml, getattr(nvml, "nvmlDeviceGetDriverModel", None), handle)
    return DRIVER_MODELS.get(models[0], f"driver model {models[0]}") if models else None


def _optional(nvml: Any, func: Any, *args: Any) -> Any:
    """NVML answers NOT_SUPPORTED for features a board lacks (MIG on a GeForce, ECC on a laptop)."""
    if func is None:
        return None
    try:
        return func(*args)
    except nvml.NVMLError:
        return None


def _flag(value: Any) -> bool | None:
    return None if value is None else bool(value)


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


ARCHITECTURES = {
    2: "Kepler",
    3: "Maxwell",
    4: "Pascal",
    5: "Volta",
    6: "Turing",
    7: "Ampere",
    8: "Ada",
    9: "Hopper",
    10: "Blackwell",
}


def _architecture(nvml: Any, handle: Any) -> str | None:
    code = _optional(nvml, getattr(nvml, "nvmlDeviceGetArchitecture", None), handle)
    return None if code is None else ARCHITECTURES.get(code, f"architecture {code}")


def _mig_instances(nvml: Any, handle: Any) -> list[MigInstance]:
    instances = []
    for slot in range(_optional(nvml, nvml.nvmlDeviceGetMaxMigDeviceCount, handle) or 0):
        mig = _optional(nvml, nvml.nvmlDeviceGetMigDeviceHandleByIndex, handle, slot)
        if mig is None:
            continue
        name = _text(nvml.nvmlDeviceGetName(mig))
        memory = _optional(nvml, nvml.nvmlDeviceGetMemoryInfo, mig)
        # NVML names a MIG device "<board> MIG 1g.10gb"; the profile is the part that matters.
        instances.append(
            MigInstance(profile=name.rsplit("MIG", 1)[-1].strip(), memory_mib=memory.total // MIB if memory else None)
        )
    return instances


def _volatile_uncorrected(nvml: Any, handle: Any) -> int | None:
    count: int | None = _optional(
        nvml, nvml.nvmlDeviceGetTotalEccErrors, handle, nvml.NVML_MEMORY_ERROR_TYPE_UNCORRECTED, nvml.NVML_VOLATILE_ECC
    )
    return count
