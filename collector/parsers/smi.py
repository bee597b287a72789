"""Parsers for nvidia-smi's outputs: `-q -x` (XML), `topo -m`, and `--query-gpu ... --format=csv`.

Used by the collector when NVML is unusable and by the bot when users paste these outputs.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from collector.report.schema import DriverInfo, Gpu, MigInstance, Topology

ANSI = re.compile(r"\x1b\[[0-9;]*m")
LINK_CELL = re.compile(r"^(X|NV\d+|PIX|PXB|PHB|NODE|SYS|SOC)$")
HEADER_TOKEN = re.compile(r"GPU\d+|NIC\d+|CPU Affinity|NUMA Affinity|GPU NUMA ID")
LEADING_NUMBER = re.compile(r"^\s*(\d+)")
CC = re.compile(r"^\d+\.\d+$")
FIRST_GPU = re.compile(r"\bGPU0\b")
DEVICE_COLUMN = re.compile(r"^(GPU|NIC)\d+$")


class SmiParseError(ValueError):
    """The text is not the nvidia-smi output we expected."""


def _root(text: str) -> ET.Element:
    """The <nvidia_smi_log> element. A paste cut short (issue excerpts often are) keeps the elements closed before
    the cut, provided the driver version made it; text after the closing tag (a fence, a prompt) is ignored."""
    start = text.find("<nvidia_smi_log")
    if start < 0:
        raise SmiParseError("no <nvidia_smi_log> element")
    parser: ET.XMLPullParser[ET.Element] = ET.XMLPullParser(events=("start", "end"))  # no DTD: no entities
    parser.feed(text[start:])
    events: list[Any] = []  # (event, element) pairs
    error = None
    try:  # a syntax error is raised by read_events, after the events before it
        events.extend(parser.read_events())
    except ET.ParseError as exc:
        error = str(exc)
    root: ET.Element | None = events[0][1] if events else None
    closed = any(event == "end" and element is root for event, element in events)
    if root is None or (error is not None and not closed):
        raise SmiParseError(error or "no <nvidia_smi_log> element")
    if not closed and root.find("driver_version") is None:
        raise SmiParseError("the output ends before the driver version")
    return root


def _value(node: ET.Element | None, path: str) -> str | None:
    found = node.find(path) if node is not None else None
    text = (found.text or "").strip() if found is not None else ""
    return None if text in ("", "N/A", "None", "[N/A]") else text


def _number(text: str | None) -> int | None:
    match = LEADING_NUMBER.match(text or "")
    return int(match.group(1)) if match else None


def _enabled(text: str | None) -> bool | None:
    return None if text is None else text.lower() == "enabled"


def driver_from_xml(text: str) -> DriverInfo:
    root = _root(text)
    # Newer nvidia-smi renames "CUDA Version" to "CUDA UMD Version"; accept both.
    cuda = _value(root, "cuda_version") or _value(root, "cuda_umd_version")
    return DriverInfo(version=_value(root, "driver_version"), cuda_max=cuda)


def gpus_from_xml(text: str, ccs: dict[str, str] | None = None) -> list[Gpu]:
    root = _root(text)
    return [_gpu(index, node, ccs or {}) for index, node in enumerate(root.findall("gpu"))]


def _gpu(index: int, node: ET.Element, ccs: dict[str, str]) -> Gpu:
    bus_id = _value(node, "pci/pci_bus_id") or node.get("id")
    ecc = _enabled(_value(node, "ecc_mode/current_ecc"))
    mig = _enabled(_value(node, "mig_mode/current_mig"))
    return Gpu(
        index=index,
        name=_value(node, "product_name") or "unknown",
        cc=ccs.get((bus_id or "").upper()),
        memory_mib=_number(_value(node, "fb_memory_usage/total")),
        uuid=_value(node, "uuid"),
        pci_bus_id=bus_id,
        architecture=_value(node, "product_architecture"),
        mig_mode=mig,
        mig_pending=_enabled(_value(node, "mig_mode/pending_mig")),
        mig_instances=[
            MigInstance(profile=_value(dev, "profile_name") or "unknown")
            for dev in node.findall("mig_devices/mig_device")
        ],
        ecc=ecc,
        ecc_volatile_uncorrected=_number(_value(node, "ecc_errors/volatile/dram_uncorrectable")) if ecc else None,
        persistence=_enabled(_value(node, "persistence_mode")),
        pcie_gen=_number(_value(node, "pci/pci_gpu_link_info/pcie_gen/current_link_gen")),
        pcie_width=_number(_value(node, "pci/pci_gpu_link_info/link_widths/current_link_width")),
        pcie_max_gen=_number(_value(node, "pci/pci_gpu_link_info/pcie_gen/max_link_gen")),
        pcie_max_width=_number(_value(node, "pci/pci_gpu_link_info/link_widths/max_link_width")),
        driver_model=_value(node, "driver_model/current_dm"),
    )


def driver_models_from_query(lines: list[str]) -> dict[int, str]:
    """{GPU number: driver model} from `nvidia-smi -q` text, where each GPU has "Driver Model" then "Current : WDDM"
    (Windows and WSL2; "N/A" on Linux, left out)."""
    models: dict[int, str] = {}
    gpu = -1
    for index, line in enumerate(lines):
        text = line.strip()
        if text.startswith("GPU ") and " : " not in text:  # "GPU 00000000:01:00.0" opens each GPU's block
            gpu += 1
        elif text == "Driver Model" and index + 1 < len(lines):
            name, _, value = lines[index + 1].partition(":")
            if name.strip() == "Current" and value.strip() not in ("", "N/A"):
                models[max(gpu, 0)] = value.strip()
    return models


def ccs_from_csv(text: str) -> dict[str, str]:
    """{PCI bus id: compute capability} from `--query-gpu=pci.bus_id,compute_cap --format=csv,noheader`."""
    ccs = {}
    for line in text.splitlines():
        parts = [part.strip() for part in line.split(",")]
        if len(parts) == 2 and CC.fullmatch(parts[1]):
            ccs[parts[0].upper()] = parts[1]
    return ccs


def topology_from_text(text: str) -> Topology:
    """The GPU-pair matrix of `nvidia-smi topo -m` (NIC rows and the legend are left out)."""
    lines = [ANSI.sub("", line).rstrip() for line in text.splitlines()]
    header_at = next((i for i, line in enumerate(lines) if FIRST_GPU.search(line) and "Affinity" in line), None)
    if header_at is None:
        raise SmiParseError("no topo -m header (GPU0 ... CPU Affinity)")
    columns = HEADER_TOKEN.findall(lines[header_at])
    links = [name for name in columns if DEVICE_COLUMN.fullmatch(name)]
    gpus = [name for name in links if name.startswith("GPU")]
    matrix, cpus, numas = [], [], []
    for line in lines[header_at + 1 :]:
        cells = line.split()
        if not cells or cells[0] not in gpus:
            continue
        values = cells[1 : 1 + len(links)]
        if len(values) < len(links) or not all(LINK_CELL.match(value) for value in values):
            raise SmiParseError(f"unexpected cells in row {cells[0]}: {values}")
        pairs = zip(links, values)  # lengths checked above; strict= is 3.10+, this runs on 3.8 (bundle)
        matrix.append([value for name, value in pairs if name.startswith("GPU")])
        rest = cells[1 + len(links) :]
        cpus.append(rest[0] if rest else "N/A")
        numas.append(rest[1] if len(rest) > 1 else "N/A")
    if len(matrix) != len(gpus):
        raise SmiParseError(f"{len(gpus)} GPU columns but {len(matrix)} GPU rows")
    return Topology(gpus=gpus, matrix=matrix, cpu_affinity=cpus, numa_affinity=numas)
