"""The collector on a real 2xH200 host: its topology, NVLink, P2P and NCCL readings agree with nvidia-smi from
the same machine, pair by pair, and the diagnosis finds nothing wrong with a healthy multi-GPU report."""

from __future__ import annotations

import re

import pytest

from bot.diagnosis.matrix import default as default_matrix
from bot.diagnosis.plan import triage
from collector import markdown
from collector.markdown import MAX_CHARS
from collector.parsers.smi import topology_from_text
from collector.report.model import Fact, from_json
from collector.report.schema import GPUS, SMOKE_MATMUL, SMOKE_NCCL, SMOKE_P2P, TOPOLOGY, TORCH
from tests.conftest import captured_output, fixture_text

HOST = "h200-2gpu"


@pytest.fixture(params=["collector", "collector-deep"])
def name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_markdown_and_json_agree_and_fit_an_issue(name: str) -> None:
    text = fixture_text(HOST, f"{name}.md")
    md, js = markdown.parse(text), from_json(fixture_text(HOST, f"{name}.json"))
    assert md.get(TOPOLOGY) == js.get(TOPOLOGY) and md.get(GPUS) == js.get(GPUS)
    assert len(text) <= MAX_CHARS


def test_every_gpu_pair_matches_nvidia_smi(name: str) -> None:
    topology = markdown.parse(fixture_text(HOST, f"{name}.md")).get(TOPOLOGY)
    smi = topology_from_text(captured_output(HOST, "nvidia-smi-topo.txt"))
    assert topology is not None and topology.gpus == smi.gpus == ["GPU0", "GPU1"]
    for i in range(2):
        for j in range(2):
            assert topology.matrix[i][j] == smi.matrix[i][j], (i, j)
    assert topology.cpu_affinity == smi.cpu_affinity
    p2p_rows = [line.split() for line in captured_output(HOST, "nvidia-smi-topo-p2p.txt").splitlines()]
    smi_p2p = [row[1:3] for row in p2p_rows if row and row[0] in ("GPU0", "GPU1")]
    assert topology.p2p == smi_p2p == [["X", "OK"], ["OK", "X"]]


def test_nvlink_counts_match_nvlink_s(name: str) -> None:
    topology = markdown.parse(fixture_text(HOST, f"{name}.md")).get(TOPOLOGY)
    per_gpu = re.split(r"^GPU \d+:", captured_output(HOST, "nvidia-smi-nvlink.txt"), flags=re.M)[1:]
    active = [len(re.findall(r"Link \d+: [\d.]+ GB/s", block)) for block in per_gpu]
    assert topology is not None and [state.links_up for state in topology.nvlink] == active == [18, 18]


def test_the_deep_smoke_tests_ran_on_both_gpus() -> None:
    report = from_json(fixture_text(HOST, "collector-deep.json"))
    nccl, p2p, matmul = report.facts[SMOKE_NCCL.name], report.facts[SMOKE_P2P.name], report.facts[SMOKE_MATMUL.name]
    assert isinstance(nccl, Fact) and nccl.value.passed and "2 rank(s): sum correct" in nccl.value.detail
    assert nccl.value.metrics["busbw_gbps"] > 50, "NVLink, not a fallback through the host"
    assert isinstance(p2p, Fact) and p2p.value.passed and p2p.value.detail.count("peer=yes copy=ok") == 2
    assert isinstance(matmul, Fact) and matmul.value.passed and "2 GPU(s)" in matmul.value.detail
    torch = report.get(TORCH)
    assert torch is not None and torch.device_count == 2


def test_a_healthy_two_gpu_report_draws_no_error() -> None:
    plan = triage(default_matrix(), fixture_text(HOST, "collector-deep.md"), "question about NCCL settings")
    assert [f.id for f in plan.findings if f.severity == "error"] == []
    assert plan.labels == []
