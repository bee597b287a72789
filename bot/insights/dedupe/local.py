"""`python -m bot triage FILE --db URL [--record NUMBER]`: the duplicate index from the command line.

Offline: the index is a database file (or server) of your choosing; nothing talks to GitHub.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.diagnosis.config import RepoConfig
from bot.diagnosis.matrix import Index
from bot.diagnosis.plan import Duplicate, Plan, plan_for


@dataclass(frozen=True)
class Recorded:
    repo: str
    number: int
    issues: int  # in that repository's index, after recording


def with_duplicates(plan: Plan, text: str, matrix: Index, db_url: str, repo: str, record: int | None
                    ) -> tuple[Plan, Recorded | None]:  # fmt: skip
    """The plan with the index's suggestions; with `record`, the issue is added to the index afterwards."""
    try:
        import sqlalchemy as sa

        from bot.insights.dedupe import DuplicateIndex, duplicates, extract
    except ImportError as exc:
        raise SystemExit(
            f"python -m bot triage --db needs the bot extra: pip install 'envtriage[bot]' ({exc})"
        ) from exc
    try:
        from bot.service.engine import engine_url

        index = DuplicateIndex(sa.create_engine(engine_url(db_url)))
        index.create()
    except (sa.exc.ArgumentError, sa.exc.OperationalError) as exc:
        raise SystemExit(f"python -m bot triage: cannot open the index at {db_url}: {exc}") from exc
    features = extract(plan.case, plan.findings, matrix, text)
    found: list[Duplicate] = duplicates(index.similar(repo, features, exclude=record))
    config = RepoConfig()
    new_plan = plan_for(plan.case, plan.findings, config, found, matrix)
    if record is None:
        return new_plan, None
    index.record(repo, record, plan.case.title, "open", features)
    return new_plan, Recorded(repo, record, index.count(repo))
