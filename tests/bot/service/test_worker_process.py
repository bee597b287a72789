"""`python -m bot serve` runs its worker in a process of its own: acknowledgements never wait for a triage, the
worker is started again when it dies (losing nothing), ends with the server, and takes a burst of deliveries for
one issue as one triage."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

import bot.service.worker
from bot.diagnosis.matrix import Index
from bot.diagnosis.plan import read_cleaned
from bot.diagnosis.readers import Case
from bot.diagnosis.render import MARKER
from bot.service.store import Delivery, Store
from bot.service.worker import Processor
from tests.bot.harness import REPO, broken_report, healthy_report, opened, payload, settings_for, signed, wait_until
from tests.bot.processes import alive, bot_env, children, free_port, serving
from tests.fakegithub import FakeGitHub

ISSUES = 20


@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    port: int
    store: Store
    log: Path

    def workers(self) -> list[int]:
        """The worker processes the server says it started, in order."""
        return [int(pid) for pid in re.findall(r"worker process (\d+) started", self.log.read_text())]

    def worker(self) -> int:
        """The current worker: the last one started, a child of the server's."""
        worker = self.workers()[-1]
        assert worker in children(self.proc.pid) and worker != self.proc.pid
        return worker


@contextmanager
def server(fake: FakeGitHub, tmp_path: Path) -> Iterator[Server]:
    port, database, log = free_port(), f"sqlite:///{tmp_path / 'bot.db'}", tmp_path / "serve.log"
    log.unlink(missing_ok=True)
    with serving(bot_env(fake, database), port, log) as proc:
        running = Server(proc, port, Store(database), log)
        wait_until(lambda: running.workers() != [], timeout=15)
        yield running
        running.store.engine.dispose()


def post(port: int, event: str, body: dict[str, object]) -> tuple[int, float]:
    raw, headers = signed(event, body)
    started = time.monotonic()
    answer = httpx.post(f"http://127.0.0.1:{port}/webhook", content=raw, headers=headers, timeout=10)
    return answer.status_code, time.monotonic() - started


def comments(fake: FakeGitHub, number: int) -> int:
    return sum(MARKER in str(c["body"]) for c in fake.comments_on(REPO, number))


def test_acknowledgements_do_not_wait_for_the_worker(fake: FakeGitHub, tmp_path: Path) -> None:
    for number in range(1, ISSUES + 1):
        fake.add_issue(REPO, number=number, body=broken_report())
    with server(fake, tmp_path) as bot:
        worker = bot.worker()
        os.kill(worker, signal.SIGSTOP)  # as if stuck in the longest triage: it holds no lock of the server's
        try:
            answers = [post(bot.port, "issues", opened(broken_report(), number)) for number in range(1, ISSUES + 1)]
            assert {status for status, _ in answers} == {202}
            assert max(seconds for _, seconds in answers) < 1.0, answers
            time.sleep(0.5)
            assert bot.store.counts() == {"pending": ISSUES}, "the triage is the worker's, not the server's"
        finally:
            os.kill(worker, signal.SIGCONT)
        wait_until(lambda: bot.store.counts() == {"done": ISSUES}, timeout=60)
    assert all(comments(fake, number) == 1 for number in range(1, ISSUES + 1))


def test_a_killed_worker_is_started_again_and_loses_nothing(fake: FakeGitHub, tmp_path: Path) -> None:
    fake.add_issue(REPO, number=1, body=broken_report())
    with server(fake, tmp_path) as bot:
        first = bot.worker()
        fake.delay = 30.0  # the worker's GitHub calls hang: the job is in flight when it is killed
        assert post(bot.port, "issues", opened(broken_report()))[0] == 202
        wait_until(lambda: fake.received > 0, timeout=15)
        os.kill(first, signal.SIGKILL)
        fake.delay = 0.0
        wait_until(lambda: len(bot.workers()) == 2, timeout=15)
        assert bot.worker() != first
        wait_until(lambda: bot.store.counts() == {"done": 1}, timeout=30)
        assert post(bot.port, "issues", opened(broken_report()))[0] == 202, "the server never stopped answering"
        wait_until(lambda: bot.store.counts() == {"done": 2}, timeout=30)
    assert comments(fake, 1) == 1 and fake.labels_on(REPO, 1) == ["env: gpus-hidden-by-env"]


def test_a_burst_for_one_issue_is_one_triage_and_one_comment(fake: FakeGitHub, tmp_path: Path) -> None:
    fake.add_issue(REPO, number=1, body=broken_report())
    with server(fake, tmp_path) as bot:
        worker = bot.worker()
        os.kill(worker, signal.SIGSTOP)  # the burst lands while the worker is busy elsewhere
        try:
            assert post(bot.port, "issues", opened(broken_report()))[0] == 202
            for n in range(30):
                event = ("issues", payload("issues.edited", **{"issue.body": broken_report(), "changes": {}}))
                if n % 2:
                    event = ("issue_comment", payload("issue_comment.created", **{"issue.number": 1}))
                assert post(bot.port, *event)[0] == 202
        finally:
            os.kill(worker, signal.SIGCONT)
        wait_until(lambda: bot.store.counts() == {"done": 31}, timeout=30)
    issue_reads = [c for c in fake.calls if c.method == "GET" and c.path.endswith("/issues/1")]
    assert len(issue_reads) == 1, "31 deliveries, one triage of the issue as it is now"
    assert comments(fake, 1) == 1


def test_the_worker_ends_with_the_server(fake: FakeGitHub, tmp_path: Path) -> None:
    with server(fake, tmp_path) as bot:
        worker = bot.worker()
        bot.proc.send_signal(signal.SIGTERM)  # the server alone, as a service manager stops it
        bot.proc.wait(20)
        wait_until(lambda: not alive(worker), timeout=10)
    with server(fake, tmp_path) as bot:
        worker = bot.worker()
        bot.proc.kill()  # the server alone, without a chance to stop its worker
        bot.proc.wait(10)
        wait_until(lambda: not alive(worker), timeout=10)


def test_texts_already_read_are_not_read_again(fake: FakeGitHub, tmp_path: Path, matrix: Index,
                                               monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """A delivery that changes nothing the issue says costs its GETs, not a second redaction and parse."""
    settings = settings_for(fake, tmp_path / "bot.db")
    store = Store(settings.database_url)
    store.create()
    worker = Processor(settings, store, matrix)
    reads: list[str] = []

    def counted(index: Index, body: str, *rest: Any) -> Case:
        reads.append(body)
        return read_cleaned(index, body, *rest)

    monkeypatch.setattr(bot.service.worker, "read_cleaned", counted)
    fake.add_issue(REPO, number=1, body=broken_report())
    for n, event in enumerate(["opened", "edited", "edited"]):
        store.record(Delivery(f"d{n}", "issues", event, REPO, 1, None, opened(broken_report())))
        result = worker.process(REPO, 1)
    assert len(reads) == 1 and result.outcome == "skipped" and "as last read" in result.detail
    fake.edit_issue(REPO, 1, body=healthy_report())
    store.record(Delivery("d3", "issues", "edited", REPO, 1, None, opened(healthy_report())))
    assert worker.process(REPO, 1).outcome == "done" and len(reads) == 2, "a changed text is read"
    store.engine.dispose()
