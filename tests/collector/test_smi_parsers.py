"""nvidia-smi parsers on real captured output and on the shapes users paste."""

from __future__ import annotations

import pytest

from collector.parsers import smi
from collector.report.schema import DriverInfo
from tests.conftest import captured_output, fixture_text

TOPO_4_GPU_WITH_NICS = """\
\tGPU0\tGPU1\tGPU2\tGPU3\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID
GPU0\t X \tNV12\tSYS\tSYS\tPIX\t0-23\t0\t\tN/A
GPU1\tNV12\t X \tSYS\tSYS\tPXB\t0-23\t0\t\tN/A
GPU2\tSYS\tSYS\t X \tNV12\tSYS\t24-47\t1\t\tN/A
GPU3\tSYS\tSYS\tNV12\t X \tSYS\t24-47\t1\t\tN/A
NIC0\tPIX\tPXB\tSYS\tSYS\t X \t\t\t\t

Legend:
  X    = Self
"""


def test_topology_strips_ansi_and_reads_affinity() -> None:
    topo = smi.topology_from_text(captured_output("h200", "nvidia-smi-topo.txt"))
    assert topo.matrix == [["X", "NV18"], ["NV18", "X"]]
    assert topo.numa_affinity == ["0", "0"]


def test_topology_leaves_nic_rows_and_columns_out() -> None:
    topo = smi.topology_from_text(TOPO_4_GPU_WITH_NICS)
    assert topo.gpus == ["GPU0", "GPU1", "GPU2", "GPU3"]
    assert topo.matrix[0] == ["X", "NV12", "SYS", "SYS"]
    assert topo.cpu_affinity == ["0-23", "0-23", "24-47", "24-47"]


def test_topology_survives_tabs_turned_into_spaces() -> None:
    pasted = TOPO_4_GPU_WITH_NICS.replace("\t", "    ")
    assert smi.topology_from_text(pasted).matrix[2] == ["SYS", "SYS", "X", "NV12"]


@pytest.mark.parametrize("text", ["", "GPU0 GPU1\nnothing", "<nvidia_smi_log><gpu>"])
def test_garbage_raises_parse_error(text: str) -> None:
    with pytest.raises(smi.SmiParseError):
        smi.topology_from_text(text)
    with pytest.raises(smi.SmiParseError):
        smi.gpus_from_xml(text)


def test_xml_gpus_and_driver() -> None:
    xml = captured_output("h200", "nvidia-smi-qx.txt")
    gpus = smi.gpus_from_xml(xml, {"00000000:00:06.0": "9.0"})
    assert [g.pci_bus_id for g in gpus] == ["00000000:00:06.0", "00000000:00:07.0"]
    assert gpus[0].cc == "9.0" and gpus[1].cc is None
    assert gpus[0].architecture == "Hopper" and gpus[0].pcie_max_width == 16
    assert smi.driver_from_xml(xml).cuda_max == "13.0"


def test_cuda_umd_version_label_is_accepted() -> None:
    xml = "<nvidia_smi_log><driver_version>610.43.03</driver_version><cuda_umd_version>13.3</cuda_umd_version>"
    assert smi.driver_from_xml(xml + "</nvidia_smi_log>").cuda_max == "13.3"


def test_windows_xml_cut_short_keeps_what_came_before_the_cut() -> None:
    xml = fixture_text("windows", "nvidia-smi-q-x-wddm-531.xml")  # ends mid-tag: "<board_"
    (gpu,) = smi.gpus_from_xml(xml)
    assert (gpu.name, gpu.driver_model, gpu.architecture) == ("NVIDIA GeForce RTX 3080 Ti", "WDDM", "Ampere")
    assert gpu.persistence is None, "Windows says N/A: there is no persistence mode under WDDM"
    assert gpu.memory_mib is None, "fb_memory_usage comes after the cut"
    assert smi.driver_from_xml(xml) == DriverInfo(version="531.41", cuda_max="12.1")


def test_xml_cut_before_the_driver_version_is_refused() -> None:
    xml = fixture_text("windows", "nvidia-smi-q-x-wddm-531.xml")
    with pytest.raises(smi.SmiParseError, match="before the driver version"):
        smi.gpus_from_xml(xml[: xml.index("<driver_version>")])


def test_linux_xml_has_no_driver_model() -> None:
    assert [g.driver_model for g in smi.gpus_from_xml(captured_output("h200", "nvidia-smi-qx.txt"))] == [None, None]


def test_driver_model_from_q_text() -> None:
    wsl = fixture_text("windows", "nvidia-smi-a-wsl2-wddm.txt").splitlines()
    assert smi.driver_models_from_query(wsl) == {0: "WDDM"}
    # Windows process names and "Not available in WDDM driver model" are not a driver model field.
    processes = fixture_text("windows", "nvidia-smi-q-processes-wddm.txt").splitlines()
    assert smi.driver_models_from_query(processes) == {}
