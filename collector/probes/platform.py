"""Operating system, runtime (container, WSL, Jetson, VM, Slurm), resource limits, CPU, kernel modules."""

from __future__ import annotations

import os
import platform as stdlib_platform
import re
from typing import Literal

from collector import native
from collector.context import Context
from collector.probes import probe
from collector.report.model import Fact, Missing, Result
from collector.report.schema import (
    CPU,
    KERNEL_MODULES,
    LIMITS,
    OS,
    RUNTIME,
    CpuInfo,
    KernelModules,
    Limits,
    OsInfo,
    Runtime,
)

# The ISA features that decide which kernels and dtypes run fast; the whole flag list is noise in an issue.
KEY_CPU_FLAGS = (
    "sse4_2",
    "avx",
    "avx2",
    "fma",
    "f16c",
    "avx512f",
    "avx512bw",
    "avx512_vnni",
    "avx512_bf16",
    "avx512_fp16",
    "amx_tile",
    "amx_bf16",
    "amx_int8",
    "asimd",
    "sve",
    "sve2",
    "bf16",
    "i8mm",
)
ARM_PARTS = {
    "0xd0c": "Neoverse N1",
    "0xd40": "Neoverse V1",
    "0xd49": "Neoverse N2",
    "0xd4f": "Neoverse V2",
    "0xd42": "Cortex-A78AE",
    "0xd08": "Cortex-A72",
    "0xd4a": "Neoverse E1",
    "0xd8e": "Neoverse N3",
}


@probe(OS)
def operating_system(ctx: Context) -> Result:
    if native.elsewhere(ctx):  # Windows, macOS: no os-release, no uname in os on Windows
        return native.os_info(ctx)
    release = _os_release(ctx.host.read("/etc/os-release") or "")
    uname = stdlib_platform.uname()  # os.uname where there is one; the tests simulate Linux on Windows too
    info = OsInfo(
        system=uname.system,
        machine=uname.machine,
        distro=release.get("PRETTY_NAME") or release.get("NAME"),
        kernel=(ctx.host.read("/proc/sys/kernel/osrelease") or uname.release).strip() or None,
        glibc=_glibc(),
    )
    return Fact(info, source="/etc/os-release, /proc/sys/kernel/osrelease, libc")


def _glibc() -> str | None:
    """The glibc this process runs on ("glibc 2.36" from glibc itself); musl and other C libraries have none."""
    try:
        name, _, version = (os.confstr("CS_GNU_LIBC_VERSION") or "").partition(" ")
    except (ValueError, OSError, AttributeError):  # a C library that does not know the name; Windows: no confstr
        return None
    return version if name == "glibc" and version else None


def _os_release(text: str) -> dict[str, str]:
    values = {}
    for line in text.splitlines():
        name, sep, value = line.partition("=")
        if sep:
            values[name.strip()] = value.strip().strip('"')
    return values


@probe(RUNTIME)
def runtime(ctx: Context) -> Result:
    if native.elsewhere(ctx):
        return native.runtime(ctx)
    evidence: list[str] = []
    container = _container(ctx, evidence)
    wsl = _wsl(ctx, evidence)
    jetson = _jetson(ctx, evidence)
    hypervisor = _hypervisor(ctx, evidence)
    slurm = "SLURM_JOB_ID" in ctx.env
    if slurm:
        evidence.append("SLURM_JOB_ID is set")
    info = Runtime(
        container=container, wsl=wsl, jetson=jetson, hypervisor=hypervisor, slurm_job=slurm, evidence=evidence
    )
    return Fact(info, source="marker files, /proc, /sys/class/dmi, environment")


