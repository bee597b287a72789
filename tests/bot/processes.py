"""The bot as real processes (`python -m bot serve`, `python -m bot worker`), for restart and scale-out tests."""

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

from tests.bot.harness import SECRET, wait_until
from tests.fakegithub import FakeGitHub

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def bot_env(fake: FakeGitHub, database_url: str, **extra: str) -> dict[str, str]:
    return {
        **os.environ, "GITHUB_WEBHOOK_SECRET": SECRET, "GITHUB_TOKEN": "t", "GITHUB_API_URL": fake.url,
        "DATABASE_URL": database_url, "ENVTRIAGE_WRITE_SPACING": "0", **extra,
    }  # fmt: skip


def start(args: list[str], env: dict[str, str], log: Path | None = None) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "bot", *args]
    if log is None:
        return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)  # fmt: skip
    with open(log, "ab") as out:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=out, start_new_session=True)


def stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, sig)
        proc.wait(15)


def children(pid: int) -> list[int]:
    """The processes `pid` started (Linux: from /proc), oldest first."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == pid:
            found.append((int(fields[19]), int(stat.parent.name)))  # start time, pid
    return [child for _, child in sorted(found)]


def alive(pid: int) -> bool:
    """Running (a zombie its parent has not reaped yet counts as gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def up(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


@contextmanager
def serving(env: dict[str, str], port: int, log: Path | None = None) -> Iterator[subprocess.Popen[bytes]]:
    proc = start(["serve", "--port", str(port)], env, log)
    try:
        wait_until(lambda: up(port) or proc.poll() is not None, timeout=30, step=0.1)
        assert proc.poll() is None, "the server exited at start"
        yield proc
    finally:
        stop(proc)
