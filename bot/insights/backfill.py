"""`python -m bot backfill OWNER/REPO`: load a repository's existing issues into the duplicate index.

One listing of the repository's issues, oldest change first (`sort=updated&direction=asc`), so the position
reached is one timestamp: it is saved as the run goes, and a run that was interrupted (or hit the rate limit)
resumes from it. A finished run saves the ETag of the listing from that point; the next run asks with
`If-None-Match` and a repository where nothing changed costs one request that GitHub does not count.
With --triage every open issue is also diagnosed, labelled and commented like a new one.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import github
import sqlalchemy as sa

from bot.diagnosis.matrix import Index
from bot.diagnosis.readers import read_case
from bot.diagnosis.rules import diagnose
from bot.insights.dedupe import DuplicateIndex, extract
from bot.insights.history import History, Triaged, categories_of
from bot.service.github_io import Clients, RateLimited, guarded
from bot.service.settings import Settings
from bot.service.tables import backfills
from bot.service.worker import Processor

log = logging.getLogger(__name__)
SAVE_EVERY = 50  # issues between saved positions
RESERVE = 50  # requests left for the service itself when the rate limit runs low
MAX_WAITS = 20


@dataclass
class Summary:
    repo: str
    loaded: int = 0
    triaged: int = 0
    skipped_pull_requests: int = 0
    waited_seconds: float = 0.0
    unchanged: bool = False
    resumed_from: str | None = None


@dataclass(frozen=True)
class Options:
    since: datetime | None = None  # overrides the saved position
    triage: bool = False


Progress = Callable[[Iterable[Any]], Iterator[Any]]


class Backfill:
    def __init__(self, settings: Settings, engine: sa.Engine, matrix: Index, processor: Processor | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:  # fmt: skip
        self.settings, self.engine, self.matrix, self.sleep = settings, engine, matrix, sleep
        self.clients = processor.clients if processor else Clients(settings)
        self.processor = processor
        self.index = DuplicateIndex(engine)
        self.history = History(engine)

    def run(self, full_name: str, options: Options, progress: Progress) -> Summary:
        client, installation = self.clients.for_repo(full_name)
        saved = self._saved(full_name)
        since = options.since or _parse(saved.get("since"))
        summary = Summary(full_name, resumed_from=None if options.since else saved.get("since"))
        if options.since is None and saved.get("finished") and saved.get("etag"):
            etag = self._etag(client, full_name, since, saved["etag"])
            if etag is None:
                summary.unchanged = True
                return summary
        for _ in range(MAX_WAITS):
            try:
                since = self._load(client, installation, full_name, since, options, summary, progress)
                break
            except RateLimited as exc:  # resume from the saved position once the limit resets
                log.warning("%s; waiting %.0f s", exc, exc.wait)
                summary.waited_seconds += exc.wait
                self.sleep(exc.wait)
                since = _parse(self._saved(full_name).get("since")) or since
        self._save(full_name, since, self._etag(client, full_name, since, None), summary.loaded, finished=True)
        self.index.refresh(full_name)
        return summary

    def _load(self, client: github.Github, installation: int | None, full_name: str, since: datetime | None,
              options: Options, summary: Summary, progress: Progress) -> datetime | None:  # fmt: skip
        repo = guarded(lambda: client.get_repo(full_name))
        listing = repo.get_issues(
            state="all", sort="updated", direction="asc", since=since or github.GithubObject.NotSet
        )
        position = since
        for count, issue in enumerate(progress(_guarded_iter(listing)), start=1):
            if issue.pull_request is not None:
                summary.skipped_pull_requests += 1
            else:
                self._index(full_name, issue)
                summary.loaded += 1
                if options.triage and issue.state == "open" and self.processor is not None:
                    self.processor.triage_issue(full_name, issue.number, installation)
                    summary.triaged += 1
            position = issue.updated_at
            if count % SAVE_EVERY == 0:
                self._save(full_name, position, None, summary.loaded, finished=False)
                self._spare_the_limit(client, summary)
        return position

    def _index(self, full_name: str, issue: Any) -> None:
        case = read_case(self.matrix, issue.body, issue.title or "")
        findings = diagnose(case, self.matrix)
        features = extract(case, findings, self.matrix, issue.body or "")
        self.index.record(full_name, issue.number, issue.title or "", issue.state, features)
        # For the dashboard: what the issue shows, dated by when it was opened; the bot asked nothing of it.
        entry = Triaged(full_name, issue.number, issue.title or "", issue.state, issue.created_at,
                        categories_of(findings), False, features)  # fmt: skip
        self.history.record(entry, now=issue.created_at)

    def _spare_the_limit(self, client: github.Github, summary: Summary) -> None:
        """Leave requests for the live service: pause the backfill when few are left."""
        remaining, _limit = client.rate_limiting
        if 0 <= remaining < RESERVE:
            wait = max(1.0, client.rate_limiting_resettime - time.time() + 1)
            log.warning("%d requests left until the rate limit resets; pausing %.0f s", remaining, wait)
            summary.waited_seconds += wait
            self.sleep(wait)

    def _etag(self, client: github.Github, full_name: str, since: datetime | None, known: str | None) -> str | None:
        """The listing's ETag from `since`; None when it still matches `known` (304: nothing changed)."""
        params: dict[str, Any] = {"state": "all", "sort": "updated", "direction": "asc", "per_page": 100}
        if since is not None:
            params["since"] = since.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        headers = {"If-None-Match": known} if known else {}
        url = f"/repos/{full_name}/issues"
        status, answer, _ = guarded(
            lambda: client.requester.requestJson("GET", url, parameters=params, headers=headers)
        )
        if status == 304:
            return None
        return str({k.lower(): v for k, v in answer.items()}.get("etag", "")) or None

    def _saved(self, full_name: str) -> dict[str, Any]:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(backfills).where(backfills.c.repo == full_name)).mappings().first()
        return dict(row) if row else {}

    def _save(self, full_name: str, since: datetime | None, etag: str | None, loaded: int, finished: bool) -> None:
        values = {"since": since.isoformat() if since else None, "etag": etag, "issues": loaded, "finished": finished,
                  "updated_at": datetime.now(timezone.utc)}  # fmt: skip
        with self.engine.begin() as conn:
            if conn.execute(backfills.update().where(backfills.c.repo == full_name).values(**values)).rowcount == 0:
                conn.execute(backfills.insert().values(repo=full_name, **values))


def _guarded_iter(listing: Iterable[Any]) -> Iterator[Any]:
    """PyGithub fetches pages while iterating; its failures are classified like every other call."""
    iterator = iter(listing)
    while True:
        try:
            item = guarded(lambda: next(iterator))
        except StopIteration:
            return
        yield item


def _parse(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None
