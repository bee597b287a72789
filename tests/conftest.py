"""Shared fixtures: captured real outputs (tests/fixtures) and the one fake GitHub server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from collector.run import CommandResult
from tests.fakegithub import fake_github  # noqa: F401 - the shared fake GitHub, as a fixture

FIXTURES = Path(__file__).parent / "fixtures"


def fixture_text(*parts: str) -> str:
    return FIXTURES.joinpath(*parts).read_text(encoding="utf-8")


def captured(*parts: str) -> CommandResult:
    """A command output captured on a real machine: "$ command" first, "[rc=N]" last, the output between."""
    lines = fixture_text(*parts).splitlines(keepends=True)
    command = lines[0].removeprefix("$ ").strip()
    match = re.fullmatch(r"\[rc=(\d+)\]\s*", lines[-1])
    body = lines[1:-1] if match else lines[1:]
    return CommandResult(
        argv=tuple(command.split()),
        returncode=int(match.group(1)) if match else 0,
        stdout="".join(body),
        stderr="",
        seconds=0.01,
    )


def captured_output(*parts: str) -> str:
    return captured(*parts).stdout


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES
