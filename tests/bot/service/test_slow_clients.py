"""Slow and idle clients against a real `python -m bot serve`: each connection is cut off within the configured
read timeout (or keep-alive), whatever it trickles, and real deliveries are acknowledged all the while."""

from __future__ import annotations

import select
import socket
import time
from pathlib import Path

import httpx
import pytest

from bot.service.settings import SettingsError, from_env
from tests.bot.harness import REPO, broken_report, opened, signed
from tests.bot.processes import bot_env, free_port, serving
from tests.fakegithub import FakeGitHub

READ_TIMEOUT = 1.0
KEEP_ALIVE = 1
SLACK = 3.0  # a busy 2-core box: the server's timer fires late, not never
SLOW = 50
HEAD = b"POST /webhook HTTP/1.1\r\nHost: bot\r\nX-GitHub-Event: issues\r\nContent-Type: application/json\r\n"


class Client:
    """A raw connection that stalls at one point of its request: `sent` is all it ever sends at once, then one
    byte of `trickle` every now and then (a per-read timeout would be reset by each)."""

    def __init__(self, port: int, sent: bytes, trickle: bytes) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.opened = time.monotonic()
        self.sock.sendall(sent)
        self.trickle = trickle
        self.answer = b""
        self.closed_after: float | None = None

    def poke(self) -> None:
        if self.trickle and self.closed_after is None:
            try:
                self.sock.send(self.trickle[:1])
                self.trickle = self.trickle[1:]
            except OSError:
                pass

    def read(self) -> None:
        try:
            data = self.sock.recv(65536)
        except ConnectionResetError:
            data = b""
        self.answer += data
        if not data:
            self.closed_after = time.monotonic() - self.opened
            self.sock.close()


def stalled(port: int, n: int) -> Client:
    body = b'{"action": "opened", "issue": {"number": 1, "body": "' + b"x" * 4000
    if n % 3 == 0:
        return Client(port, b"", b"")  # connects and says nothing
    if n % 3 == 1:
        return Client(port, HEAD, b"X-GitHub-Delivery: " + b"a" * 60)  # mid-header
    return Client(port, HEAD + b"Content-Length: 100000\r\n\r\n" + body, b"y" * 60)  # mid-body


def watch(clients: list[Client], until: float) -> None:
    last_poke = 0.0
    while time.monotonic() < until and any(c.closed_after is None for c in clients):
        if time.monotonic() - last_poke > 0.2:
            for client in clients:
                client.poke()
            last_poke = time.monotonic()
        open_ones = [c for c in clients if c.closed_after is None]
        readable, _, _ = select.select([c.sock for c in open_ones], [], [], 0.05)
        for client in open_ones:
            if client.sock in readable:
                client.read()


def test_slow_and_idle_clients_are_cut_off_while_deliveries_are_acknowledged(fake: FakeGitHub,
                                                                             tmp_path: Path) -> None:  # fmt: skip
    fake.add_issue(REPO, number=1, body=broken_report())
    port = free_port()
    env = bot_env(fake, f"sqlite:///{tmp_path / 'bot.db'}", ENVTRIAGE_READ_TIMEOUT=str(READ_TIMEOUT),
                  ENVTRIAGE_KEEP_ALIVE_TIMEOUT=str(KEEP_ALIVE))  # fmt: skip
    log = tmp_path / "serve.log"
    with serving(env, port, log):
        clients = [stalled(port, n) for n in range(SLOW)]
        huge = Client(port, HEAD + b"X-Padding: " + b"p" * 100_000, b"")  # headers past the cap, sent at once
        idle = Client(port, b"GET /healthz HTTP/1.1\r\nHost: bot\r\n\r\n", b"")  # answered, then kept alive idle
        raw, headers = signed("issues", opened(broken_report()))
        started = time.monotonic()
        answer = httpx.post(f"http://127.0.0.1:{port}/webhook", content=raw, headers=headers, timeout=10)
        assert answer.status_code == 202 and time.monotonic() - started < 2.0, "a real delivery, meanwhile"
        watch([*clients, huge, idle], until=time.monotonic() + READ_TIMEOUT * 2 + SLACK)
        still_open = [c for c in clients if c.closed_after is None]
        assert not still_open, f"{len(still_open)} of {SLOW} slow connections still open"
        again = httpx.post(f"http://127.0.0.1:{port}/webhook", content=raw, headers=headers, timeout=10)
        assert again.status_code == 200 and again.json()["outcome"] == "duplicate"
    for n, client in enumerate(clients):
        assert client.closed_after is not None
        phases = 1 if n % 3 < 2 else 2  # the body has its own deadline, from the headers on
        assert client.closed_after < READ_TIMEOUT * phases + SLACK, (n, client.closed_after)
        if n % 3:
            assert client.answer.startswith(b"HTTP/1.1 408 "), (n, client.answer[:40])
    assert huge.closed_after is not None and huge.answer.startswith(b"HTTP/1.1 431 ")
    assert idle.answer.startswith(b"HTTP/1.1 200 ") and idle.closed_after is not None
    assert idle.closed_after < KEEP_ALIVE + SLACK
    assert "Traceback" not in log.read_text(), "a cut-off client is no error of ours"


def test_the_limits_are_settings_with_defaults_and_bad_values_refused() -> None:
    env = {"GITHUB_WEBHOOK_SECRET": "s", "GITHUB_TOKEN": "t"}
    settings = from_env(env)
    assert (settings.read_timeout_seconds, settings.keep_alive_seconds, settings.max_connections) == (10.0, 5, 1000)
    tuned = from_env(env | {"ENVTRIAGE_READ_TIMEOUT": "2.5", "ENVTRIAGE_KEEP_ALIVE_TIMEOUT": "3",
                            "ENVTRIAGE_MAX_CONNECTIONS": "200"})  # fmt: skip
    assert (tuned.read_timeout_seconds, tuned.keep_alive_seconds, tuned.max_connections) == (2.5, 3, 200)
    for name, bad in [("ENVTRIAGE_READ_TIMEOUT", "0"), ("ENVTRIAGE_KEEP_ALIVE_TIMEOUT", "-1"),
                      ("ENVTRIAGE_MAX_CONNECTIONS", "lots"), ("ENVTRIAGE_READ_TIMEOUT", "inf")]:  # fmt: skip
        with pytest.raises(SettingsError, match=name):
            from_env(env | {name: bad})
