"""Ordinary issues that once fell through: a two-word issue, a NUL in a title. Each is triaged, never parked.

Run on SQLite and on PostgreSQL (skipped with the reason when ENVTRIAGE_TEST_POSTGRES's server is not there).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.diagnosis.config import RepoConfig
from tests.bot.harness import REPO, Running, bot_comments, broken_report, opened, running, settings_for
from tests.fakegithub import FakeGitHub
from tests.servers import postgres_url  # noqa: F401 - fixture


@pytest.fixture(params=["sqlite", "postgresql"])
def service(request: pytest.FixtureRequest, fake: FakeGitHub, tmp_path: Path) -> Iterator[Running]:
    settings = settings_for(fake, tmp_path / "bot.db")
    if request.param == "postgresql":
        settings = settings_for(fake, tmp_path / "unused.db", database_url=request.getfixturevalue("postgres_url"))
    for started in running(settings, fake):
        yield started
        started.store.engine.dispose()


def deliver(service: Running, fake: FakeGitHub, title: str, body: str) -> None:
    fake.add_issue(REPO, number=1, title=title, body=body)
    assert service.send("issues", opened(body, title=title)).status_code == 202
    service.settle()


def test_a_two_word_issue_is_asked_for_a_report(service: Running, fake: FakeGitHub) -> None:
    """Title "bug", body "help": nothing for the duplicate index to post it under."""
    deliver(service, fake, "bug", "help")
    assert service.store.counts() == {"done": 1}, [d.last_error for d in service.store.dead()]
    [comment] = bot_comments(fake)
    assert RepoConfig().collector_command in str(comment["body"]) and fake.labels_on(REPO, 1) == ["needs-env"]


def test_a_nul_in_the_title_and_the_body_is_triaged(service: Running, fake: FakeGitHub) -> None:
    body = broken_report().replace("\n", "\n\x00", 3)
    deliver(service, fake, "CUDA\x00 not available\x00", body)
    assert service.store.counts() == {"done": 1}, [d.last_error for d in service.store.dead()]
    assert fake.labels_on(REPO, 1) == ["env: gpus-hidden-by-env"] and len(bot_comments(fake)) == 1
