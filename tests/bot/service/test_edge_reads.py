"""The acknowledgement reads no issue text: it verifies, parses once, routes, stores and queues; every reader,
rule and redaction runs in the worker. Checked by recording each Python function the request path calls (on
every thread the app starts), which no body size or box speed can change."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bot.diagnosis.matrix import Index
from bot.service.app import Service, create_app
from bot.service.metrics import Metrics
from bot.service.queue import Queue
from bot.service.store import Store
from tests.bot.harness import broken_report, healthy_report, payload, settings_for, signed
from tests.fakegithub import FakeGitHub

ROOT = Path(__file__).resolve().parents[3]
# Where reading an issue's text happens: the readers, the rules, triage, the duplicate index, the redaction.
DIAGNOSIS = ROOT / "bot" / "diagnosis"
READING = [DIAGNOSIS / "readers", DIAGNOSIS / "rules", ROOT / "bot" / "insights" / "dedupe", DIAGNOSIS / "plan.py",
           ROOT / "collector" / "redact.py", ROOT / "collector" / "parsers"]  # fmt: skip


def files_called(during: Callable[[], Any]) -> set[Path]:
    """The source files of every Python function called while `during` runs, on this thread and any it starts."""
    seen: set[str] = set()

    def hook(frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call":
            seen.add(frame.f_code.co_filename)

    threading.setprofile(hook)
    sys.setprofile(hook)
    try:
        during()
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    return {Path(name) for name in seen if not name.startswith("<")}


def reading(files: set[Path]) -> list[Path]:
    return sorted(f for f in files if any(f == place or place in f.parents for place in READING))


@pytest.mark.parametrize(
    ("event", "fixture", "holder"),
    [("issues", "issues.edited", "issue"), ("issue_comment", "issue_comment.edited", "comment")],
)
def test_an_edited_delivery_is_acknowledged_without_reading_its_texts(
    fake: FakeGitHub, tmp_path: Path, matrix: Index, event: str, fixture: str, holder: str
) -> None:
    """Both texts of an edit used to be read on the request path to compare their diagnoses (64 KB ones took
    seconds); the worker compares against the digest it stored instead."""
    new = broken_report() + "\n" + "x" * 60_000
    edit = payload(fixture, **{f"{holder}.body": new, "changes": {"body": {"from": healthy_report()}}})
    settings = replace(settings_for(fake, tmp_path / "bot.db"), embedded_worker=False)  # the worker does read
    store = Store(settings.database_url)
    store.create()
    app = create_app(Service(settings, store, Queue(settings, None), matrix, Metrics()))  # built before recording
    raw, headers = signed(event, edit)
    answers: list[Any] = []

    def acknowledge() -> None:
        with TestClient(app) as client:  # its threads start inside the recording
            answers.append(client.post("/webhook", content=raw, headers=headers))

    files = files_called(acknowledge)
    assert [answer.status_code for answer in answers] == [202]
    service = ROOT / "bot" / "service"
    assert service / "webhook.py" in files and service / "inbox.py" in files, "the hook saw the edge"
    assert reading(files) == []