def _container(ctx: Context, evidence: list[str]) -> str | None:
    env = ctx.env
    markers: list[tuple[bool, str, str]] = [
        ("KUBERNETES_SERVICE_HOST" in env, "kubernetes", "KUBERNETES_SERVICE_HOST is set"),
        ("APPTAINER_CONTAINER" in env, "apptainer", "APPTAINER_CONTAINER is set"),
        ("SINGULARITY_CONTAINER" in env, "singularity", "SINGULARITY_CONTAINER is set"),
        (any(name.startswith("ENROOT_") for name in env), "enroot", "ENROOT_* variables are set"),
        (ctx.host.exists("/run/.containerenv"), "podman", "/run/.containerenv exists"),
        (ctx.host.exists("/.dockerenv"), "docker", "/.dockerenv exists"),
    ]
    for present, kind, why in markers:
        if present:
            evidence.append(why)
            return kind
    if env.get("container"):
        evidence.append(f"container={env['container']}")
        return env["container"]
    cgroup = ctx.host.read("/proc/1/cgroup") or ""
    for word, kind in (
        ("kubepods", "kubernetes"),
        ("docker", "docker"),
        ("libpod", "podman"),
        ("containerd", "containerd"),
        ("lxc", "lxc"),
    ):
        if word in cgroup:
            evidence.append(f"/proc/1/cgroup mentions {word}")
            return kind
    return None


def _wsl(ctx: Context, evidence: list[str]) -> Literal[1, 2] | None:
    # WSL is told by the kernel release, never by the host name (vllm#41933: hosts named *microsoft*); /proc/version
    # starts with the same release. /usr/lib/wsl/lib holds the Windows driver's libcuda and nvidia-smi under WSL2.
    release = (ctx.host.read("/proc/sys/kernel/osrelease") or "").strip()
    version = (ctx.host.read("/proc/version") or "").split()
    release = release or (version[2] if version[:2] == ["Linux", "version"] and len(version) > 2 else "")
    if "microsoft" not in release.lower():
        return None
    evidence.append(f"kernel release {release}")
    if ctx.host.exists("/usr/lib/wsl/lib"):
        evidence.append("/usr/lib/wsl/lib exists (the Windows driver's libraries)")
    return 2 if ("WSL2" in release or "microsoft-standard" in release) else 1


def _jetson(ctx: Context, evidence: list[str]) -> str | None:
    release = ctx.host.read("/etc/nv_tegra_release")
    if release:
        match = re.search(r"R(\d+) \(release\), REVISION: ([\d.]+)", release)
        evidence.append("/etc/nv_tegra_release exists")
        return f"L4T R{match.group(1)}.{match.group(2)}" if match else "L4T (unknown release)"
    model = (ctx.host.read("/proc/device-tree/model") or "").replace("\x00", "").strip()
    if "jetson" in model.lower() or "tegra" in model.lower():
        evidence.append(f"device-tree model {model}")
        return model
    return None


def _hypervisor(ctx: Context, evidence: list[str]) -> str | None:
    vendor = (ctx.host.read("/sys/class/dmi/id/sys_vendor") or "").strip()
    product = (ctx.host.read("/sys/class/dmi/id/product_name") or "").strip()
    known = (
        "QEMU",
        "KVM",
        "Amazon EC2",
        "Google",
        "VMware",
        "Xen",
        "innotek",
        "Parallels",
        "OpenStack",
        "Alibaba Cloud",
        "Oracle",
    )
    for name in known:
        if name.lower() in f"{vendor} {product}".lower():
            evidence.append(f"DMI vendor {vendor} {product}".strip())
            return name
    if vendor == "Microsoft Corporation" and "Virtual" in product:
        evidence.append(f"DMI vendor {vendor} {product}")
        return "Microsoft Hyper-V"
    flags = _cpuinfo_fields(ctx.host.read("/proc/cpuinfo") or "").get("flags", "")
    if "hypervisor" in flags.split():
        evidence.append("cpu flag 'hypervisor'")
        return "unknown hypervisor"
    return None


@probe(LIMITS)
def limits(ctx: Context) -> Result:
    if native.elsewhere(ctx):
        return native.limits(ctx)
    cpus, memory = _cgroup_v2(ctx) or _cgroup_v1(ctx)
    meminfo = re.search(r"MemTotal:\s+(\d+) kB", ctx.host.read("/proc/meminfo") or "")
    info = Limits(
        cgroup_cpus=cpus,
        cgroup_memory_bytes=memory,
        shm_bytes=ctx.host.filesystem_size("/dev/shm"),
        memory_bytes=int(meminfo.group(1)) * 1024 if meminfo else None,
    )
    return Fact(info, source="/sys/fs/cgroup, statvfs(/dev/shm), /proc/meminfo")


