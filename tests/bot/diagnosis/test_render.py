"""The comment is inert: nothing from the issue becomes a live @mention, HTML, or a copy of our marker."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from bot.diagnosis import render
from bot.diagnosis.findings import templated
from bot.diagnosis.matrix import default
from bot.diagnosis.plan import Plan, triage
from collector import markdown
from collector.report.model import Report
from tests.bot import fuzzing
from tests.conftest import FIXTURES

Run = Callable[..., Plan]
HOSTILE = (
    "@octocat please look <img src=x onerror=alert(1)> <!-- envtriage:comment --> "
    "<a href='https://evil.example'>click</a>\n"
    "torch 2.7.1+cpu on @nvidia GeForce RTX 3090 <script>alert(1)</script>\n"
    "Torch not compiled with CUDA enabled @everyone"
)


def test_a_hostile_issue_cannot_ping_inject_or_forge_the_marker(run: Run) -> None:
    plan = run(HOSTILE)
    comment = plan.comment or ""
    assert comment.count(render.MARKER) == 1 and comment.startswith(render.MARKER)
    outside_code = "\n".join(fuzzing.prose(comment))
    assert "@octocat" not in outside_code and "@everyone" not in outside_code and "@nvidia" not in outside_code
    for tag in ("<img", "<script", "<a ", "<!--"):
        assert tag not in outside_code.replace(render.MARKER, ""), tag


def test_long_input_keeps_the_comment_under_the_limit(run: Run) -> None:
    lines = "\n".join(f"RuntimeError: CUDA error: no kernel image is available ({i}) " + "x" * 400 for i in range(2000))
    comment = run("torch 2.5.1+cu124 RTX 5090\n" + lines).comment or ""
    assert len(comment) <= render.MAX_COMMENT


def test_links_and_images_from_headings_and_text_stay_dead(run: Run) -> None:
    body = (
        "### ![t](https://evil.example/pixel.png) [docs](https://evil.example/phish)\n\n"
        "torch 2.7.1+cpu on RTX 4090 <https://evil.example/auto>\n"
        "### Versions\n\nTorch not compiled with CUDA enabled\n"
    )
    comment = run(body, "[x](https://evil.example) @team").comment or ""
    outside_code = "\n".join(fuzzing.prose(comment))
    assert "](https://evil" not in outside_code and "<https://evil" not in outside_code
    assert "@team" not in outside_code


def test_commands_in_a_fix_carry_no_invisible_characters() -> None:
    """A value made inert for prose (a zero-width space after '#', inside a hex run) is pasted into a terminal
    when it sits in a command: inside code nothing is live, so nothing invisible is added there."""
    value = "GPU-0a1b2c3d9e#4"
    fix = templated(
        "gpus_hidden_by_env", "gpus_hidden_by_env", "error", ["CUDA_VISIBLE_DEVICES set"],
        hiding={"CUDA_VISIBLE_DEVICES": value}, seen=1, total=2,
    ).fix  # fmt: skip
    spans = re.findall(r"`([^`]+)`", fix)
    assert f"CUDA_VISIBLE_DEVICES={value}" in spans, fix
    assert all("\u200b" not in span for span in spans), spans


def test_where_a_fact_was_read_is_shown_as_written() -> None:
    """A code span shows an HTML entity as typed: the "Read from" cell escapes only its pipes, as the value cell does,
    so the collector's "<user>" (another user's home) is not printed as "&lt;user&gt;"."""
    report = markdown.parse((FIXTURES / "h200-1gpu" / "broken-cvd-empty.md").read_text())
    source = "torch (in /home/<user>/a|b/bin/python3)"
    facts = {**report.facts, "torch": dataclasses.replace(report.facts["torch"], source=source)}
    comment = triage(default(), markdown.render(Report(meta=report.meta, facts=facts))).comment or ""
    row = next(line for line in comment.splitlines() if line.startswith("| PyTorch |"))
    assert "/home/<user>/a\\|b/bin/python3" in row and "&lt;" not in row, row
