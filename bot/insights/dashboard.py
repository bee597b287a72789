"""The maintainer dashboard: GET /dashboard (HTML with inline SVG charts), /dashboard.json, /dashboard.csv.

Read-only, and off unless ENVTRIAGE_DASHBOARD_TOKEN is set; then every request must carry that token (the
`Authorization: Bearer` header, or `?token=` so a browser can bookmark it). `python -m bot report` writes the
same page to a file from the database, without a server.
"""

from __future__ import annotations

import csv
import datetime
import functools
import hmac
import io
from typing import Any
from urllib.parse import urlencode

import jinja2

from bot.insights.stats import Filters, Insights, as_json
from collector.templating import template_dir

PALETTE = [
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
    "#1f77b4",
    "#8c564b",
    "#17becf",
    "#bcbd22",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#7f7f7f",
]


class DashboardError(ValueError):
    """A filter the dashboard cannot read; the message says which and how to write it."""


@functools.cache
def html_environment() -> jinja2.Environment:
    # HTML, unlike the Markdown templates: everything from the database (issue titles!) is escaped.
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(template_dir()), undefined=jinja2.StrictUndefined, autoescape=True,
        trim_blocks=True, lstrip_blocks=True,
    )  # fmt: skip
    env.globals["color"] = color
    return env


def color(category: str, categories: list[str]) -> str:
    return PALETTE[categories.index(category) % len(PALETTE)] if category in categories else PALETTE[-1]


def allowed(expected: str | None, header: str | None, query: str | None) -> bool:
    if not expected:
        return False
    given = (header or "").removeprefix("Bearer ").strip() or (query or "")
    return hmac.compare_digest(given.encode(), expected.encode())


def filters_from(repo: str | None, since: str | None, until: str | None) -> Filters:
    return Filters(repo=repo or None, since=_date("since", since), until=_date("until", until))


def _date(name: str, value: str | None) -> datetime.date | None:
    if not value:
        return None
    try:
        return datetime.date.fromisoformat(value)
    except ValueError as exc:
        raise DashboardError(f"{name}={value!r} is not a date like 2025-01-31") from exc


def html(insights: Insights, web: str, token: str | None = None, offline: bool = False) -> str:
    """`web`: where the issues are read (Settings.web_url), for their links."""
    categories = [name for name, _ in insights.categories]
    if "no diagnosis" in insights.weekly:
        categories.append("no diagnosis")
    filters = insights.filters
    query = urlencode({k: v for k, v in {"repo": filters.repo, "since": filters.since, "until": filters.until,
                                         "token": token}.items() if v})  # fmt: skip
    return (
        html_environment()
        .get_template("dashboard/page.html.j2")
        .render(
            i=insights, categories=categories, token=token, offline=offline, peak=_peak(insights), query=query, web=web
        )
    )


def _peak(insights: Insights) -> int:
    weekly = insights.weekly.values()
    totals = [sum(week) for week in zip(*weekly, strict=True)] if weekly else []
    return max(totals, default=0)


def json_data(insights: Insights, web: str) -> dict[str, Any]:
    return as_json(insights, web)


def csv_text(insights: Insights, web: str) -> str:
    """The same numbers, long format: section, key, value (one row per number)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["section", "key", "value"])
    writer.writerow(["total", "issues", insights.issues])
    writer.writerow(["total", "with_diagnosis", insights.with_diagnosis])
    for category, counts in insights.weekly.items():
        for week, count in zip(insights.weeks, counts, strict=True):
            writer.writerow([f"week:{week}", category, count])
    for category, count in insights.categories:
        writer.writerow(["category", category, count])
    for name, pairs in insights.distributions.items():
        for value, count in pairs:
            writer.writerow([name, value, count])
    needs = insights.needs_env
    median = "" if needs.median_hours is None else needs.median_hours
    writer.writerow(["needs_env", "asked", needs.asked])
    writer.writerow(["needs_env", "answered", needs.answered])
    writer.writerow(["needs_env", "median_hours", median])
    for number, group in enumerate(insights.clusters, start=1):
        for issue in group:
            writer.writerow([f"cluster:{number}", f"{issue.repo}#{issue.number}", issue.url(web)])
    writer.writerows([["coverage", "torch_known", insights.torch_known],
                      ["coverage", "torch_unknown", insights.torch_unknown]])  # fmt: skip
    return out.getvalue()
