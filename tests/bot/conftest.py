"""Shared bits for the bot's tests: the packaged matrix, a triage shortcut, the service on the fake GitHub."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.diagnosis.matrix import Index
from bot.diagnosis.matrix import default as default_matrix
from bot.diagnosis.plan import Plan, triage
from tests.bot.harness import REPO, Running, running, settings_for
from tests.fakegithub import FakeGitHub


@pytest.fixture(scope="session")
def matrix() -> Index:
    return default_matrix()


@pytest.fixture
def run(matrix: Index):  # type: ignore[no-untyped-def]
    def go(body: str, title: str = "", comments: tuple[str, ...] = ()) -> Plan:
        return triage(matrix, body, title, comments)

    return go


@pytest.fixture
def fake(fake_github: FakeGitHub) -> FakeGitHub:
    """The shared fake GitHub with the example payloads' repository."""
    fake_github.add_repo(REPO)
    return fake_github


@pytest.fixture
def bot(fake: FakeGitHub, tmp_path: Path) -> Iterator[Running]:
    """The webhook service, its embedded worker and a fresh SQLite database, talking to `fake`."""
    yield from running(settings_for(fake, tmp_path / "bot.db"), fake)
