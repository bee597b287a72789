"""A database for the dashboard tests, filled from the real issue corpus through the bot's own code paths.

Every issue of tests/fixtures (the diagnosis corpus and the duplicate fixtures) is read, diagnosed, put in the
duplicate index of its repository (so the clusters are the suggestions the bot really makes) and recorded in
the triage history. The corpus carries no dates: issues are dated two days apart in file order, from
2026-06-01. Three conversations are replayed from the H200 captures: an issue without a report (the bot asks),
then the same issue edited to carry the report some hours later (the reporter answered).
"""

from __future__ import annotations

import datetime
from pathlib import Path

import sqlalchemy as sa

from bot.diagnosis.matrix import Index
from bot.diagnosis.readers import read_case
from bot.diagnosis.rules import diagnose
from bot.insights.dedupe import DuplicateIndex, extract
from bot.insights.history import History, Triaged, categories_of
from bot.service.store import Store
from tests.bot.dedupe_eval import all_issues
from tests.conftest import fixture_text

START = datetime.datetime(2026, 6, 1, 9, 0, tzinfo=datetime.timezone.utc)
CONVERSATIONS = [("broken-cvd-empty.md", 5), ("broken-ld-cudnn.md", 30), ("broken-torchvision.md", 72)]
CONVERSATION_REPO = "example/gpu-app"
# Each repository's index here holds a handful of issues, too few to tell how rare an error is, so the fitted model
# is unsure of every pair; the clusters are those of a repository that set `duplicate_threshold: 0.5`.
LENIENT = 0.5


def seed(url: str, matrix: Index) -> sa.Engine:
    store = Store(url)
    store.create()
    index, history = DuplicateIndex(store.engine), History(store.engine)
    for serial, issue in enumerate(all_issues()):
        owner, repo, number = issue.stem.rsplit("__", 2)
        when = START + datetime.timedelta(days=2 * serial)
        _triage(index, history, matrix, f"{owner}/{repo}", int(number), issue.title, issue.body, when)
    for number, (report, hours) in enumerate(CONVERSATIONS, start=1):
        asked = START + datetime.timedelta(days=7 * number)
        title = "CUDA problem after upgrading"
        _triage(index, history, matrix, CONVERSATION_REPO, number, title, "It fails on our H200 box.", asked)
        body = "It fails on our H200 box.\n\n" + fixture_text("h200-1gpu", report)
        _triage(index, history, matrix, CONVERSATION_REPO, number, title, body, asked + datetime.timedelta(hours=hours))
    return store.engine


def _triage(index: DuplicateIndex, history: History, matrix: Index, repo: str, number: int, title: str, body: str,
            when: datetime.datetime) -> None:  # fmt: skip
    case = read_case(matrix, body, title)
    findings = diagnose(case, matrix)
    features = extract(case, findings, matrix, body)
    found = index.similar(repo, features, before=number, threshold=LENIENT)
    index.record(repo, number, title, "open", features)
    needs_env = any(f.category == "missing_env_report" for f in findings)
    entry = Triaged(repo, number, title, "open", None, categories_of(findings), needs_env, features,
                    [c.number for c in found])  # fmt: skip
    history.record(entry, now=when)


def seeded_database(folder: Path, matrix: Index) -> str:
    url = f"sqlite:///{folder / 'dashboard.db'}"
    seed(url, matrix).dispose()
    return url
