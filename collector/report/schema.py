"""The report's vocabulary: one typed key per fact, and the value classes they hold.

Both directions use it: the collector's probes fill these keys on a user's machine, and the bot's readers fill
the same keys from whatever was pasted into an issue. Field names are part of the JSON twin (SCHEMA); rename
nothing without bumping it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Generic, List, Literal, TypeVar

SCHEMA = "envtriage.report/1"

T = TypeVar("T")


@dataclass(frozen=True)
class Key(Generic[T]):
    """A fact's name in the report, bound to the type of its value."""

    name: str
    type: type[T]
    title: str


# --- platform -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OsInfo:
    system: str  # "Linux", "Windows", "Darwin"
    machine: str  # "x86_64", "aarch64"
    distro: str | None = None  # "Ubuntu 24.04.3 LTS"
    kernel: str | None = None
    glibc: str | None = None


@dataclass(frozen=True)
class PythonInfo:
    version: str
    implementation: str = "CPython"
    executable: str | None = None
    environment: Literal["venv", "conda", "system", "unknown"] = "unknown"


@dataclass(frozen=True)
class Runtime:
    """Where the process runs: container engine, WSL, Jetson, hypervisor, batch system."""

    container: str | None = None  # docker, podman, kubernetes, singularity, enroot, lxc, containerd
    wsl: Literal[1, 2] | None = None
    jetson: str | None = None  # L4T release or board model
    hypervisor: str | None = None  # KVM, Amazon EC2, Microsoft Hyper-V, Firecracker...
    slurm_job: bool = False
    evidence: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Limits:
    cgroup_cpus: float | None = None
    cgroup_memory_bytes: int | None = None
    shm_bytes: int | None = None
    memory_bytes: int | None = None


@dataclass(frozen=True)
class CpuInfo:
    model: str | None = None
    sockets: int | None = None
    cores: int | None = None
    threads: int | None = None
    numa_nodes: int | None = None
    flags: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class KernelModules:
    nvidia: str | None = None  # version of the loaded kernel module
    flavour: Literal["open", "proprietary"] | None = None
    nouveau: bool = False


# --- driver, GPUs, topology -------------------------------------------------------------------------------


@dataclass(frozen=True)
class DriverInfo:
    version: str | None = None
    cuda_max: str | None = None  # the highest CUDA the driver supports, e.g. "13.0"
    nvml: str | None = None


@dataclass(frozen=True)
class MigInstance:
    profile: str
    memory_mib: int | None = None


@dataclass(frozen=True)
class Gpu:
    index: int
    name: str
    cc: str | None = None  # compute capability "9.0"
    memory_mib: int | None = None
    uuid: str | None = None  # shortened hash unless --no-redact
    pci_bus_id: str | None = None
    architecture: str | None = None
    mig_mode: bool | None = None
    mig_pending: bool | None = None
    mig_instances: list[MigInstance] = field(default_factory=list)
    ecc: bool | None = None
    ecc_volatile_uncorrected: int | None = None
    persistence: bool | None = None
    pcie_gen: int | None = None
    pcie_width: int | None = None
    pcie_max_gen: int | None = None
    pcie_max_width: int | None = None
    numa_node: int | None = None
    driver_model: str | None = None  # Windows only: "WDDM", "TCC" or "MCDM" (NVML and nvidia-smi's "Driver Model")


@dataclass(frozen=True)
class NvLinkState:
    gpu: int
    links_up: int
    links_total: int
    peers: dict[str, int] = field(default_factory=dict)  # "GPU1" / "NVSwitch" / bus id -> number of links


@dataclass(frozen=True)
class Topology:
    gpus: list[str]  # column labels, "GPU0"...
    matrix: list[list[str]]  # "X", "NV18", "PIX", "PXB", "PHB", "NODE", "SYS"
    p2p: list[list[str]] | None = None  # "OK", "NS" (not supported), "X"
    nvlink: list[NvLinkState] = field(default_factory=list)
    cpu_affinity: list[str] | None = None
    numa_affinity: list[str] | None = None


# --- torch and libraries ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TorchDevice:
    index: int
    name: str
    cc: str
    memory_mib: int | None = None
    multiprocessors: int | None = None
    uuid: str | None = None


