"""A retry is taken at its time, not sooner: Retry-After (and backoff) hold across sweeps, polls and wake-ups.

The worker's clock is a fake one moved by hand; the retry's time is what the database stores. On SQLite, and on
PostgreSQL where it runs (skipped with the reason otherwise).
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot.diagnosis.matrix import Index
from bot.service.poller import Poller
from bot.service.queue import Queue
from bot.service.store import Delivery, Store, now
from bot.service.worker import Processor, Retry
from tests.bot.harness import REPO, bot_comments, broken_report, opened, settings_for
from tests.fakegithub import FakeGitHub
from tests.servers import postgres_url, redis_url  # noqa: F401 - fixtures

ISSUE_GET = r"/issues/1$"


class Clock:
    def __init__(self) -> None:
        self.at = now()

    def __call__(self) -> datetime:
        return self.at

    def move(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'bot.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def worker(fake: FakeGitHub, tmp_path: Path, database: str, matrix: Index) -> Iterator[Processor]:
    settings = replace(settings_for(fake, tmp_path / "unused.db"), database_url=database)
    store = Store(database)
    store.create()
    yield Processor(settings, store, matrix, clock=Clock())
    store.engine.dispose()


def clock_of(worker: Processor) -> Clock:
    assert isinstance(worker.clock, Clock)
    return worker.clock


def deliver(store: Store, number: int = 1) -> None:
    store.record(Delivery(str(uuid.uuid4()), "issues", "opened", REPO, number, None, opened(broken_report(), number)))


def rate_limited(worker: Processor, fake: FakeGitHub, retry_after: int) -> None:
    """Issue 1's first triage meets a 429 with this Retry-After."""
    fake.add_issue(REPO, number=1, body=broken_report())
    fake.too_many_requests_next(1, retry_after=retry_after, method="GET", path_regex=ISSUE_GET)
    deliver(worker.store)
    with pytest.raises(Retry) as retry:
        worker.process(REPO, 1)
    assert retry.value.delay == retry_after


@pytest.mark.parametrize("retry_after", [120, 86_400])
def test_a_retry_after_beyond_the_minute_sweep_is_honoured(worker: Processor, fake: FakeGitHub,
                                                           retry_after: int) -> None:  # fmt: skip
    rate_limited(worker, fake, retry_after)
    clock, calls = clock_of(worker), len(fake.calls)
    start = clock.at  # the 429's time
    for elapsed in [t for t in (60, 119, 3600, retry_after - 1) if t < retry_after]:
        clock.at = start + timedelta(seconds=elapsed)  # the minute sweeps before its time
        assert Queue(worker.settings, None).sweep(worker.store, clock.at) == 0, f"woken at {elapsed} s"
        assert worker.store.due_issues(clock.at) == []
        assert worker.process(REPO, 1).outcome == "nothing", "a woken-early task leaves it to its time"
    assert len(fake.calls) == calls and bot_comments(fake) == [], "GitHub was not asked before its time"
    clock.at = start + timedelta(seconds=retry_after + 1)
    assert worker.store.due_issues(clock.at) == [(REPO, 1)]
    assert worker.process(REPO, 1).outcome == "done" and len(bot_comments(fake)) == 1
    assert worker.store.counts() == {"done": 1}


def test_a_new_delivery_is_taken_at_once_beside_a_deferred_one(worker: Processor, fake: FakeGitHub) -> None:
    rate_limited(worker, fake, 120)
    fake.add_issue(REPO, number=2, body=broken_report())
    deliver(worker.store, 2)
    clock_of(worker).move(60)
    assert worker.store.due_issues(worker.clock()) == [(REPO, 2)]


def test_backoff_after_a_failure_is_kept_in_the_database(worker: Processor, fake: FakeGitHub) -> None:
    worker = replace_settings(worker, retry_base_seconds=100.0)
    fake.add_issue(REPO, number=1, body=broken_report())
    fake.fail_next(1, status=502, method="GET", path_regex=ISSUE_GET)
    deliver(worker.store)
    with pytest.raises(Retry) as retry:
        worker.process(REPO, 1)
    assert retry.value.delay == 100.0
    clock_of(worker).move(99)
    assert worker.process(REPO, 1).outcome == "nothing"
    clock_of(worker).move(2)
    assert worker.process(REPO, 1).outcome == "done"


def replace_settings(worker: Processor, **changes: float) -> Processor:
    worker.settings = replace(worker.settings, **changes)
    return worker


def test_the_database_queue_takes_a_deferred_issue_only_when_due(worker: Processor, fake: FakeGitHub) -> None:
    """The embedded worker's loop (no Redis): it polls every few milliseconds, and still waits for the time."""
    rate_limited(worker, fake, 120)
    clock, calls = clock_of(worker), len(fake.calls)
    stop = threading.Event()
    loop = threading.Thread(target=Poller(worker, threads=2, idle=0.01).run, args=(stop,))
    loop.start()
    try:
        clock.move(60)
        time.sleep(0.5)  # some fifty polls
        assert len(fake.calls) == calls and worker.store.counts() == {"pending": 1}
        clock.move(61)
        deadline = time.monotonic() + 15
        while worker.store.counts() != {"done": 1} and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
        loop.join(15)
    assert worker.store.counts() == {"done": 1} and len(bot_comments(fake)) == 1


def test_the_sweep_on_redis_wakes_only_the_issues_that_are_due(fake: FakeGitHub, tmp_path: Path,
                                                                redis_url: str) -> None:  # noqa: F811  # fmt: skip
    database = f"sqlite:///{tmp_path / 'bot.db'}"
    settings = replace(settings_for(fake, tmp_path / "bot.db"), queue_url=redis_url, database_url=database)
    store = Store(database)
    store.create()
    deliver(store, 1)
    deliver(store, 2)
    start = now()
    store.defer([delivery.seq for delivery in store.pending(REPO, 1)], start + timedelta(seconds=120))
    queue = Queue(settings, None)
    assert queue.huey is not None
    queue.huey.flush()
    assert queue.sweep(store, start + timedelta(seconds=60)) == 1 and queue.huey.pending_count() == 1
    queue.huey.flush()
    assert queue.sweep(store, start + timedelta(seconds=121)) == 2 and queue.huey.pending_count() == 2
    queue.huey.flush()
