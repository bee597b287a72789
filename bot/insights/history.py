"""What the bot concluded about each issue, and when: the dashboard's raw material (table `triaged`).

One row per issue, rewritten at each triage. Two moments are kept once set: when the bot first asked for an
environment report (`needs_env_since`), and when a usable report arrived after that (`report_at`), which gives
the needs-env response rate and time.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field

import sqlalchemy as sa

from bot.diagnosis.findings import Finding
from bot.insights.dedupe.features import Features
from bot.service.tables import triaged

# Findings that are no diagnosis of an environment (see bot/insights/dedupe/features.py NOT_A_DIAGNOSIS for the index).
NOT_COUNTED = {"missing_env_report", "matrix_does_not_know"}


@dataclass(frozen=True)
class Triaged:
    repo: str
    number: int
    title: str
    state: str
    opened_at: datetime.datetime | None
    categories: list[str]
    needs_env: bool  # the bot asked for a report (a comment or label says so)
    features: Features
    duplicates: list[int] = field(default_factory=list)


def categories_of(findings: list[Finding]) -> list[str]:
    return sorted({f.category for f in findings if f.category and f.severity != "info" and f.id not in NOT_COUNTED})


class History:
    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine

    def record(self, entry: Triaged, now: datetime.datetime | None = None) -> None:
        now = now or datetime.datetime.now(datetime.timezone.utc)
        key = (triaged.c.repo == entry.repo, triaged.c.number == entry.number)
        with self.engine.begin() as conn:
            before = conn.execute(sa.select(triaged).where(*key)).mappings().first()
            values = self._values(entry, now, dict(before) if before else None)
            if before is None:
                conn.execute(triaged.insert().values(repo=entry.repo, number=entry.number, **values))
            else:
                conn.execute(triaged.update().where(*key).values(**values))

    def suggested(self, repo: str, number: int) -> list[int]:
        """The duplicates the last triage of the issue suggested."""
        query = sa.select(triaged.c.duplicates).where(triaged.c.repo == repo, triaged.c.number == number)
        with self.engine.connect() as conn:
            raw = conn.scalar(query)
        return [int(n) for n in json.loads(raw)] if raw else []

    def set_state(self, repo: str, number: int, state: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(triaged.update().where(triaged.c.repo == repo, triaged.c.number == number).values(state=state))

    @staticmethod
    def _values(entry: Triaged, now: datetime.datetime, before: dict[str, object] | None) -> dict[str, object]:
        asked = before.get("needs_env_since") if before else None
        answered = before.get("report_at") if before else None
        if entry.needs_env and asked is None:
            asked = now
        if asked is not None and not entry.needs_env and answered is None:
            answered = now
        return {
            "title": entry.title[:300], "state": entry.state, "opened_at": entry.opened_at,
            "first_triaged_at": before["first_triaged_at"] if before else now, "last_triaged_at": now,
            "categories": json.dumps(entry.categories), "torch": entry.features.torch, "cuda": entry.features.cuda,
            "driver": entry.features.driver, "archs": json.dumps(entry.features.archs),
            "needs_env_since": asked, "report_at": answered, "duplicates": json.dumps(entry.duplicates),
        }  # fmt: skip
