"""The thin layer over PyGithub: every GitHub read and write the bot makes, and GitHub's failures classified.

PyGithub's own retrying is off: it retries POSTs on 5xx (a retried comment can post twice) and sleeps through
rate limits inside the call. Here a failure becomes RateLimited (wait this long), Transient (try again later)
or Gone (the issue or repository no longer exists), and the queue decides.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import partial
from typing import Any

import github
from github import Auth, GithubException

from bot.diagnosis.config import ConfigError, RepoConfig, parse
from bot.service.settings import Settings

log = logging.getLogger(__name__)
CONFIG_PATH = ".github/envtriage.yml"
CONFIG_TTL = 300.0
REQUEST_TIMEOUT = 15  # seconds, PyGithub's default; GitHub itself gives up on a request after 10
PER_PAGE = 100  # GitHub's largest page: a listing costs a third of the requests of PyGithub's default 30


class RateLimited(Exception):
    def __init__(self, wait: float, message: str) -> None:
        super().__init__(message)
        self.wait = wait


class Transient(Exception):
    """5xx, a dropped connection: worth trying again with backoff."""


class InDoubt(RateLimited):
    """A write that failed ambiguously (a timeout, a 5xx) and was not found done: GitHub may still carry it out
    (it commits some requests after answering 502 or timing out), so it is not repeated before `wait` seconds.
    Retried like a rate limit: after the wait, without counting toward giving up."""


class Gone(Exception):
    """404/410: the issue, repository or installation is gone; nothing left to do."""


def classify(exc: Exception) -> Exception:
    if isinstance(exc, GithubException):
        headers = {k.lower(): v for k, v in (exc.headers or {}).items()}
        if exc.status in (403, 429) and ("retry-after" in headers or headers.get("x-ratelimit-remaining") == "0"):
            return RateLimited(_wait(headers), f"GitHub rate limit ({exc.status})")
        if exc.status in (403, 429) and "rate limit" in str(exc.data).lower():
            return RateLimited(60.0, f"GitHub secondary rate limit ({exc.status})")
        if exc.status in (404, 410):
            return Gone(f"GitHub answered {exc.status}")
        if exc.status >= 500:
            return Transient(f"GitHub answered {exc.status}")
        return exc
    if isinstance(exc, (ConnectionError, TimeoutError, OSError)):
        return Transient(f"{type(exc).__name__}: {exc}")
    return exc


def _wait(headers: dict[str, str]) -> float:
    """Retry-After (seconds) first; else until X-RateLimit-Reset (epoch seconds); at least one second."""
    if headers.get("retry-after", "").strip().isdigit():
        return max(1.0, float(headers["retry-after"]))
    reset = headers.get("x-ratelimit-reset", "")
    if reset.isdigit():
        return max(1.0, float(reset) - time.time() + 1)
    return 60.0


def guarded(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except Exception as exc:  # PyGithub and requests raise many types; classify() sorts them
        raise classify(exc) from exc


class Clients:
    """PyGithub clients: one for a token, one per installation for an App (tokens refresh themselves)."""

    def __init__(self, settings: Settings, timeout: int = REQUEST_TIMEOUT) -> None:
        self.settings = settings
        self.timeout = timeout
        self._lock = threading.Lock()
        self._clients: dict[int | None, github.Github] = {}
        self._login: str | None = settings.bot_login

    def _options(self) -> dict[str, Any]:
        return {
            "base_url": self.settings.api_url,
            "timeout": self.timeout,
            "per_page": PER_PAGE,
            "retry": None,
            "seconds_between_requests": None,
            "seconds_between_writes": self.settings.seconds_between_writes or None,
        }

    def client(self, installation_id: int | None) -> github.Github:
        key = installation_id if self.settings.app_auth else None
        with self._lock:
            if key not in self._clients:
                self._clients[key] = self._new(key)
            return self._clients[key]

    def for_repo(self, full_name: str) -> tuple[github.Github, int | None]:
        """A client for one repository, and for an App the installation that covers it."""
        if not self.settings.app_auth:
            return self.client(None), None
        app = Auth.AppAuth(self.settings.app_id, self.settings.app_private_key)  # type: ignore[arg-type]
        integration = github.GithubIntegration(auth=app, base_url=self.settings.api_url)
        owner, _, name = full_name.partition("/")
        installation = guarded(lambda: integration.get_repo_installation(owner, name))
        return self.client(installation.id), installation.id

    def forget(self, installation_id: int | None) -> None:
        with self._lock:
            self._clients.pop(installation_id, None)

    def _new(self, installation_id: int | None) -> github.Github:
        if not self.settings.app_auth:
            return github.Github(auth=Auth.Token(self.settings.token or ""), **self._options())
        if installation_id is None:
            raise Gone("an App needs the installation id that GitHub sends with each event")
        app = Auth.AppAuth(self.settings.app_id, self.settings.app_private_key)  # type: ignore[arg-type]
        return github.Github(auth=app.get_installation_auth(installation_id), **self._options())

    def bot_login(self, installation_id: int | None) -> str:
        if self._login is None:
            if self.settings.app_auth:
                app = Auth.AppAuth(self.settings.app_id, self.settings.app_private_key)  # type: ignore[arg-type]
                integration = github.GithubIntegration(auth=app, base_url=self.settings.api_url)
                self._login = f"{guarded(lambda: integration.get_app().slug)}[bot]"
            else:
                self._login = guarded(lambda: self.client(installation_id).get_user().login)
        return self._login


class Repo:
    """One repository's issues, comments and labels as the worker needs them."""

    def __init__(self, client: github.Github, full_name: str, dry_run: bool) -> None:
        self.repo = guarded(lambda: client.get_repo(full_name))
        self.page_size = client.per_page
        self.full_name = full_name
        self.dry_run = dry_run
        # Labels seen to exist, for as long as this object is kept (the worker keeps one a few minutes): a label
        # is looked up once, not before every issue it goes on.
        self.labels_known: set[str] = set()

    def issue(self, number: int) -> Any:
        return guarded(lambda: self.repo.get_issue(number))

    def comments(self, issue: Any) -> list[Any]:
        """What the diagnosis reads of the thread: its first page and its newest page's worth, oldest first.

        Two or three GETs whatever the thread's length (the whole of it cost one GET per 30 comments on every
        delivery): the report the bot asks for is answered early, and what a delivery brings is at the end.
        """
        listing, size, count = issue.get_comments(), self.page_size, issue.comments
        if count == 0:  # the issue as just read says so: a new issue costs no listing
            return []
        last = max(0, count - 1) // size
        pages = sorted({0, last} | ({last - 1} if last and count % size else set()))
        read: dict[int, list[Any]] = {page: guarded(partial(listing.get_page, page)) for page in pages}
        head, tail = read[0], [c for page in pages[1:] for c in read[page]][-size:]
        seen = {c.id for c in head}
        return head + [c for c in tail if c.id not in seen]

    def all_comments(self, issue: Any) -> list[Any]:
        comments: list[Any] = guarded(lambda: list(issue.get_comments()))  # PyGithub walks every page
        return comments

    def comments_since(self, issue: Any, since: datetime) -> list[Any]:
        """The comments created or edited at `since` (UTC) or later: what changed, not the thread."""
        comments: list[Any] = guarded(lambda: list(issue.get_comments(since=since.astimezone(timezone.utc))))
        return comments

    def comment(self, issue: Any, comment_id: int) -> Any | None:
        """One comment of this issue by its id; None when it is gone (or, by a stale id, another issue's)."""
        try:
            comment = guarded(lambda: issue.get_comment(comment_id))
        except Gone:
            return None
        return comment if str(comment.issue_url).endswith(f"/issues/{issue.number}") else None

    def label_history(self, issue: Any, bot: str) -> LabelHistory:
        """Who added and removed which labels: the bot's provenance, read from the issue's own timeline."""
        events = guarded(lambda: list(issue.get_events()))
        history = LabelHistory()
        for event in events:
            if event.label is None or event.event not in ("labeled", "unlabeled"):
                continue
            by_bot = event.actor is not None and event.actor.login == bot
            if event.event == "labeled" and by_bot:
                history.added_by_bot.add(event.label.name)
            elif event.event == "unlabeled" and not by_bot:
                history.removed_by_others.add(event.label.name)
        return history

    def write(self, what: str, call: Callable[[], Any]) -> Any:
        if self.dry_run:
            log.info("dry run: would %s on %s", what, self.full_name)
            return None
        log.info("%s on %s", what, self.full_name)
        return guarded(call)

    def ensure_label(self, name: str, color: str, description: str) -> None:
        if name in self.labels_known:
            return
        try:
            guarded(lambda: self.repo.get_label(name))
            self.labels_known.add(name)
        except Gone:
            try:
                self.write(f"create label {name!r}", lambda: self.repo.create_label(name, color, description[:100]))
            except GithubException as exc:
                if exc.status != 422:  # 422 already_exists: another worker created it a moment ago
                    raise
            if not self.dry_run:
                self.labels_known.add(name)


