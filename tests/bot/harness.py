"""Helpers for the service tests: signed deliveries of real payloads, a running app, waiting for the worker."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from bot.diagnosis.matrix import default as default_matrix
from bot.diagnosis.render import MARKER
from bot.service.app import Service, create_app
from bot.service.metrics import Metrics
from bot.service.queue import Queue
from bot.service.settings import Settings
from bot.service.store import Store
from bot.service.worker import Processor
from tests.conftest import fixture_text
from tests.fakegithub import FakeGitHub

SECRET = "It's a Secret to Everybody"
REPO = "Codertocat/Hello-World"  # the repository of the octokit example payloads


def payload(name: str, **changes: Any) -> dict[str, Any]:
    """A real example delivery (tests/fixtures/payloads), with some fields replaced."""
    data: dict[str, Any] = json.loads(fixture_text("payloads", f"{name}.json"))
    data = copy.deepcopy(data)
    for dotted, value in changes.items():
        target = data
        *path, last = dotted.split(".")
        for key in path:
            target = target.setdefault(key, {})
        target[last] = value
    return data


def signed(event: str, body: dict[str, Any] | bytes, secret: str = SECRET, delivery: str | None = None
           ) -> tuple[bytes, dict[str, str]]:  # fmt: skip
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    signature = "sha256=" + hmac.new(secret.encode(), raw, hashlib.sha256).hexdigest()
    headers = {"X-GitHub-Event": event, "X-GitHub-Delivery": delivery or str(uuid.uuid4()),
               "X-Hub-Signature-256": signature, "Content-Type": "application/json"}  # fmt: skip
    return raw, headers


def settings_for(fake: FakeGitHub, database: Path, **overrides: Any) -> Settings:
    base = Settings(
        webhook_secrets=(SECRET,), token="test-token", api_url=fake.url, database_url=f"sqlite:///{database}",
        seconds_between_writes=0.0, retry_base_seconds=0.05, max_attempts=4,
    )  # fmt: skip
    return replace(base, **overrides)


@dataclass
class Running:
    client: TestClient
    store: Store
    fake: FakeGitHub

    def send(self, event: str, body: dict[str, Any], **kwargs: Any) -> Any:
        raw, headers = signed(event, body, **kwargs)
        return self.client.post("/webhook", content=raw, headers=headers)

    def settle(self, timeout: float = 15.0) -> None:
        """Wait until the worker has handled every delivery."""
        wait_until(lambda: self.store.counts().get("pending", 0) == 0, timeout)


def running(settings: Settings, fake: FakeGitHub) -> Iterator[Running]:
    store = Store(settings.database_url)
    store.create()
    matrix = default_matrix()
    queue = Queue(settings, Processor(settings, store, matrix))
    app = create_app(Service(settings, store, queue, matrix, Metrics()))
    with TestClient(app) as client:
        yield Running(client, store, fake)


def wait_until(predicate: Callable[[], bool], timeout: float = 15.0, step: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(step)


def broken_report() -> str:
    return fixture_text("h200-1gpu", "broken-cvd-empty.md")


def healthy_report() -> str:
    return fixture_text("h200-1gpu", "collector.md")


def bot_comments(fake: FakeGitHub, number: int = 1) -> list[dict[str, Any]]:
    return [c for c in fake.comments_on(REPO, number) if MARKER in str(c["body"])]


def opened(body: str, number: int = 1, title: str | None = None) -> dict[str, Any]:
    changes: dict[str, Any] = {"issue.body": body, "issue.number": number}
    if title is not None:
        changes["issue.title"] = title
    return payload("issues.opened", **changes)