def _cgroup_v2(ctx: Context) -> tuple[float | None, int | None] | None:
    own = (ctx.host.read("/proc/self/cgroup") or "").strip()
    path = own.split("::", 1)[1] if own.startswith("0::") else "/"
    for base in dict.fromkeys([f"/sys/fs/cgroup{path.rstrip('/')}", "/sys/fs/cgroup"]):
        cpu_max = ctx.host.read(f"{base}/cpu.max")
        memory_max = ctx.host.read(f"{base}/memory.max")
        if cpu_max is None and memory_max is None:
            continue
        cpus = _cpu_max(cpu_max or "max")
        memory = int(memory_max) if memory_max and memory_max.strip().isdigit() else None
        return cpus, memory
    return None


def _cpu_max(text: str) -> float | None:
    """cgroup v2 cpu.max: "max 100000" (no limit) or "<quota> <period>"."""
    parts = text.split()
    if len(parts) != 2 or not parts[0].isdigit() or not parts[1].isdigit() or int(parts[1]) == 0:
        return None
    return round(int(parts[0]) / int(parts[1]), 2)


def _cgroup_v1(ctx: Context) -> tuple[float | None, int | None]:
    quota = (ctx.host.read("/sys/fs/cgroup/cpu/cpu.cfs_quota_us") or "-1").strip()
    period = (ctx.host.read("/sys/fs/cgroup/cpu/cpu.cfs_period_us") or "0").strip()
    cpus = round(int(quota) / int(period), 2) if quota.isdigit() and period.isdigit() and int(period) else None
    limit = (ctx.host.read("/sys/fs/cgroup/memory/memory.limit_in_bytes") or "").strip()
    # cgroup v1 reports "no limit" as a page-rounded LONG_MAX.
    memory = int(limit) if limit.isdigit() and int(limit) < (1 << 62) else None
    return cpus, memory


@probe(CPU)
def cpu(ctx: Context) -> Result:
    if native.elsewhere(ctx):
        return native.cpu(ctx)
    text = ctx.host.read("/proc/cpuinfo")
    if text is None:
        return Missing("/proc/cpuinfo is not readable")
    blocks = [_cpuinfo_fields(block) for block in text.split("\n\n") if block.strip()]
    first = blocks[0] if blocks else {}
    sockets = {block.get("physical id") for block in blocks if "physical id" in block}
    cores_per_socket = int(first["cpu cores"]) if first.get("cpu cores", "").isdigit() else None
    flags = set((first.get("flags") or first.get("Features") or "").split())
    nodes = [name for name in ctx.host.listdir("/sys/devices/system/node") if re.fullmatch(r"node\d+", name)]
    info = CpuInfo(
        model=first.get("model name") or _arm_model(first),
        sockets=len(sockets) or None,
        cores=cores_per_socket * len(sockets) if cores_per_socket and sockets else None,
        threads=len(blocks) or None,
        numa_nodes=len(nodes) or None,
        flags=[flag for flag in KEY_CPU_FLAGS if flag in flags],
    )
    return Fact(info, source="/proc/cpuinfo, /sys/devices/system/node")


def _cpuinfo_fields(block: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for line in block.splitlines():
        name, sep, value = line.partition(":")
        if sep and name.strip() not in fields:
            fields[name.strip()] = value.strip()
    return fields


def _arm_model(fields: dict[str, str]) -> str | None:
    part = fields.get("CPU part")
    return ARM_PARTS.get(part or "", f"Arm CPU part {part}" if part else None)


@probe(KERNEL_MODULES)
def kernel_modules(ctx: Context) -> Result:
    if native.elsewhere(ctx):
        return native.kernel_modules(ctx)
    version_text = ctx.host.read("/proc/driver/nvidia/version") or ""
    match = re.search(r"Kernel Module\s+(?:for \S+\s+)?(\d+\.\d+(?:\.\d+)?)", version_text)
    flavour: Literal["open", "proprietary"] | None = None
    if match:
        flavour = "open" if "Open Kernel Module" in version_text else "proprietary"
    modules = ctx.host.read("/proc/modules") or ""
    nouveau = ctx.host.exists("/sys/module/nouveau") or re.search(r"^nouveau ", modules, re.M) is not None
    info = KernelModules(nvidia=match.group(1) if match else None, flavour=flavour, nouveau=nouveau)
    return Fact(info, source="/proc/driver/nvidia/version, /proc/modules")
