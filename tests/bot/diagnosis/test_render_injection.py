"""Values from a pasted report's twin are one inert line in the comment, wherever a template prints them.

A twin is JSON, so any value can hold line breaks, Markdown and GitHub references. Each case below puts a hostile
value into one fact, renders the report as the collector does, pastes it into an issue and triages it; the comment
is then parsed by the markdown-it stand-in for GitHub (tests/bot/github_markdown.py): no link, heading, reference,
mention or tag may come out of it, and the value must still be there to read, on one line.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from bot.diagnosis import render
from bot.diagnosis.config import RepoConfig
from bot.diagnosis.inert import ZWSP, one_line
from bot.diagnosis.matrix import Index
from bot.diagnosis.plan import Duplicate, triage
from collector import markdown, templating
from collector.report.model import Fact, Meta, Missing, Report
from collector.report.schema import (
    DRIVER,
    GPUS,
    LIBRARY_COPIES,
    PACKAGES,
    RUNTIME,
    TORCH,
    DriverInfo,
    Gpu,
    LibraryCopy,
    Package,
    Packages,
    Runtime,
    TorchInfo,
)
from tests.bot import github_markdown

SHA = "3f786850e387550fdab836ed7e6dc881de23001b"
HOSTILE = (
    "\n\n[x]: https://evil.example/phish\n\n[x] [y]\n"  # a link reference definition, and its use
    "# Heading\r\n## Heading two\u2028### three\u0085#### four\u2029"  # headings after every kind of line break
    f"#1 acme/other#2 GH-3 {SHA} \u202eevil\u202c \u200bok\u2066x\u2069 @octocat"
)
READABLE = one_line(HOSTILE)  # what must still be there, on one line


def torch_cuda(version: str = "2.6.0+cu124", **extra: Any) -> TorchInfo:
    return TorchInfo(version=version, tag=version.split("+")[1], cuda="12.4", build="cuda", **extra)


def gpu_name() -> dict[str, Any]:
    """gpu_arch_unsupported: "torch ... has no sm_120 kernels for the <GPU name> ..." (title)."""
    return {
        TORCH.name: Fact(torch_cuda("2.6.0+cu118", available=True, arch_list=["sm_50", "sm_80"]), "torch"),
        GPUS.name: Fact([Gpu(0, "NVIDIA GeForce RTX 5090" + HOSTILE, cc="12.0")], "nvidia-smi"),
        DRIVER.name: Fact(DriverInfo(version="570.124.06", cuda_max="12.8"), "nvidia-smi"),
    }


def container() -> dict[str, Any]:
    """container_no_gpu: "The <container> container has no access to the GPU driver" (title and fix)."""
    return {
        TORCH.name: Fact(torch_cuda(available=False), "torch"),
        RUNTIME.name: Fact(Runtime(container="enroot" + HOSTILE), "/proc/1/environ"),
        DRIVER.name: Missing("libcuda.so.1: not found"),
    }


def library_path() -> dict[str, Any]:
    """library_on_ld_path: "LD_LIBRARY_PATH holds another libcudnn (<path>)" (title) and its directory (fix)."""
    copy = LibraryCopy("libcudnn", "/opt/cudnn" + HOSTILE + "/libcudnn.so.9", found_via="LD_LIBRARY_PATH")
    return {
        TORCH.name: Fact(torch_cuda(available=True), "torch"),
        PACKAGES.name: Fact(Packages([Package("nvidia-cudnn-cu12", "9.1.0.70")]), "importlib.metadata"),
        LIBRARY_COPIES.name: Fact([copy], "LD_LIBRARY_PATH"),
    }


def torch_version() -> dict[str, Any]:
    """cpu_only_wheel: "torch <version> is a CPU-only build, but this machine has ..." (title)."""
    torch = TorchInfo(version="2.6.0+cpu" + HOSTILE, tag="cpu", build="cpu", available=False)
    return {TORCH.name: Fact(torch, "torch"), GPUS.name: Fact([Gpu(0, "NVIDIA GeForce RTX 4090")], "nvidia-smi")}


def pasted(facts: dict[str, Any]) -> str:
    return "### 🐛 Describe the bug\n\nNo GPU for torch.\n\n" + markdown.render(Report(Meta("0.1.0"), facts))


def shown_text(comment: str) -> str:
    """What a reader sees: the rendered comment's text, tags dropped, entities decoded, zero-width spaces gone."""
    rendered = github_markdown.parser().render(comment)
    return html.unescape(re.sub(r"<[^>]*>", "", rendered)).replace(ZWSP, "")


