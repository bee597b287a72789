"""Driver and GPU probes: NVML first, nvidia-smi -q -x when NVML is unusable, a reason when neither works."""

from __future__ import annotations

import ctypes
from pathlib import Path

from collector.probes import gpus, topology
from collector.report.model import Fact, Missing
from tests.collector.conftest import FakeNvml, FakeRunner, make_context, ok
from tests.conftest import captured, captured_output

SMI_XML = ("nvidia-smi", "-q", "-x")
SMI_CC = ("nvidia-smi", "--query-gpu=pci.bus_id,compute_cap", "--format=csv,noheader")


def test_driver_from_nvml_matches_nvidia_smi(tmp_path: Path, fake_nvml: FakeNvml) -> None:
    result = gpus.driver(make_context(tmp_path, nvml=lambda: fake_nvml))
    assert isinstance(result, Fact) and result.source == "nvml"
    header = captured_output("h200", "nvidia-smi.txt")
    assert f"Driver Version: {result.value.version}" in header
    assert f"CUDA Version: {result.value.cuda_max}" in header


def test_gpus_from_nvml(tmp_path: Path, fake_nvml: FakeNvml) -> None:
    result = gpus.gpus(make_context(tmp_path, nvml=lambda: fake_nvml))
    assert isinstance(result, Fact)
    first = result.value[0]
    assert (first.name, first.cc, first.memory_mib) == ("NVIDIA H200", "9.0", 143771)
    assert first.ecc is True and first.ecc_volatile_uncorrected == 0
    assert first.mig_mode is False and first.persistence is True
    assert (first.pcie_gen, first.pcie_width) == (5, 16)
    assert [gpu.index for gpu in result.value] == [0, 1]


def test_mig_instances_are_listed(tmp_path: Path) -> None:
    nvml = FakeNvml.from_fixture()
    nvml.gpus[0]["mig"] = [1, 1]
    nvml.mig = {0: [("1g.18gb", 16384), ("3g.71gb", 72704)]}
    result = gpus.gpus(make_context(tmp_path, nvml=lambda: nvml))
    assert isinstance(result, Fact)
    assert [(m.profile, m.memory_mib) for m in result.value[0].mig_instances] == [
        ("1g.18gb", 16384),
        ("3g.71gb", 72704),
    ]


def test_falls_back_to_nvidia_smi_xml(tmp_path: Path) -> None:
    runner = FakeRunner(
        {
            SMI_XML: captured("h200", "nvidia-smi-qx.txt"),
            SMI_CC: ok(SMI_CC, "00000000:00:06.0, 9.0\n00000000:00:07.0, 9.0\n"),
        }
    )
    ctx = make_context(tmp_path, runner=runner)
    driver, devices = gpus.driver(ctx), gpus.gpus(ctx)
    assert isinstance(driver, Fact) and driver.value.version == "580.159.04" and driver.value.cuda_max == "13.0"
    assert isinstance(devices, Fact) and devices.source == "nvidia-smi -q -x"
    assert [(g.name, g.cc, g.memory_mib, g.ecc) for g in devices.value] == [("NVIDIA H200", "9.0", 143771, True)] * 2
    assert runner.calls.count(SMI_XML) == 1, "driver and gpus share one nvidia-smi run"


def test_neither_nvml_nor_nvidia_smi_gives_the_reason(tmp_path: Path) -> None:
    result = gpus.driver(make_context(tmp_path))
    assert isinstance(result, Missing)
    assert "NVML Shared Library Not Found" in result.reason and "nvidia-smi not found" in result.reason


def test_nvidia_smi_failure_text_is_kept(tmp_path: Path) -> None:
    failing = ok(SMI_XML, "", returncode=9)
    failing = failing.__class__(
        SMI_XML, 9, "", "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.", 0.01
    )
    result = gpus.gpus(make_context(tmp_path, runner=FakeRunner({SMI_XML: failing})))
    assert isinstance(result, Missing) and "couldn't communicate with the NVIDIA driver" in result.reason


def test_topology_from_nvml_matches_topo_m(tmp_path: Path, fake_nvml: FakeNvml) -> None:
    files = {"/sys/bus/pci/devices/0000:00:06.0/numa_node": "0\n", "/sys/bus/pci/devices/0000:00:07.0/numa_node": "0"}
    result = topology.topology(make_context(tmp_path, files=files, nvml=lambda: fake_nvml))
    assert isinstance(result, Fact)
    from collector.parsers.smi import topology_from_text

    expected = topology_from_text(captured_output("h200", "nvidia-smi-topo.txt"))
    assert result.value.matrix == expected.matrix == [["X", "NV18"], ["NV18", "X"]]
    assert result.value.cpu_affinity == expected.cpu_affinity == ["0-31", "0-31"]
    assert result.value.numa_affinity == ["0", "0"]
    assert result.value.p2p == [["X", "OK"], ["OK", "X"]]
    assert [(link.links_up, link.peers) for link in result.value.nvlink] == [(18, {"GPU1": 18}), (18, {"GPU0": 18})]


def test_topology_falls_back_to_topo_m(tmp_path: Path) -> None:
    runner = FakeRunner({("nvidia-smi", "topo", "-m"): captured("h200", "nvidia-smi-topo.txt")})
    result = topology.topology(make_context(tmp_path, runner=runner))
    assert isinstance(result, Fact) and result.source == "nvidia-smi topo -m"
    assert result.value.gpus == ["GPU0", "GPU1"]


def test_cpu_ranges() -> None:
    assert topology.cpu_ranges([0, 1, 2, 5, 7, 8]) == "0-2,5,7-8"
    assert topology.cpu_ranges([]) == "N/A"


class TupleIndexNvml(FakeNvml):
    """nvidia-ml-py 13.6xx as seen on a 2xH200 host: the P2P index constant is `(0,)`, which ctypes rejects."""

    NVML_P2P_CAPS_INDEX_READ = (0,)  # type: ignore[assignment]

    def nvmlDeviceGetP2PStatus(self, first: int, second: int, index: int) -> int:
        if not isinstance(index, int):
            raise ctypes.ArgumentError("argument 3: TypeError: Don't know how to convert parameter 3")
        return super().nvmlDeviceGetP2PStatus(first, second, index)


def test_topology_survives_nvml_bindings_with_a_tuple_p2p_index(tmp_path: Path) -> None:
    nvml = TupleIndexNvml.from_fixture()
    result = topology.topology(make_context(tmp_path, nvml=lambda: nvml))
    assert isinstance(result, Fact) and result.value.p2p == [["X", "OK"], ["OK", "X"]]
