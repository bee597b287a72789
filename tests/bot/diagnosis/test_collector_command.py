"""The command a repository tells reporters to run (its collector_command) reaches the needs-env comment, and only
there: the ask is a block of code to copy, with collect_env as the fallback, and no finding names a command."""

from __future__ import annotations

import json
import re
from functools import cache

import pytest

from bot.diagnosis.config import FALLBACK_COMMAND, RepoConfig, default_command, parse
from bot.diagnosis.matrix import Index
from bot.diagnosis.plan import Plan, triage
from bot.diagnosis.render import MARKER
from tests.bot import github_markdown
from tests.bot.corpus import load
from tests.conftest import fixture_text

RELEASE = default_command("acme/envtriage")


@cache
def no_report_issue() -> tuple[str, str]:
    """A real issue the thread left without any environment (tune split only: the test split stays unseen)."""
    [issue] = [i for i in load("tune") if i.url == "https://github.com/NVIDIA/nvidia-docker/issues/988"]
    return issue.body, issue.title


def triaged(matrix: Index, command: str | None, body: str, title: str) -> Plan:
    config = RepoConfig() if command is None else parse(f"collector_command: {json.dumps(command)}\n")
    return triage(matrix, body, title, config=config)


def fenced(comment: str) -> list[str]:
    """The bodies of the comment's fenced blocks."""
    return [body for _, body in re.findall(r"^(`{3,})\n(.*?)\n\1$", comment, re.M | re.S)]


def test_the_configured_command_is_the_ask_with_collect_env_as_the_fallback(matrix: Index) -> None:
    plan = triaged(matrix, RELEASE, *no_report_issue())
    comment = plan.comment or ""
    assert plan.needs_env and fenced(comment) == [RELEASE]
    assert f"Where it cannot run, paste the output of `{FALLBACK_COMMAND}` and `nvidia-smi` instead." in comment
    assert "python -m collector" not in comment and "pip install" not in comment


def test_by_default_the_ask_is_collect_env_and_nvidia_smi(matrix: Index) -> None:
    comment = triaged(matrix, None, *no_report_issue()).comment or ""
    assert fenced(comment) == [RepoConfig().collector_command]
    if RepoConfig().collector_command == FALLBACK_COMMAND:
        assert "Paste the output of `nvidia-smi` too." in comment and "Where it cannot run" not in comment


def test_no_finding_names_a_command_the_repository_may_have_replaced(matrix: Index) -> None:
    """The findings are worded before the repository's settings are known (and printed by `python -m bot triage`):
    what to run is said once, by the comment, from the settings."""
    plan = triaged(matrix, "python envtriage-collect.pyz > env.md", *no_report_issue())
    for finding in plan.findings:
        assert "collect_env" not in finding.fix and "python -m" not in finding.fix, finding


def test_a_usable_report_is_not_asked_for_again(matrix: Index) -> None:
    plan = triaged(matrix, RELEASE, fixture_text("h200-1gpu", "broken-cvd-empty.md"), "CUDA not available")
    assert not plan.needs_env and plan.comment and RELEASE not in plan.comment


@pytest.mark.parametrize(
    "command",
    [
        "python c.pyz ``` @octocat <img src=x> [x](https://evil.example)",  # a fence and markup in the command
        "echo `id` && python c.pyz > env.md <!-- envtriage:comment -->",
    ],
)
def test_a_command_is_shown_as_code_whatever_it_holds(matrix: Index, command: str) -> None:
    comment = triaged(matrix, command, *no_report_issue()).comment or ""
    assert fenced(comment) == [command]
    assert github_markdown.live(comment, MARKER) == []


def test_a_repository_that_turns_the_comment_off_gets_the_label_alone(matrix: Index) -> None:
    body, title = no_report_issue()
    plan = triage(matrix, body, title, config=parse(f"comment: false\ncollector_command: {json.dumps(RELEASE)}\n"))
    assert "needs-env" in plan.labels and plan.comment is None
