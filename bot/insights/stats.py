"""What breaks reporters' environments, from the triage history: the numbers behind the dashboard.

Pure reading: `collect(engine, filters, matrix)` returns an Insights value; bot/insights/dashboard.py renders it as
HTML, JSON or CSV. An issue's date is when it was opened (as GitHub says), else when the bot first triaged it.
"""

from __future__ import annotations

import datetime
import json
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from bot.diagnosis.matrix import Index
from bot.service.tables import triaged

UNKNOWN = "not reported"
TOP = 12


@dataclass(frozen=True)
class Filters:
    repo: str | None = None  # None: every repository
    since: datetime.date | None = None
    until: datetime.date | None = None  # inclusive


@dataclass(frozen=True)
class Issue:
    repo: str
    number: int
    title: str
    state: str

    def url(self, web: str) -> str:
        """`web`: the GitHub people read it on (Settings.web_url: github.com, or an Enterprise host)."""
        return f"{web}/{self.repo}/issues/{self.number}"


@dataclass(frozen=True)
class NeedsEnv:
    asked: int
    answered: int
    median_hours: float | None

    @property
    def rate(self) -> float | None:
        return self.answered / self.asked if self.asked else None


@dataclass(frozen=True)
class Insights:
    filters: Filters
    repos: list[str]  # every repository in the database, for the filter
    issues: int
    with_diagnosis: int
    weeks: list[str]  # Monday of each week, ISO
    weekly: dict[str, list[int]]  # category -> issues per week (aligned with weeks)
    categories: list[tuple[str, int]]  # most frequent first
    distributions: dict[str, list[tuple[str, int]]]  # "torch", "cuda", "driver", "arch" -> value counts
    needs_env: NeedsEnv
    clusters: list[list[Issue]]
    known_series: list[str]  # torch series the matrix knows
    torch_known: int  # issues whose torch series the matrix knows
    torch_unknown: int
    generated_at: str = field(default_factory=lambda: datetime.datetime.now(datetime.timezone.utc).isoformat())


def collect(engine: sa.Engine, filters: Filters, matrix: Index) -> Insights:
    with engine.connect() as conn:
        repos = list(conn.scalars(sa.select(triaged.c.repo).distinct().order_by(triaged.c.repo)))
        rows = [_decoded(dict(row)) for row in conn.execute(_query(filters)).mappings()]
    series = sorted((release.series for release in matrix.matrix.releases), key=_version_key)
    known = sum(1 for row in rows if row["torch"] and row["torch"].split("+")[0] in series)
    weeks, weekly = _weekly(rows)
    return Insights(
        filters=filters, repos=repos, issues=len(rows),
        with_diagnosis=sum(1 for row in rows if row["categories"]),
        weeks=weeks, weekly=weekly, categories=Counter(c for row in rows for c in row["categories"]).most_common(),
        distributions={name: _counts(rows, name) for name in ("torch", "cuda", "driver", "arch")},
        needs_env=_needs_env(rows), clusters=_clusters(rows), known_series=series, torch_known=known,
        torch_unknown=sum(1 for row in rows if row["torch"]) - known,
    )  # fmt: skip


def _query(filters: Filters) -> sa.Select[Any]:
    moment = sa.func.coalesce(triaged.c.opened_at, triaged.c.first_triaged_at)
    query = sa.select(triaged, moment.label("moment"))
    if filters.repo:
        query = query.where(triaged.c.repo == filters.repo)
    if filters.since:
        query = query.where(moment >= _start_of(filters.since))
    if filters.until:
        query = query.where(moment < _start_of(filters.until + datetime.timedelta(days=1)))
    return query.order_by(moment)


def _start_of(day: datetime.date) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time(), tzinfo=datetime.timezone.utc)


def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    for name in ("categories", "archs", "duplicates"):
        if isinstance(row[name], str):
            row[name] = json.loads(row[name])
    return row


def _weekly(rows: list[dict[str, Any]]) -> tuple[list[str], dict[str, list[int]]]:
    if not rows:
        return [], {}
    mondays = [_monday(row["moment"]) for row in rows]
    first, last = min(mondays), max(mondays)
    weeks = [first + datetime.timedelta(weeks=n) for n in range((last - first).days // 7 + 1)]
    position = {week: n for n, week in enumerate(weeks)}
    weekly: dict[str, list[int]] = {}
    for row, monday in zip(rows, mondays, strict=True):
        for category in row["categories"] or ["no diagnosis"]:
            weekly.setdefault(category, [0] * len(weeks))[position[monday]] += 1
    return [week.isoformat() for week in weeks], weekly


def _monday(moment: datetime.datetime | str) -> datetime.date:
    if isinstance(moment, str):  # SQLite hands back text for an expression's result
        moment = datetime.datetime.fromisoformat(moment)
    day = moment.date()
    return day - datetime.timedelta(days=day.weekday())


def _counts(rows: list[dict[str, Any]], name: str) -> list[tuple[str, int]]:
    if name == "arch":
        counter = Counter(arch for row in rows for arch in (row["archs"] or [UNKNOWN]))
    else:
        counter = Counter(row[name] or UNKNOWN for row in rows)
    return counter.most_common(TOP)


def _needs_env(rows: list[dict[str, Any]]) -> NeedsEnv:
    asked = [row for row in rows if row["needs_env_since"] is not None]
    answered = [row for row in asked if row["report_at"] is not None]
    hours = [(_when(row["report_at"]) - _when(row["needs_env_since"])).total_seconds() / 3600 for row in answered]
    return NeedsEnv(len(asked), len(answered), round(statistics.median(hours), 1) if hours else None)


def _when(value: datetime.datetime | str) -> datetime.datetime:
    moment = datetime.datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.timezone.utc)


def _clusters(rows: list[dict[str, Any]]) -> list[list[Issue]]:
    """Issues joined by the duplicate suggestions the bot made (within a repository), largest first."""
    issues = {
        (row["repo"], row["number"]): Issue(row["repo"], row["number"], row["title"], row["state"]) for row in rows
    }
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def root(key: tuple[str, int]) -> tuple[str, int]:
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    for row in rows:
        for other in row["duplicates"]:
            if (row["repo"], other) in issues:
                parent[root((row["repo"], row["number"]))] = root((row["repo"], other))
    groups: dict[tuple[str, int], list[Issue]] = {}
    for key in parent:
        groups.setdefault(root(key), []).append(issues[key])
    found = [sorted(group, key=lambda i: i.number) for group in groups.values() if len(group) > 1]
    return sorted(found, key=lambda group: (-len(group), group[0].repo, group[0].number))


def _version_key(series: str) -> tuple[int, ...]:
    return tuple(int(part) for part in series.split(".") if part.isdigit())


def as_json(insights: Insights, web: str) -> dict[str, Any]:
    from collector.report import codec

    data: dict[str, Any] = codec.encode(insights)
    data["filters"] = {name: str(value) if value else None for name, value in data["filters"].items()}
    data["needs_env"]["rate"] = insights.needs_env.rate
    clusters = insights.clusters
    data["clusters"] = [[{**codec.encode(issue), "url": issue.url(web)} for issue in group] for group in clusters]
    return data
