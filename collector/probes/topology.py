"""How the GPUs are connected: NVLink links and peers, the GPU-pair matrix, P2P status, CPU/NUMA affinity."""

from __future__ import annotations

import ctypes
import os
from typing import Any

from collector import native
from collector.context import Context, NvmlUnavailable
from collector.probes import probe
from collector.report.model import Fact, Missing, Result, Status
from collector.report.schema import TOPOLOGY, NvLinkState, Topology

# nvmlGpuTopologyLevel_t -> the words `nvidia-smi topo -m` prints.
TOPOLOGY_LEVELS = {0: "PIX", 10: "PIX", 20: "PXB", 30: "PHB", 40: "NODE", 50: "SYS"}
# nvmlGpuP2PStatus_t -> the words `nvidia-smi topo -p2p r` prints.
P2P_STATUS = {0: "OK", 1: "CNS", 2: "GNS", 3: "TNS", 4: "DBR", 5: "NS", 6: "U"}
NVLINK_DEVICE_SWITCH = 2
MAX_LINKS = 18


@probe(TOPOLOGY)
def topology(ctx: Context) -> Result:
    if ctx.platform == native.MACOS:
        return native.no_nvidia_driver()
    try:
        nvml = ctx.nvml.get()
    except NvmlUnavailable as exc:
        return _from_smi(ctx, str(exc))
    handles = [nvml.nvmlDeviceGetHandleByIndex(i) for i in range(nvml.nvmlDeviceGetCount())]
    if not handles:
        return Missing("NVML sees no GPU")
    bus_ids = [_bus(nvml.nvmlDeviceGetPciInfo(handle).busId) for handle in handles]
    links = [_nvlinks(nvml, index, handle, bus_ids) for index, handle in enumerate(handles)]
    info = Topology(
        gpus=[f"GPU{i}" for i in range(len(handles))],
        matrix=[[_pair(nvml, handles, links, i, j) for j in range(len(handles))] for i in range(len(handles))],
        p2p=[[_p2p(nvml, handles, i, j) for j in range(len(handles))] for i in range(len(handles))],
        nvlink=links,
        cpu_affinity=[_cpu_affinity(nvml, handle) for handle in handles],
        numa_affinity=[_numa_node(ctx, bus) for bus in bus_ids],
    )
    return Fact(info, source="nvml")


def _from_smi(ctx: Context, nvml_error: str) -> Result:
    from collector.parsers import smi  # with xml.etree: imported only when NVML cannot answer

    result = ctx.run((native.nvidia_smi(ctx), "topo", "-m"), 10.0)
    if not result.ok:
        status: Status = "timeout" if result.timed_out else "missing"
        return Missing(f"{nvml_error}; fallback failed: {result.failure()}", status=status)
    try:
        return Fact(smi.topology_from_text(result.stdout), source="nvidia-smi topo -m")
    except smi.SmiParseError as exc:
        return Missing(f"{nvml_error}; nvidia-smi topo -m output unreadable: {exc}", status="error")


def _bus(value: str | bytes) -> str:
    text = value.decode() if isinstance(value, bytes) else value
    return text.upper()


def _nvlinks(nvml: Any, index: int, handle: Any, bus_ids: list[str]) -> NvLinkState:
    up = total = 0
    peers: dict[str, int] = {}
    for link in range(getattr(nvml, "NVML_NVLINK_MAX_LINKS", MAX_LINKS)):
        try:
            state = nvml.nvmlDeviceGetNvLinkState(handle, link)
        except nvml.NVMLError:
            continue  # link does not exist on this board
        total += 1
        if not state:
            continue
        up += 1
        peer = _peer(nvml, handle, link, bus_ids)
        peers[peer] = peers.get(peer, 0) + 1
    return NvLinkState(gpu=index, links_up=up, links_total=total, peers=peers)


def _peer(nvml: Any, handle: Any, link: int, bus_ids: list[str]) -> str:
    try:
        kind = nvml.nvmlDeviceGetNvLinkRemoteDeviceType(handle, link)
        if kind == NVLINK_DEVICE_SWITCH:
            return "NVSwitch"
    except (nvml.NVMLError, AttributeError):
        pass
    try:
        remote = _bus(nvml.nvmlDeviceGetNvLinkRemotePciInfo_v2(handle, link).busId)
    except nvml.NVMLError:
        return "unknown"
    return f"GPU{bus_ids.index(remote)}" if remote in bus_ids else "NVSwitch"


def _pair(nvml: Any, handles: list[Any], links: list[NvLinkState], i: int, j: int) -> str:
    if i == j:
        return "X"
    direct = links[i].peers.get(f"GPU{j}", 0)
    if direct:
        return f"NV{direct}"
    # Behind NVSwitches every pair shows the links each GPU has into the fabric, as nvidia-smi does.
    switched = min(links[i].peers.get("NVSwitch", 0), links[j].peers.get("NVSwitch", 0))
    if switched:
        return f"NV{switched}"
    try:
        level = nvml.nvmlDeviceGetTopologyCommonAncestor(handles[i], handles[j])
    except nvml.NVMLError:
        return "?"
    return TOPOLOGY_LEVELS.get(level, "?")


def _p2p(nvml: Any, handles: list[Any], i: int, j: int) -> str:
    if i == j:
        return "X"
    try:
        status = nvml.nvmlDeviceGetP2PStatus(handles[i], handles[j], _read_index(nvml))
    except (nvml.NVMLError, ctypes.ArgumentError, TypeError):
        return "U"
    return P2P_STATUS.get(status, "U")


def _read_index(nvml: Any) -> int:
    """NVML_P2P_CAPS_INDEX_READ, as the int NVML takes. nvidia-ml-py 13.6xx defines it as `(0,)` (a stray comma),
    which ctypes cannot pass: seen on a 2xH200 host, where it broke the whole topology probe."""
    index = getattr(nvml, "NVML_P2P_CAPS_INDEX_READ", 0)
    return int(index[0] if isinstance(index, tuple) else index)


def _cpu_affinity(nvml: Any, handle: Any) -> str:
    words = ((os.cpu_count() or 64) + 63) // 64
    try:
        masks = nvml.nvmlDeviceGetCpuAffinity(handle, words)
    except nvml.NVMLError:
        return "N/A"
    cpus = [word * 64 + bit for word, mask in enumerate(masks) for bit in range(64) if int(mask) >> bit & 1]
    return cpu_ranges(cpus)


def cpu_ranges(cpus: list[int]) -> str:
    """[0, 1, 2, 5] -> "0-2,5", the notation of topo -m and /sys."""
    if not cpus:
        return "N/A"
    spans: list[list[int]] = []
    for cpu in sorted(cpus):
        if spans and cpu == spans[-1][1] + 1:
            spans[-1][1] = cpu
        else:
            spans.append([cpu, cpu])
    return ",".join(f"{a}-{b}" if a != b else str(a) for a, b in spans)


def _numa_node(ctx: Context, bus_id: str) -> str:
    # NVML prints an 8-digit PCI domain, sysfs a 4-digit one.
    sysfs = bus_id.lower()[4:] if len(bus_id.split(":")[0]) == 8 else bus_id.lower()
    node = (ctx.host.read(f"/sys/bus/pci/devices/{sysfs}/numa_node") or "").strip()
    return node if node and node != "-1" else "N/A"