@dataclass
class LabelHistory:
    added_by_bot: set[str] = field(default_factory=set)
    removed_by_others: set[str] = field(default_factory=set)


class ConfigCache:
    """Each repository's .github/envtriage.yml, read through the API and kept for a few minutes."""

    def __init__(self, ttl: float = CONFIG_TTL) -> None:
        self.ttl = ttl
        self._lock = threading.Lock()
        self._entries: dict[str, tuple[float, RepoConfig]] = {}

    def get(self, repo: Repo) -> RepoConfig:
        with self._lock:
            entry = self._entries.get(repo.full_name)
            if entry and time.monotonic() - entry[0] < self.ttl:
                return entry[1]
        config = self._read(repo)
        with self._lock:
            self._entries[repo.full_name] = (time.monotonic(), config)
        return config

    def _read(self, repo: Repo) -> RepoConfig:
        try:
            content = guarded(lambda: repo.repo.get_contents(CONFIG_PATH))
        except Gone:
            return RepoConfig()
        except GithubException as exc:
            if exc.status != 403:
                raise
            # An App installed without contents (or single-file) read permission: the defaults apply.
            log.warning("%s: no permission to read %s, using defaults", repo.full_name, CONFIG_PATH)
            return RepoConfig()
        try:
            return parse(content.decoded_content.decode("utf-8", errors="replace"))
        except ConfigError as exc:
            log.warning("%s: %s is invalid, using defaults: %s", repo.full_name, CONFIG_PATH, exc)
            return RepoConfig()