@pytest.mark.parametrize(
    ("facts", "rule"),
    [
        (gpu_name, "gpu_arch_unsupported"),
        (container, "container_no_gpu"),
        (library_path, "library_on_ld_path"),
        (torch_version, "cpu_only_wheel"),
    ],
)
def test_a_hostile_twin_value_is_one_inert_line(matrix: Index, facts: Any, rule: str) -> None:
    plan = triage(matrix, pasted(facts()), "CUDA does not work")
    comment = plan.comment or ""
    found = next(f for f in plan.findings if f.id == rule)
    assert READABLE in found.title.replace(ZWSP, "") or READABLE in found.fix.replace(ZWSP, "")
    assert github_markdown.live(comment, render.MARKER) == []
    assert github_markdown.headings(comment) == []
    assert github_markdown.references(comment) == []
    # Still readable, on one line: the title's line holds the whole value, and so does the text a reader sees.
    assert any(READABLE in line.replace(ZWSP, "") for line in comment.splitlines())
    assert READABLE in shown_text(comment)
    assert "\u202e" not in comment and "\u2028" not in comment and "\u0085" not in comment


@pytest.mark.parametrize(
    "value",
    [
        "[x]: https://evil.example/p",
        "[x](https://evil.example/p)",
        "# Heading",
        "#1",
        "acme/other#2",
        "GH-3",
        "gh-3",
        SHA,
        SHA[:7],
        "&#35;1 &num;2",
        "</details><img src=x>",
        "https://github.com/pytorch/../../attacker/x",
        "https://github.com/pytorch/%2e%2e/%2E%2E/attacker/x",
    ],
)
def test_each_example_of_the_report_stays_dead_in_a_gpu_name(matrix: Index, value: str) -> None:
    facts = gpu_name()
    facts[GPUS.name] = Fact([Gpu(0, f"NVIDIA GeForce RTX 5090\n{value}", cc="12.0")], "nvidia-smi")
    comment = triage(matrix, pasted(facts), "CUDA does not work").comment or ""
    assert github_markdown.live(comment, render.MARKER) == []
    assert github_markdown.headings(comment) == [] and github_markdown.references(comment) == []
    assert f"RTX 5090 {value}" in shown_text(comment)


def test_what_duplicates_have_in_common_is_inert(matrix: Index) -> None:
    """A duplicate's evidence quotes the other issue's facts in prose: only our own "#7" is a reference."""
    plan = triage(matrix, pasted(torch_version()), "CUDA does not work")
    quoted = "same error signature: " + templating.code("x``y")  # as templates/dedupe/evidence.txt.j2 quotes
    duplicate = Duplicate(7, 0.9, [f"same torch build (2.6.0{HOSTILE})", quoted])
    comment = render.comment(plan.case, plan.findings, [duplicate], matrix, RepoConfig().collector_command)
    assert github_markdown.live(comment, render.MARKER) == []
    assert github_markdown.headings(comment) == [] and github_markdown.references(comment) == ["#7"]
    assert f"same torch build (2.6.0 {READABLE})" in shown_text(comment)
    assert "`` x`\u200b`y ``" in comment  # the code filter's zero-width space between backticks is kept


def test_facts_table_values_are_one_line(matrix: Index) -> None:
    plan = triage(matrix, pasted(container()), "CUDA does not work")
    row = next(line for line in (plan.comment or "").splitlines() if line.startswith("| Runs in |"))
    assert READABLE.replace("#", "") in row.replace(ZWSP, "").replace("#", "").replace("\\|", "|")
