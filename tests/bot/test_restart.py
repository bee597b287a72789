"""`python -m bot serve` as a real process: killed in the middle of a job, the job is done after a restart."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from bot.render import MARKER
from bot.store import Store
from tests.bot.service import REPO, SECRET, broken_report, payload, signed, wait_until
from tests.fakegithub import FakeGitHub

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def server(fake: FakeGitHub, database: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    env = {
        **os.environ, "GITHUB_WEBHOOK_SECRET": SECRET, "GITHUB_TOKEN": "t", "GITHUB_API_URL": fake.url,
        "DATABASE_URL": f"sqlite:///{database}", "ENVTRIAGE_WRITE_SPACING": "0",
    }  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve", "--port", str(port)], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        wait_until(lambda: _up(port), timeout=30, step=0.1)
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(10)


def _up(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


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
