"""`nvidia-smi` as users paste it: the default table, `-q` text, `-q -x` XML, `-L` and `topo -m`."""

from __future__ import annotations

import re

from bot.diagnosis.matrix import Index
from bot.diagnosis.readers.base import Partial, Section
from collector.parsers import smi
from collector.report.schema import DRIVER, GPUS, TOPOLOGY, DriverInfo, Gpu

NAME = "nvidia-smi"
# "| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2 |"; newer drivers print
# "KMD Version" and "CUDA UMD Version" instead.
HEADER = re.compile(
    r"NVIDIA-SMI\s+([\d.]+)\s+(?:Driver|KMD) Version:\s*([\d.]+)(?:\s+CUDA(?: UMD)? Version:\s*([\d.]+|N/A))?"
)
# On Windows the persistence column says TCC/WDDM instead of On/Off. The name starts and ends on a non-blank: with
# `\s+(.*?\S)\s+` every blank the first `\s+` gives back starts a scan of the rest of the line (quadratic), and a
# lazy `(.+?)\s+` would try `\s+` from every blank of a long run.
TABLE_GPU = re.compile(
    r"^\s*\|\s*(\d+)\s+(\S(?:.*?\S)?)\s+(On|Off|WDDM|TCC)\s*\|\s*([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.\d)\s+\S+\s*\|"
)
TABLE_MEMORY = re.compile(r"\|\s*\d+MiB\s*/\s*(\d+)MiB\s*\|")
TABLE_MIG = re.compile(r"^\s*\|\s+\|\s+\|\s+(Enabled|Disabled|N/A)\s*\|$")
LIST_GPU = re.compile(r"^\s*GPU (\d+): (.+?) \(UUID: (GPU-[0-9a-fA-F-]+)\)")
Q_DRIVER = re.compile(r"^\s*(?:Driver|KMD) Version\s*:\s*([\d.]+)")
Q_CUDA = re.compile(r"^\s*CUDA(?: UMD)? Version\s*:\s*([\d.]+)")
Q_PRODUCT = re.compile(r"^\s*Product Name\s*:\s*(.+)$")


MARKS = (
    "nvidia-smi",
    "driver version",
    "kmd version",
    "product name",
    "(uuid: gpu-",
    "cpu affinity",
    "<nvidia_smi_log",
)


def read(section: Section, matrix: Index) -> Partial:
    partial = Partial(NAME)
    if not any(mark in section.lowered for mark in MARKS):
        return partial
    if "<nvidia_smi_log" in section.lowered:
        _xml(partial, section)
        return partial
    _driver(partial, section)
    gpus = _table(section) or _listing(section) or _query(section)
    if gpus:
        partial.add(GPUS, gpus[0], section, gpus[1])
    if any("CPU Affinity" in line for line in section.lines):
        try:
            topology = smi.topology_from_text(section.text)
        except smi.SmiParseError:
            pass  # a partial or mangled paste: the other facts still count
        else:
            line = next(i for i, text in enumerate(section.lines) if "CPU Affinity" in text)
            partial.add(TOPOLOGY, topology, section, line, source="nvidia-smi topo -m")
    return partial


def _driver(partial: Partial, section: Section) -> None:
    for index, line in enumerate(section.lines if "nvidia-smi " in section.lowered else ()):
        if match := HEADER.search(line):
            cuda = match.group(3) if match.group(3) and match.group(3) != "N/A" else None
            partial.add(DRIVER, DriverInfo(version=match.group(2), cuda_max=cuda), section, index)
            return
    driver = cuda = None
    first = -1
    if " version" not in section.lowered or ":" not in section.text:
        return
    for index, line in enumerate(section.lines):
        if "Version" not in line:
            continue
        if (match := Q_DRIVER.match(line)) and driver is None:
            driver, first = match.group(1), index
        elif (match := Q_CUDA.match(line)) and cuda is None:
            cuda = match.group(1)
    if driver:
        partial.add(DRIVER, DriverInfo(version=driver, cuda_max=cuda), section, first, source="nvidia-smi -q")


def _table(section: Section) -> tuple[list[Gpu], int] | None:
    gpus: list[Gpu] = []
    first = -1
    lines = section.lines
    for index, line in enumerate(lines):
        match = TABLE_GPU.match(line) if line.lstrip().startswith("|") else None
        if not match:
            continue
        first = index if first < 0 else first
        memory = TABLE_MEMORY.search(lines[index + 1]) if index + 1 < len(lines) else None
        mig = TABLE_MIG.match(lines[index + 2]) if index + 2 < len(lines) else None
        gpus.append(
            Gpu(
                index=int(match.group(1)),
                name=_untruncated(match.group(2)),
                pci_bus_id=match.group(4),
                persistence={"On": True, "Off": False}.get(match.group(3)),
                # On Windows the column holds the driver model instead (header "TCC/WDDM", "Driver-Model" from 560).
                driver_model=match.group(3) if match.group(3) in ("WDDM", "TCC") else None,
                memory_mib=int(memory.group(1)) if memory else None,
                mig_mode={"Enabled": True, "Disabled": False}.get(mig.group(1)) if mig else None,
            )
        )
    return (gpus, first) if gpus else None


def _untruncated(name: str) -> str:
    # The table cuts long names to "NVIDIA GeForce RTX 4060 ..."; keep what is there.
    return name.rstrip(". ").strip()


def _listing(section: Section) -> tuple[list[Gpu], int] | None:
    if "(uuid: gpu-" not in section.lowered:
        return None
    found = [(i, LIST_GPU.match(line)) for i, line in enumerate(section.lines)]
    gpus = [(i, m) for i, m in found if m]
    if not gpus:
        return None
    return [Gpu(index=int(m.group(1)), name=m.group(2), uuid=m.group(3)) for _, m in gpus], gpus[0][0]


def _query(section: Section) -> tuple[list[Gpu], int] | None:
    if "product name" not in section.lowered:
        return None
    products = [(i, m.group(1).strip()) for i, line in enumerate(section.lines) if (m := Q_PRODUCT.match(line))]
    if not products:
        return None
    models = smi.driver_models_from_query(section.lines)
    gpus = [Gpu(index=n, name=name, driver_model=models.get(n)) for n, (_, name) in enumerate(products)]
    return gpus, products[0][0]


def _xml(partial: Partial, section: Section) -> None:
    """`nvidia-smi -q -x`, whole or cut short, read by the collector's own parser."""
    line = next(i for i, text in enumerate(section.lines) if "<nvidia_smi_log" in text.lower())
    try:
        driver, gpus = smi.driver_from_xml(section.text), smi.gpus_from_xml(section.text)
    except smi.SmiParseError:
        return  # not the XML it seemed, or cut before the driver version
    if driver.version:
        partial.add(DRIVER, driver, section, line, source="nvidia-smi -q -x")
    if gpus:
        partial.add(GPUS, gpus, section, line, source="nvidia-smi -q -x")
