"""`python -m bot backfill`: existing issues into the index, resumable, rate-limit aware, conditional."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.diagnosis.matrix import default as default_matrix
from bot.insights.backfill import Backfill, Options
from bot.insights.dedupe import DuplicateIndex
from bot.service.store import Store
from bot.service.worker import Processor
from tests.bot.harness import REPO, bot_comments, settings_for
from tests.conftest import FIXTURES
from tests.fakegithub import FakeGitHub

ROOT = Path(__file__).resolve().parents[3]
START = datetime(2025, 1, 1, tzinfo=timezone.utc)


def seed(fake: FakeGitHub, count: int) -> None:
    """Real issue texts from the corpus, one day apart, a few closed, one a pull request."""
    paths = sorted((FIXTURES / "issues" / "real").glob("*.yaml")) + sorted(FIXTURES.glob("duplicates/issues/*.yaml"))
    paths = paths[:count]
    for number, path in enumerate(paths, start=1):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        stamp = (START + timedelta(days=number)).strftime("%Y-%m-%dT%H:%M:%SZ")
        fake.add_issue(REPO, number=number, title=data["title"], body=data["body"] or "", created_at=stamp,
                       state="closed" if number % 7 == 0 else "open")  # fmt: skip
    fake.edit_issue(REPO, count, pull_request={"url": f"https://api.github.com/repos/{REPO}/pulls/{count}"},
                    updated_at=(START + timedelta(days=count)).strftime("%Y-%m-%dT%H:%M:%SZ"))  # fmt: skip


def no_bar(items: Iterable[Any]) -> Iterator[Any]:
    yield from items


class Stop(Exception):
    """The operator pressed Ctrl-C."""


def interrupt_after(n: int) -> Any:
    def progress(items: Iterable[Any]) -> Iterator[Any]:
        for seen, item in enumerate(items):
            if seen == n:
                raise Stop
            yield item

    return progress


@pytest.fixture
def job(fake: FakeGitHub, tmp_path: Path) -> Backfill:
    settings = settings_for(fake, tmp_path / "bot.db")
    store = Store(settings.database_url)
    store.create()
    waits: list[float] = []
    backfill = Backfill(settings, store.engine, default_matrix(), Processor(settings, store, default_matrix()),
                        sleep=waits.append)  # fmt: skip
    backfill.waits = waits  # type: ignore[attr-defined]
    return backfill


def test_loads_every_issue_and_skips_pull_requests(job: Backfill, fake: FakeGitHub) -> None:
    seed(fake, 80)
    summary = job.run(REPO, Options(), no_bar)
    assert (summary.loaded, summary.skipped_pull_requests) == (79, 1)
    assert DuplicateIndex(job.engine).count(REPO) == 79 and fake.write_calls() == []


def test_an_interrupted_run_resumes_where_it_stopped(job: Backfill, fake: FakeGitHub) -> None:
    seed(fake, 120)
    with pytest.raises(Stop):
        job.run(REPO, Options(), interrupt_after(75))
    summary = job.run(REPO, Options(), no_bar)
    assert summary.resumed_from is not None and summary.loaded < 119 - 40, "the first 50 were not loaded again"
    assert DuplicateIndex(job.engine).count(REPO) == 119


def test_the_rate_limit_is_waited_out_and_the_run_completes(job: Backfill, fake: FakeGitHub) -> None:
    seed(fake, 120)
    fake.rate_limited_next(1, reset_in=30, method="GET", path_regex=r"/issues$")
    calls_before = len(fake.calls)
    summary = job.run(REPO, Options(), no_bar)
    assert summary.waited_seconds > 0 and job.waits  # type: ignore[attr-defined]
    assert DuplicateIndex(job.engine).count(REPO) == 119 and len(fake.calls) > calls_before


def test_a_second_run_with_nothing_changed_costs_one_free_request(job: Backfill, fake: FakeGitHub) -> None:
    seed(fake, 40)
    job.run(REPO, Options(), no_bar)
    fake.reset_calls()
    remaining = fake.rate_remaining
    again = job.run(REPO, Options(), no_bar)
    assert again.unchanged and [c.status for c in fake.calls if "/issues" in c.path] == [304]
    assert fake.rate_remaining == remaining
    fake.edit_issue(REPO, 3, body="RuntimeError: CUDA error: no kernel image is available for execution on the device")
    third = job.run(REPO, Options(), no_bar)
    assert not third.unchanged and third.loaded >= 1


def test_triage_comments_on_open_issues_and_dry_run_writes_nothing(fake: FakeGitHub, tmp_path: Path) -> None:
    seed(fake, 12)
    for dry_run in (True, False):
        settings = settings_for(fake, tmp_path / f"{dry_run}.db", dry_run=dry_run)
        store = Store(settings.database_url)
        store.create()
        processor = Processor(settings, store, default_matrix())
        summary = Backfill(settings, store.engine, default_matrix(), processor).run(REPO, Options(triage=True), no_bar)
        assert summary.triaged == 10  # 11 issues, #7 closed
        if dry_run:
            assert fake.write_calls() == []
    assert bot_comments(fake, 1) and not bot_comments(fake, 7)


def test_the_command_line(fake: FakeGitHub, tmp_path: Path) -> None:
    seed(fake, 10)
    env = {**os.environ, "GITHUB_TOKEN": "t", "GITHUB_API_URL": fake.url, "DATABASE_URL": f"sqlite:///{tmp_path}/b.db"}
    run = [sys.executable, "-m", "bot", "backfill"]
    done = subprocess.run([*run, REPO, "--quiet"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"{REPO}: 9 issues loaded into the duplicate index, 1 pull requests skipped." in done.stdout
    again = subprocess.run([*run, REPO, "--quiet"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert "nothing changed since the last backfill" in again.stdout
    bad = subprocess.run([*run, "not-a-repo"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "is not OWNER/REPO" in bad.stderr
    since = subprocess.run([*run, REPO, "--since", "yesterday"], cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=60)  # fmt: skip
    assert since.returncode == 2 and "is not a date" in since.stderr
