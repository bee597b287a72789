"""`python -m bot serve` as a real process: killed in the middle of a job, the job is done after a restart."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from bot.diagnosis.render import MARKER
from bot.service.store import Store
from tests.bot.harness import REPO, broken_report, payload, signed, wait_until
from tests.bot.processes import bot_env, free_port, serving
from tests.fakegithub import FakeGitHub


@contextmanager
def server(fake: FakeGitHub, database: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    with serving(bot_env(fake, f"sqlite:///{database}"), port) as proc:
        yield proc


def test_a_job_interrupted_by_kill_9_is_finished_after_restart(fake_github: FakeGitHub, tmp_path: Path) -> None:
    fake = fake_github
    fake.add_repo(REPO)
    fake.add_issue(REPO, number=1, body=broken_report())
    database = tmp_path / "bot.db"
    port = free_port()
    fake.delay = 30.0  # the worker's first GitHub call hangs: the job is in flight
    with server(fake, database, port) as proc:
        raw, headers = signed("issues", payload("issues.opened", **{"issue.body": broken_report()}))
        answer = httpx.post(f"http://127.0.0.1:{port}/webhook", content=raw, headers=headers, timeout=5)
        assert answer.status_code == 202
        wait_until(lambda: fake.received > 0, timeout=15)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
    assert Store(f"sqlite:///{database}").counts() == {"pending": 1}, "the delivery outlived the process"
    fake.delay = 0.0
    with server(fake, database, port):
        wait_until(lambda: Store(f"sqlite:///{database}").counts() == {"done": 1}, timeout=30)
    comments = [c for c in fake.comments_on(REPO, 1) if MARKER in str(c["body"])]
    assert len(comments) == 1 and fake.labels_on(REPO, 1) == ["env: gpus-hidden-by-env"]