@dataclass(frozen=True)
class TorchInfo:
    version: str | None = None  # always known to the collector; a pasted warning may tell only the arch list
    tag: str | None = None  # local version label: "cu128", "cpu", "rocm6.2"
    build: Literal["cuda", "rocm", "cpu"] | None = None  # None: the source did not say
    cuda: str | None = None  # torch.version.cuda
    hip: str | None = None
    debug: bool | None = None
    cxx11_abi: bool | None = None
    location: str | None = None
    arch_list: list[str] | None = None
    available: bool | None = None
    init_error: str | None = None  # why CUDA could not initialise, verbatim
    device_count: int | None = None
    devices: list[TorchDevice] = field(default_factory=list)
    cudnn: str | None = None  # loaded, "9.19.0"
    cudnn_built: str | None = None
    cudnn_error: str | None = None  # why the loaded cuDNN could not be used, verbatim
    nccl: str | None = None  # loaded, "2.28.9"
    bf16_supported: bool | None = None
    import_seconds: float | None = None
    mps_available: bool | None = None  # macOS: torch.backends.mps.is_available()


@dataclass(frozen=True)
class Library:
    name: str  # soname family: "libcudnn", "libnccl", "libcudart"...
    path: str
    version: str | None = None
    owner: str | None = None  # pip/conda distribution owning the file, "nvidia-cudnn-cu13 9.19.0.56"


@dataclass(frozen=True)
class LibraryCopy:
    name: str
    path: str
    version: str | None = None
    found_via: Literal["LD_LIBRARY_PATH", "ldconfig"] = "ldconfig"


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    installer: str | None = None  # pip, conda, uv...
    location: str | None = None
    editable: bool = False


@dataclass(frozen=True)
class DuplicateDistribution:
    name: str
    copies: list[Package]


@dataclass(frozen=True)
class Packages:
    selected: list[Package] = field(default_factory=list)
    duplicates: list[DuplicateDistribution] = field(default_factory=list)
    total: int | None = None


@dataclass(frozen=True)
class Nvcc:
    path: str
    version: str | None = None
    found_via: Literal["PATH", "CUDA_HOME", "default"] = "PATH"


@dataclass(frozen=True)
class SmokeResult:
    passed: bool
    detail: str | None = None
    metrics: dict[str, float] = field(default_factory=dict)


# --- the keys ---------------------------------------------------------------------------------------------

OS = Key("os", OsInfo, "Operating system")
PYTHON = Key("python", PythonInfo, "Python")
RUNTIME = Key("runtime", Runtime, "Container / VM / WSL")
LIMITS = Key("limits", Limits, "Resource limits")
CPU = Key("cpu", CpuInfo, "CPU")
KERNEL_MODULES = Key("kernel_modules", KernelModules, "Kernel modules")
DRIVER = Key("driver", DriverInfo, "NVIDIA driver")
# typing's List and Dict, not list[...] and dict[...]: these are values, made at import, also on Python 3.8 (the
# one-file collector, collector/bundle.py), where builtins cannot be subscripted.
GPUS = Key("gpus", List[Gpu], "GPUs")
TOPOLOGY = Key("topology", Topology, "Topology")
TORCH = Key("torch", TorchInfo, "PyTorch")
LIBRARIES = Key("libraries", List[Library], "CUDA libraries loaded by torch")
LIBRARY_COPIES = Key("library_copies", List[LibraryCopy], "Other copies on the loader path")
PACKAGES = Key("packages", Packages, "Python packages")
TOOLKIT = Key("toolkit", List[Nvcc], "CUDA toolkit (nvcc)")
ENV = Key("env", Dict[str, str], "Environment variables")
SMOKE_MATMUL = Key("smoke.matmul_bf16", SmokeResult, "bf16 matmul on every GPU")
SMOKE_FP8 = Key("smoke.fp8", SmokeResult, "FP8 torch._scaled_mm")
SMOKE_SDPA = Key("smoke.sdpa_flash", SmokeResult, "SDPA flash attention")
SMOKE_P2P = Key("smoke.p2p", SmokeResult, "P2P copy between GPU pairs")
SMOKE_NCCL = Key("smoke.nccl", SmokeResult, "NCCL all-reduce")

KEYS: dict[str, Key[object]] = {
    key.name: key  # type: ignore[misc]
    for key in (
        OS,
        PYTHON,
        RUNTIME,
        LIMITS,
        CPU,
        KERNEL_MODULES,
        DRIVER,
        GPUS,
        TOPOLOGY,
        TORCH,
        LIBRARIES,
        LIBRARY_COPIES,
        PACKAGES,
        TOOLKIT,
        ENV,
        SMOKE_MATMUL,
        SMOKE_FP8,
        SMOKE_SDPA,
        SMOKE_P2P,
        SMOKE_NCCL,
    )
}
SMOKE_KEYS = [key for name, key in KEYS.items() if name.startswith("smoke.")]
