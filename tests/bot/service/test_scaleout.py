"""Scaled out: webhook replicas and standalone workers on PostgreSQL and Redis, acting once per issue.

Skipped (with the reason) where PostgreSQL or Redis is not running; `.ci/run` starts them.
"""

from __future__ import annotations

import signal
import subprocess
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.diagnosis.render import MARKER
from bot.service.store import Store
from tests.bot.harness import REPO, broken_report, payload, signed, wait_until
from tests.bot.processes import bot_env, free_port, serving, start, stop
from tests.fakegithub import FakeGitHub
from tests.servers import postgres_url, redis_url  # noqa: F401 - fixtures

ISSUES = 6


def deliveries() -> list[tuple[str, dict[str, Any]]]:
    """Per issue: opened, three edits, two comments; interleaved across issues."""
    per_issue = []
    for number in range(1, ISSUES + 1):
        body = {"issue.number": number, "issue.body": broken_report()}
        events = [("issues", payload("issues.opened", **body))]
        events += [("issues", payload("issues.edited", **body, changes={})) for _ in range(3)]
        events += [("issue_comment", payload("issue_comment.created", **{"issue.number": number})) for _ in range(2)]
        per_issue.append(events)
    return [event for round_ in zip(*per_issue, strict=True) for event in round_]


@pytest.fixture
def cluster(fake_github: FakeGitHub, postgres_url: str, redis_url: str, tmp_path: Path  # noqa: F811
            ) -> Iterator[tuple[list[int], list[subprocess.Popen[bytes]], dict[str, str]]]:  # fmt: skip
    fake_github.add_repo(REPO)
    for number in range(1, ISSUES + 1):
        fake_github.add_issue(REPO, number=number, body=broken_report())
    env = bot_env(fake_github, postgres_url, QUEUE_URL=redis_url, ENVTRIAGE_EMBEDDED_WORKER="0")
    schema = Store(postgres_url)
    schema.create()  # the schema exists before replicas and workers race for it
    schema.engine.dispose()
    ports = [free_port(), free_port()]
    with ExitStack() as stack:
        for number, port in enumerate(ports):
            stack.enter_context(serving(env, port, tmp_path / f"serve{number}.log"))
        workers = [start(["worker", "--threads", "2"], env, tmp_path / f"worker{n}.log") for n in range(2)]
        try:
            yield ports, workers, env
        finally:
            for worker in workers:
                stop(worker)


def send_all(ports: list[int]) -> list[int]:
    """Every delivery to one replica and its redelivery to the other, from eight concurrent senders."""
    jobs = []
    for n, (event, body) in enumerate(deliveries()):
        raw, headers = signed(event, body, delivery=f"delivery-{n}")
        jobs += [(ports[n % 2], raw, headers), (ports[(n + 1) % 2], raw, headers)]

    def post(job: tuple[int, bytes, dict[str, str]]) -> int:
        port, raw, headers = job
        return httpx.post(f"http://127.0.0.1:{port}/webhook", content=raw, headers=headers, timeout=10).status_code

    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(post, jobs))


def assert_acted_once(fake: FakeGitHub) -> None:
    created = Counter(c.path for c in fake.calls if c.method == "POST" and c.path.endswith("/comments"))
    labelled = Counter((c.path, str(c.body)) for c in fake.calls if c.method == "POST" and "/issues/" in c.path
                       and c.path.endswith("/labels"))  # fmt: skip
    for number in range(1, ISSUES + 1):
        mine = [c for c in fake.comments_on(REPO, number) if MARKER in str(c["body"])]
        assert len(mine) == 1, f"issue {number}: {len(mine)} bot comments"
        labels = fake.labels_on(REPO, number)  # and possible-duplicate: they are the same problem
        assert "env: gpus-hidden-by-env" in labels and len(labels) == len(set(labels))
    assert set(created.values()) == {1} and set(labelled.values()) == {1}


def test_replicas_and_workers_act_once_per_issue(cluster: Any, fake_github: FakeGitHub, postgres_url: str  # noqa: F811
                                                 ) -> None:  # fmt: skip
    ports, _workers, _env = cluster
    fake_github.delay = 0.02  # GitHub takes a moment: jobs overlap
    statuses = send_all(ports)
    assert Counter(statuses) == {202: len(statuses) // 2, 200: len(statuses) // 2}, "each redelivery seen once"
    store = Store(postgres_url)
    wait_until(lambda: store.counts() == {"done": len(statuses) // 2}, timeout=90)
    assert_acted_once(fake_github)
    store.engine.dispose()


def test_a_worker_killed_mid_job_loses_nothing(cluster: Any, fake_github: FakeGitHub, postgres_url: str,  # noqa: F811
                                               tmp_path: Path) -> None:  # fmt: skip
    ports, workers, env = cluster
    fake_github.delay = 0.3
    statuses = send_all(ports)
    wait_until(lambda: fake_github.received > 5, timeout=30)
    stop(workers[0], signal.SIGKILL)  # in the middle of GitHub calls
    fake_github.delay = 0.0
    workers.append(start(["worker", "--threads", "2"], env, tmp_path / "worker-restarted.log"))
    store = Store(postgres_url)
    wait_until(lambda: store.counts() == {"done": len(statuses) // 2}, timeout=120)
    assert_acted_once(fake_github)
    store.engine.dispose()
