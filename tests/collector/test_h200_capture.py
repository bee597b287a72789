"""The collector's own reports captured on a real H200 agree with nvidia-smi and torch from the same run."""

from __future__ import annotations

import csv
import io
import re

import pytest

from collector import markdown
from collector.report.model import Fact, from_json
from collector.report.schema import DRIVER, GPUS, LIBRARIES, SMOKE_FP8, SMOKE_MATMUL, SMOKE_SDPA, TOPOLOGY, TORCH
from tests.conftest import captured_output, fixture_text

H200 = "h200-1gpu"


@pytest.fixture(params=["collector", "collector-no-smoke", "collector-deep"])
def report_name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_markdown_and_json_are_the_same_report(report_name: str) -> None:
    md = markdown.parse(fixture_text(H200, f"{report_name}.md"))
    js = from_json(fixture_text(H200, f"{report_name}.json"))
    assert md.get(TORCH) and js.get(TORCH)
    assert md.get(DRIVER) == js.get(DRIVER) and md.get(GPUS) == js.get(GPUS)


def test_agrees_with_nvidia_smi_and_torch(report_name: str) -> None:
    report = from_json(fixture_text(H200, f"{report_name}.json"))
    smi = captured_output(H200, "nvidia-smi.txt")
    query = list(csv.DictReader(io.StringIO(captured_output(H200, "nvidia-smi-query.txt")), skipinitialspace=True))
    driver, gpus, torch = report.get(DRIVER), report.get(GPUS), report.get(TORCH)
    assert driver and gpus and torch
    assert f"Driver Version: {driver.version}" in smi and f"CUDA Version: {driver.cuda_max}" in smi
    assert [g.cc for g in gpus] == [row["compute_cap"] for row in query]
    assert [f"{g.memory_mib} MiB" for g in gpus] == [row["memory.total [MiB]"] for row in query]
    assert [g.name for g in gpus] == [row["name"] for row in query]
    versions = captured_output(H200, "versions.txt").splitlines()[1].split(" ", 2)
    assert torch.version == versions[0]
    cudnn_number, nccl_tuple = re.match(r"(\d+) \((.*)\)", versions[2]).groups()  # type: ignore[union-attr]
    assert torch.cudnn == "9.19.0" and cudnn_number == "91900"
    assert torch.nccl == ".".join(part.strip() for part in nccl_tuple.split(","))
    assert torch.device_count == len(gpus) and torch.devices[0].cc == gpus[0].cc


def test_topology_agrees_with_topo_m() -> None:
    report = from_json(fixture_text(H200, "collector.json"))
    topo = report.get(TOPOLOGY)
    assert topo and topo.matrix == [["X"]]
    assert "GPU0\t X \t0-15\t0" in captured_output(H200, "nvidia-smi-topo.txt")
    assert topo.cpu_affinity == ["0-15"] and topo.nvlink[0].links_up == 0
    assert captured_output(H200, "nvidia-smi-nvlink.txt").strip() == "", "a lone H200 has no NVLink peers"


def test_loaded_libraries_come_from_the_wheel() -> None:
    libraries = from_json(fixture_text(H200, "collector.json")).get(LIBRARIES) or []
    owners = {lib.name: lib.owner for lib in libraries}
    assert owners["libcudnn"] == "nvidia-cudnn-cu13 9.19.0.56" and owners["libnccl"] == "nvidia-nccl-cu13 2.28.9"
    assert owners["libcuda"] is None, "libcuda is the driver's, from no wheel"


def test_deep_smoke_tests_ran() -> None:
    report = from_json(fixture_text(H200, "collector-deep.json"))
    for key in (SMOKE_MATMUL, SMOKE_FP8, SMOKE_SDPA):
        result = report.result(key)
        assert isinstance(result, Fact) and result.value.passed, key.name
