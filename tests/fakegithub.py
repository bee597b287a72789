"""An in-memory fake of the GitHub REST API, served over loopback HTTP for PyGithub to talk to.

``github.Github(auth=github.Auth.Token("t"), base_url=fake.url)`` works against it. State is seeded with helpers
(``add_repo``, ``add_issue``, ...), every request is recorded in ``fake.calls``, and failures, rate limits and
slowness can be injected. Stored JSON uses the placeholder base ``PH``, replaced by ``fake.url`` on the way out.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email.message import Message
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar, cast
from urllib.parse import parse_qsl, quote, unquote, urlencode

import pytest

PH = "http://fakegithub.invalid"
TS = "%Y-%m-%dT%H:%M:%SZ"
DOCS_URL = "https://docs.github.com/rest"
WRITE_METHODS = frozenset({"POST", "PATCH", "PUT", "DELETE"})
RATE_LIMIT = 5000
SECONDARY_MESSAGE = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. "
    "If you reach out to GitHub Support for help, please include the request ID."
)
_PARAMS = {
    "{repo}": r"(?P<repo>[^/]+/[^/]+)",
    "{n}": r"(?P<n>\d+)",
    "{id}": r"(?P<id>\d+)",
    "{name}": r"(?P<name>[^/]+)",
    "{path}": r"(?P<path>.+)",
}
_ROUTES = [
    ("GET", "/user", "_h_user"),
    ("GET", "/rate_limit", "_h_rate_limit"),
    ("GET", "/app", "_h_app"),
    ("POST", "/app/installations/{id}/access_tokens", "_h_mint_token"),
    ("GET", "/repos/{repo}/installation", "_h_repo_installation"),
    ("GET", "/repos/{repo}", "_h_repo"),
    ("GET", "/repos/{repo}/issues", "_h_list_issues"),
    ("GET", "/repos/{repo}/issues/comments/{id}", "_h_get_comment"),
    ("PATCH", "/repos/{repo}/issues/comments/{id}", "_h_edit_comment"),
    ("DELETE", "/repos/{repo}/issues/comments/{id}", "_h_delete_comment"),
    ("GET", "/repos/{repo}/issues/{n}", "_h_get_issue"),
    ("GET", "/repos/{repo}/issues/{n}/comments", "_h_list_comments"),
    ("POST", "/repos/{repo}/issues/{n}/comments", "_h_create_comment"),
    ("GET", "/repos/{repo}/issues/{n}/labels", "_h_issue_labels"),
    ("POST", "/repos/{repo}/issues/{n}/labels", "_h_add_labels"),
    ("DELETE", "/repos/{repo}/issues/{n}/labels/{name}", "_h_remove_label"),
    ("GET", "/repos/{repo}/issues/{n}/events", "_h_events"),
    ("GET", "/repos/{repo}/issues/{n}/timeline", "_h_timeline"),
    ("GET", "/repos/{repo}/labels", "_h_list_labels"),
    ("POST", "/repos/{repo}/labels", "_h_create_label"),
    ("GET", "/repos/{repo}/labels/{name}", "_h_get_label"),
    ("GET", "/repos/{repo}/contents/{path}", "_h_contents"),
]
_Resp = tuple[int, Any, dict[str, str]]
_Json = dict[str, Any]
_T = TypeVar("_T")


@dataclass(frozen=True)
class Call:
    """One request the fake answered (injected failures included); path is as sent, still percent-encoded."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    headers: dict[str, str]
    status: int


@dataclass
class _Failure:
    remaining: int
    status: int
    method: str | None
    path_regex: str | None
    headers: dict[str, str]
    body: Any

    def matches(self, method: str, path: str) -> bool:
        if self.remaining <= 0 or (self.method and self.method.upper() != method):
            return False
        return self.path_regex is None or re.search(self.path_regex, path) is not None


@dataclass
class _Req:
    method: str
    path: str
    query: dict[str, str]
    body: Any
    headers: Message  # case-insensitive .get()
    bad_json: bool = False


@dataclass
class _Repo:
    json: _Json
    issues: dict[int, _Json] = field(default_factory=dict)
    comments: dict[int, _Json] = field(default_factory=dict)
    labels: dict[str, _Json] = field(default_factory=dict)  # key: lower-cased name
    events: dict[int, list[_Json]] = field(default_factory=dict)  # key: issue number
    files: dict[tuple[str, str], str] = field(default_factory=dict)  # key: (ref, path)
    next_number: int = 1

    @property
    def name(self) -> str:
        return str(self.json["full_name"])


class _HTTPError(LookupError):
    def __init__(self, status: int, message: str = "Not Found", **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


@dataclass
class _Ctx:
    """A routed request: path parameters resolved lazily into the repo and issue (404 when absent)."""

    fake: FakeGitHub
    req: _Req
    p: dict[str, str]

    @property
    def repo(self) -> _Repo:
        return self.fake._repo(self.p["repo"])

    @property
    def issue(self) -> _Json:
        return _issue_of(self.repo, int(self.p["n"]))

    @property
    def body(self) -> _Json:
        return self.req.body if isinstance(self.req.body, dict) else {}


def _find(table: dict[Any, _Json], key: Any) -> _Json:
    if key not in table:
        raise _HTTPError(404)
    return table[key]


def _issue_of(repo: _Repo, number: int) -> _Json:
    return _find(repo.issues, number)


def _error(message: str, **extra: Any) -> _Json:
    return {"message": message, **extra, "documentation_url": DOCS_URL}


def _norm_ts(value: str) -> str:
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(timezone.utc).strftime(TS)
    except ValueError:
        raise _HTTPError(422, "Validation Failed") from None


def _int(query: dict[str, str], key: str, default: int) -> int:
    value = query.get(key, "")
    return int(value) if value.isdigit() else default


def _reactions(url: str) -> _Json:
    keys = ("+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes")
    return {"url": f"{url}/reactions", "total_count": 0, **dict.fromkeys(keys, 0)}


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_GET(self) -> None:
        self.server.fake._serve(self)

    do_POST = do_PATCH = do_PUT = do_DELETE = do_GET

    def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
        return


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, fake: FakeGitHub) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.fake = fake

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a client that gave up waiting is no error
            super().handle_error(request, client_address)


class FakeGitHub:
    """A thread-safe fake GitHub REST server; see the module docstring."""

    def __init__(
        self,
        bot_login: str = "envtriage[bot]",
        app_id: int = 4242,
        installation_id: int = 42,
        app_slug: str = "envtriage",
    ) -> None:
        self.bot_login, self.app_id, self.installation_id, self.app_slug = bot_login, app_id, installation_id, app_slug
        self.delay = 0.0
        self.calls: list[Call] = []
        self.jwts: list[str] = []
        self.minted_tokens: list[str] = []
        self.clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc)
        self.rate_remaining, self.rate_reset = RATE_LIMIT, int(time.time()) + 3600
        self._lock = threading.RLock()
        self._stopping = threading.Event()
        self._ids = itertools.count(1001)
        self._user_ids: dict[str, int] = {}
        self._repos: dict[str, _Repo] = {}
        self._failures: list[_Failure] = []
        self._server: _Server | None = None
        self._base = "http://127.0.0.1"  # the url; kept after stop() for requests still in flight
        self._routes: list[tuple[str, re.Pattern[str], Callable[[_Ctx], _Resp]]] = [
            (m, re.compile(re.sub(r"\{\w+\}", lambda k: _PARAMS[k[0]], p)), getattr(self, h)) for m, p, h in _ROUTES
        ]

    # ------------------------------------------------------------------------------------------ lifecycle
    received: int = 0

    def start(self) -> FakeGitHub:
        self._stopping.clear()
        self._server = _Server(self)
        self._base = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, name="fakegithub", daemon=True
        ).start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes requests sleeping in `delay`
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeGitHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("FakeGitHub is not started")
        return self._base

    # ------------------------------------------------------------------------------------------ seeding
    def add_repo(self, full_name: str, default_branch: str = "main") -> _Json:
        with self._lock:
            rid, base, now = next(self._ids), f"{PH}/repos/{full_name}", self._now()
            repo = _Repo(
                {
                    "id": rid,
                    "node_id": f"R_fake{rid}",
                    "name": full_name.split("/")[1],
                    "full_name": full_name,
                    "owner": self._user(full_name.split("/")[0], "Organization"),
                    "private": False,
                    "fork": False,
                    "archived": False,
                    "url": base,
                    "visibility": "public",
                    "html_url": f"https://github.com/{full_name}",
                    "issues_url": f"{base}/issues{{/number}}",
                    "labels_url": f"{base}/labels{{/name}}",
                    "contents_url": f"{base}/contents/{{+path}}",
                    "default_branch": default_branch,
                    "has_issues": True,
                    "open_issues_count": 0,
                    "created_at": now,
                    "updated_at": now,
                    "pushed_at": now,
                }
            )
            self._repos[full_name.lower()] = repo
            return self._out(repo.json)

    def add_issue(
        self,
        repo: str,
        number: int | None = None,
        title: str = "Issue",
        body: str = "",
        user: str = "alice",
        user_type: str = "User",
        labels: list[str] | None = None,
        state: str = "open",
        created_at: str | None = None,
        author_association: str = "NONE",
    ) -> _Json:
        """Seed an issue; missing labels are created in the repo; no label events are recorded."""
        with self._lock:
            r, now, iid, closed = self._repo(repo), created_at or self._now(), next(self._ids), state == "closed"
            number = r.next_number if number is None else number
            r.next_number = max(r.next_number, number + 1)
            url = f"{PH}/repos/{r.name}/issues/{number}"
            r.issues[number] = {
                "url": url,
                "repository_url": f"{PH}/repos/{r.name}",
                "labels_url": f"{url}/labels{{/name}}",
                "comments_url": f"{url}/comments",
                "events_url": f"{url}/events",
                "timeline_url": f"{url}/timeline",
                "html_url": f"https://github.com/{r.name}/issues/{number}",
                "id": iid,
                "node_id": f"I_fake{iid}",
                "number": number,
                "title": title,
                "body": body,
                "user": self._user(user, user_type),
                "labels": [self._label(r, name) for name in labels or []],
                "state": state,
                "locked": False,
                "state_reason": "completed" if closed else None,
                "assignee": None,
                "assignees": [],
                "milestone": None,
                "comments": 0,
                "created_at": now,
                "updated_at": now,
                "closed_at": now if closed else None,
                "author_association": author_association,
                "active_lock_reason": None,
                "performed_via_github_app": None,
                "reactions": _reactions(url),
            }
            return self._out(r.issues[number])

    def add_comment(
        self,
        repo: str,
        number: int,
        body: str,
        user: str = "bob",
        user_type: str = "User",
        created_at: str | None = None,
        author_association: str = "NONE",
    ) -> _Json:
        with self._lock:
            r = self._repo(repo)
            issue = _issue_of(r, number)
            return self._out(self._new_comment(r, issue, body, (user, user_type), created_at, author_association))

    def add_label(self, repo: str, name: str, color: str = "ededed", description: str = "") -> _Json:
        with self._lock:
            label = self._label(self._repo(repo), name)
            label.update(color=color.lstrip("#"), description=description)
            return self._out(label)

    def set_file(self, repo: str, path: str, text: str, ref: str | None = None) -> None:
        with self._lock:
            r = self._repo(repo)
            r.files[(ref or r.json["default_branch"], path.strip("/"))] = text

    def human_label(
        self, repo: str, number: int, label: str, actor: str = "maintainer", actor_type: str = "User"
    ) -> None:
        with self._lock:
            r = self._repo(repo)
            self._attach(r, _issue_of(r, number), label, (actor, actor_type))

    def human_unlabel(
        self, repo: str, number: int, label: str, actor: str = "maintainer", actor_type: str = "User"
    ) -> None:
        with self._lock:
            r = self._repo(repo)
            self._detach(r, _issue_of(r, number), label, (actor, actor_type))

    # ------------------------------------------------------------------------------------------ inspection
    def issue(self, repo: str, number: int) -> _Json:
        with self._lock:
            return self._out(_issue_of(self._repo(repo), number))

    def edit_issue(self, repo: str, number: int, **fields: Any) -> None:
        """A person edits the issue (body, title, state) in the web UI."""
        with self._lock:
            issue = _issue_of(self._repo(repo), number)
            issue.update(fields)
            issue["updated_at"] = self._now()

    def comments_on(self, repo: str, number: int) -> list[_Json]:
        with self._lock:
            r = self._repo(repo)
            return self._out(self._comments_of(r, _issue_of(r, number)))

    def labels_on(self, repo: str, number: int) -> list[str]:
        with self._lock:
            return [lab["name"] for lab in _issue_of(self._repo(repo), number)["labels"]]

    def repo_labels(self, repo: str) -> list[_Json]:
        with self._lock:
            return self._out(list(self._repo(repo).labels.values()))

    def events_on(self, repo: str, number: int) -> list[_Json]:
        with self._lock:
            return self._out(self._repo(repo).events.get(number, []))

    @property
    def token_mints(self) -> int:
        return len(self.minted_tokens)

    def write_calls(self) -> list[Call]:
        with self._lock:
            return [c for c in self.calls if c.method in WRITE_METHODS]

    def reset_calls(self) -> None:
        with self._lock:
            self.calls.clear()

    # ------------------------------------------------------------------------------------------ failures
    def fail_next(
        self,
        n: int = 1,
        status: int = 500,
        method: str | None = None,
        path_regex: str | None = None,
        headers: dict[str, str] | None = None,
        body: Any = None,
    ) -> None:
        """The next n requests matching method and path_regex (re.search) get this answer instead."""
        body = _error(HTTPStatus(status).phrase) if body is None else body
        with self._lock:
            self._failures.append(_Failure(n, status, method, path_regex, dict(headers or {}), body))

    def secondary_rate_limit_next(
        self, n: int = 1, retry_after: int = 1, method: str | None = None, path_regex: str | None = None
    ) -> None:
        self.fail_next(n, 403, method, path_regex, {"Retry-After": str(retry_after)}, _error(SECONDARY_MESSAGE))

    def rate_limited_next(
        self, n: int = 1, reset_in: int = 1, method: str | None = None, path_regex: str | None = None
    ) -> None:
        """Primary rate limit; X-RateLimit-Reset is fixed now, at reset_in seconds from now."""
        headers = {
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Used": str(RATE_LIMIT),
            "X-RateLimit-Reset": str(int(time.time()) + reset_in),
        }
        body = _error(f"API rate limit exceeded for installation ID {self.installation_id}.")
        self.fail_next(n, 403, method, path_regex, headers, body)

    def too_many_requests_next(
        self, n: int = 1, retry_after: int = 1, method: str | None = None, path_regex: str | None = None
    ) -> None:
        self.fail_next(n, 429, method, path_regex, {"Retry-After": str(retry_after)}, _error("Too Many Requests"))

    # ------------------------------------------------------------------------------------------ HTTP plumbing
    def _serve(self, h: _Handler) -> None:
        req = self._read(h)
        with self._lock:
            self.received += 1  # counted on arrival, before any delay: "a request is in flight"
        if self.delay > 0:
            self._stopping.wait(self.delay)
        with self._lock:
            status, payload, extra = self._dispatch(req)
            text = "" if payload is None or status in (204, 304) else json.dumps(payload).replace(PH, self._base)
            status, body, headers = self._finish(req, status, text.encode(), extra)
            self.calls.append(Call(req.method, req.path, req.query, req.body, dict(req.headers), status))
        h.send_response(status)
        for key, value in headers.items():
            h.send_header(key, value)
        h.end_headers()
        h.wfile.write(body)

    @staticmethod
    def _read(h: _Handler) -> _Req:
        path, _, query = h.path.partition("?")
        args = (h.command, path.rstrip("/") or "/", dict(parse_qsl(query, keep_blank_values=True)))
        raw = h.rfile.read(int(h.headers.get("Content-Length") or 0))
        try:
            return _Req(*args, json.loads(raw) if raw else None, h.headers)
        except ValueError:
            return _Req(*args, raw.decode("utf-8", "replace"), h.headers, bad_json=True)

    def _dispatch(self, req: _Req) -> _Resp:
        failure = next((f for f in self._failures if f.matches(req.method, req.path)), None)
        if failure is not None:
            failure.remaining -= 1
            return failure.status, failure.body, dict(failure.headers)
        if req.bad_json:
            return 400, _error("Problems parsing JSON"), {}
        for method, regex, handler in self._routes:
            match = regex.fullmatch(req.path)
            if match and method == req.method:
                try:
                    return handler(_Ctx(self, req, {k: unquote(v) for k, v in match.groupdict().items()}))
                except _HTTPError as err:
                    return err.status, _error(err.message, **err.extra), {}
                except Exception as exc:  # a bug in the fake: answer it rather than drop the connection
                    return 500, _error(f"fakegithub internal error: {exc!r}"), {}
        return 404, _error("Not Found"), {}

    def _finish(self, req: _Req, status: int, body: bytes, extra: dict[str, str]) -> tuple[int, bytes, dict[str, str]]:
        headers = {
            "Content-Type": "application/json; charset=utf-8",
            "X-GitHub-Api-Version-Selected": "2022-11-28",
            "X-GitHub-Request-Id": f"FAKE:{len(self.calls) + 1}",
        }
        if req.method == "GET" and status == 200:
            headers["ETag"] = f'W/"{hashlib.sha256(body).hexdigest()}"'
            wanted = {t.strip().removeprefix("W/") for t in req.headers.get("If-None-Match", "").split(",")}
            if headers["ETag"][2:] in wanted:
                status, body = 304, b""
        if status != 304 and req.path != "/rate_limit":  # like GitHub, 304s and /rate_limit are free
            self.rate_remaining = max(0, self.rate_remaining - 1)
        headers.update(self._rate_headers())
        overridden = {k.lower() for k in extra}
        headers = {k: v for k, v in headers.items() if k.lower() not in overridden} | extra
        return status, body, headers | {"Content-Length": str(len(body))}

    def _rate_headers(self) -> dict[str, str]:
        if time.time() >= self.rate_reset:
            self.rate_remaining, self.rate_reset = RATE_LIMIT, int(time.time()) + 3600
        return {
            "X-RateLimit-Limit": str(RATE_LIMIT),
            "X-RateLimit-Remaining": str(self.rate_remaining),
            "X-RateLimit-Reset": str(self.rate_reset),
            "X-RateLimit-Used": str(RATE_LIMIT - self.rate_remaining),
            "X-RateLimit-Resource": "core",
        }

    def _page(self, req: _Req, items: list[Any]) -> _Resp:
        """One page (per_page default 30, max 100) and GitHub's Link header."""
        per_page, page = min(max(_int(req.query, "per_page", 30), 1), 100), max(_int(req.query, "page", 1), 1)
        last = max(1, -(-len(items) // per_page))

        def link(to: int, rel: str) -> str:
            return f'<{self._base}{req.path}?{urlencode({**req.query, "page": to})}>; rel="{rel}"'

        links = [link(page - 1, "prev"), link(1, "first")] if page > 1 else []
        links += [link(page + 1, "next"), link(last, "last")] if page < last else []
        return 200, items[(page - 1) * per_page : page * per_page], {"Link": ", ".join(links)} if links else {}

    # ------------------------------------------------------------------------------------------ state
    def _now(self) -> str:
        return self.clock().astimezone(timezone.utc).strftime(TS)

    def _out(self, obj: _T) -> _T:
        """A deep copy of stored JSON, with real URLs."""
        return cast(_T, json.loads(json.dumps(obj).replace(PH, self._base)))

    def _repo(self, full_name: str) -> _Repo:
        if full_name.lower() not in self._repos:
            raise _HTTPError(404)
        return self._repos[full_name.lower()]  # not _find: the table holds _Repo objects

    @property
    def _bot(self) -> tuple[str, str]:
        return self.bot_login, "Bot" if self.bot_login.endswith("[bot]") else "User"

    def _user(self, login: str, user_type: str = "User") -> _Json:
        uid = self._user_ids.setdefault(login, 1 + len(self._user_ids))
        return {
            "login": login,
            "id": uid,
            "node_id": f"U_fake{uid}",
            "type": user_type,
            "site_admin": False,
            "avatar_url": f"https://avatars.githubusercontent.com/u/{uid}?v=4",
            "url": f"{PH}/users/{login}",
            "html_url": f"https://github.com/{login}",
        }

    def _label(self, repo: _Repo, name: str) -> _Json:
        """The repo's label called name (case-insensitively), created with GitHub's default colour if missing."""
        if name.lower() not in repo.labels:
            lid, url = next(self._ids), f"{PH}/repos/{repo.name}/labels/{quote(name, safe='')}"
            repo.labels[name.lower()] = {
                "id": lid,
                "node_id": f"LA_fake{lid}",
                "url": url,
                "name": name,
                "color": "ededed",
                "description": "",
                "default": False,
            }
        return repo.labels[name.lower()]

    def _comments_of(self, repo: _Repo, issue: _Json) -> list[_Json]:
        return [c for c in repo.comments.values() if c["issue_url"] == issue["url"]]

    def _new_comment(
        self,
        repo: _Repo,
        issue: _Json,
        body: str,
        user: tuple[str, str],
        created_at: str | None = None,
        association: str = "NONE",
    ) -> _Json:
        cid, now = next(self._ids), created_at or self._now()
        url = f"{PH}/repos/{repo.name}/issues/comments/{cid}"
        repo.comments[cid] = {
            "id": cid,
            "node_id": f"IC_fake{cid}",
            "url": url,
            "body": body,
            "html_url": f"{issue['html_url']}#issuecomment-{cid}",
            "issue_url": issue["url"],
            "user": self._user(*user),
            "created_at": now,
            "updated_at": now,
            "author_association": association,
            "performed_via_github_app": None,
            "reactions": _reactions(url),
        }
        issue.update(comments=issue["comments"] + 1, updated_at=max(issue["updated_at"], now))
        return repo.comments[cid]

    def _attach(self, repo: _Repo, issue: _Json, name: str, actor: tuple[str, str]) -> None:
        label = self._label(repo, name)
        if label not in issue["labels"]:
            issue["labels"].append(label)
            self._event(repo, issue, "labeled", label, actor)

    def _detach(self, repo: _Repo, issue: _Json, name: str, actor: tuple[str, str]) -> None:
        label = next((lab for lab in issue["labels"] if lab["name"].lower() == name.lower()), None)
        if label is None:
            raise _HTTPError(404, "Label does not exist")
        issue["labels"].remove(label)
        self._event(repo, issue, "unlabeled", label, actor)

    def _event(self, repo: _Repo, issue: _Json, kind: str, label: _Json, actor: tuple[str, str]) -> None:
        eid, now = next(self._ids), self._now()
        repo.events.setdefault(issue["number"], []).append(
            {
                "id": eid,
                "node_id": f"LE_fake{eid}",
                "url": f"{PH}/repos/{repo.name}/issues/events/{eid}",
                "actor": self._user(*actor),
                "event": kind,
                "commit_id": None,
                "commit_url": None,
                "created_at": now,
                "label": {"name": label["name"], "color": label["color"]},
                "performed_via_github_app": None,
            }
        )
        issue["updated_at"] = max(issue["updated_at"], now)

    # ------------------------------------------------------------------------------------------ routes
    def _h_user(self, c: _Ctx) -> _Resp:
        return 200, self._user(*self._bot), {}

    def _h_rate_limit(self, c: _Ctx) -> _Resp:
        used = RATE_LIMIT - self.rate_remaining
        core = {
            "limit": RATE_LIMIT,
            "remaining": self.rate_remaining,
            "reset": self.rate_reset,
            "used": used,
            "resource": "core",
        }
        search = {**core, "limit": 30, "remaining": 30, "used": 0, "resource": "search"}
        graphql = {**core, "remaining": RATE_LIMIT, "used": 0, "resource": "graphql"}
        return 200, {"resources": {"core": core, "search": search, "graphql": graphql}, "rate": core}, {}

    def _app_auth(self, c: _Ctx) -> _Json:
        """App endpoints want a Bearer JWT: recorded, never verified."""
        auth = c.req.headers.get("Authorization", "")
        if not auth.lower().startswith("bearer "):
            raise _HTTPError(401, "A JSON web token could not be decoded")
        self.jwts.append(auth.split(" ", 1)[1])
        return {
            "app_id": self.app_id,
            "app_slug": self.app_slug,
            "created_at": self._now(),
            "updated_at": self._now(),
            "permissions": {"issues": "write", "contents": "read"},
            "events": ["issues", "issue_comment"],
        }

    def _h_app(self, c: _Ctx) -> _Resp:
        common = self._app_auth(c)
        return (
            200,
            {
                **common,
                "id": self.app_id,
                "slug": self.app_slug,
                "node_id": f"A_fake{self.app_id}",
                "name": self.app_slug,
                "owner": self._user("octo-org", "Organization"),
                "description": "",
                "external_url": "https://example.invalid",
                "html_url": f"https://github.com/apps/{self.app_slug}",
            },
            {},
        )

    def _h_mint_token(self, c: _Ctx) -> _Resp:
        common = self._app_auth(c)
        if int(c.p["id"]) != self.installation_id:
            raise _HTTPError(404)
        self.minted_tokens.append(f"ghs_fake{len(self.minted_tokens) + 1:032d}")
        expires = (self.clock() + timedelta(hours=1)).astimezone(timezone.utc).strftime(TS)
        return (
            201,
            {
                "token": self.minted_tokens[-1],
                "expires_at": expires,
                "repository_selection": "selected",
                "permissions": common["permissions"],
            },
            {},
        )

    def _h_repo_installation(self, c: _Ctx) -> _Resp:
        common, repo, iid = self._app_auth(c), c.repo, self.installation_id
        return (
            200,
            {
                **common,
                "id": iid,
                "account": repo.json["owner"],
                "target_type": "Organization",
                "repository_selection": "selected",
                "single_file_name": None,
                "access_tokens_url": f"{PH}/app/installations/{iid}/access_tokens",
                "repositories_url": f"{PH}/installation/repositories",
                "html_url": f"https://github.com/settings/installations/{iid}",
            },
            {},
        )

    def _h_repo(self, c: _Ctx) -> _Resp:
        repo = c.repo
        return 200, {**repo.json, "open_issues_count": sum(i["state"] == "open" for i in repo.issues.values())}, {}

    def _h_list_issues(self, c: _Ctx) -> _Resp:
        q, state = c.req.query, c.req.query.get("state", "open")
        items = [i for i in c.repo.issues.values() if state in ("all", i["state"])]
        since = _norm_ts(q["since"]) if q.get("since") else ""
        wanted = {x.strip().lower() for x in q.get("labels", "").split(",") if x.strip()}
        items = [i for i in items if i["updated_at"] >= since and wanted <= {x["name"].lower() for x in i["labels"]}]
        sort = {"created": "created_at", "updated": "updated_at", "comments": "comments"}.get(q.get("sort", ""))
        items.sort(key=lambda i: (i[sort or "created_at"], i["number"]), reverse=q.get("direction") != "asc")
        return self._page(c.req, items)

    def _h_get_issue(self, c: _Ctx) -> _Resp:
        return 200, c.issue, {}

    def _h_list_comments(self, c: _Ctx) -> _Resp:
        since = _norm_ts(c.req.query["since"]) if c.req.query.get("since") else ""
        return self._page(c.req, [x for x in self._comments_of(c.repo, c.issue) if x["updated_at"] >= since])

    def _h_create_comment(self, c: _Ctx) -> _Resp:
        if not isinstance(c.body.get("body"), str) or not c.body["body"]:
            raise _HTTPError(422, "Validation Failed")
        return 201, self._new_comment(c.repo, c.issue, c.body["body"], self._bot), {}

    def _comment(self, c: _Ctx) -> _Json:
        return _find(c.repo.comments, int(c.p["id"]))

    def _h_get_comment(self, c: _Ctx) -> _Resp:
        return 200, self._comment(c), {}

    def _h_edit_comment(self, c: _Ctx) -> _Resp:
        comment = self._comment(c)
        if not isinstance(c.body.get("body"), str):
            raise _HTTPError(422, "Validation Failed")
        comment.update(body=c.body["body"], updated_at=self._now())
        return 200, comment, {}

    def _h_delete_comment(self, c: _Ctx) -> _Resp:
        comment = c.repo.comments.pop(self._comment(c)["id"])
        issue = next(i for i in c.repo.issues.values() if i["url"] == comment["issue_url"])
        issue["comments"] -= 1
        return 204, None, {}

    def _h_issue_labels(self, c: _Ctx) -> _Resp:
        return self._page(c.req, c.issue["labels"])

    def _h_add_labels(self, c: _Ctx) -> _Resp:
        """Body {"labels": [...]} or a bare list, of names or {"name": ...}; missing repo labels are created."""
        items = c.req.body.get("labels") if isinstance(c.req.body, dict) else c.req.body
        if not isinstance(items, list):
            raise _HTTPError(422, "Validation Failed")
        for item in items:
            self._attach(c.repo, c.issue, item["name"] if isinstance(item, dict) else str(item), self._bot)
        return 200, c.issue["labels"], {}

    def _h_remove_label(self, c: _Ctx) -> _Resp:
        self._detach(c.repo, c.issue, c.p["name"], self._bot)
        return 200, c.issue["labels"], {}

    def _h_events(self, c: _Ctx) -> _Resp:
        return self._page(c.req, c.repo.events.get(c.issue["number"], []))

    def _h_timeline(self, c: _Ctx) -> _Resp:
        items = list(c.repo.events.get(c.issue["number"], []))
        items += [{**x, "event": "commented", "actor": x["user"]} for x in self._comments_of(c.repo, c.issue)]
        return self._page(c.req, sorted(items, key=lambda i: (i["created_at"], i["id"])))

    def _h_list_labels(self, c: _Ctx) -> _Resp:
        return self._page(c.req, list(c.repo.labels.values()))

    def _h_create_label(self, c: _Ctx) -> _Resp:
        name = c.body.get("name")
        if not isinstance(name, str) or not name:
            raise _HTTPError(422, "Validation Failed")
        if name.lower() in c.repo.labels:
            errors = [{"resource": "Label", "code": "already_exists", "field": "name"}]
            raise _HTTPError(422, "Validation Failed", errors=errors)
        label = self._label(c.repo, name)
        label.update(color=str(c.body.get("color", "ededed")).lstrip("#"), description=c.body.get("description") or "")
        return 201, label, {}

    def _h_get_label(self, c: _Ctx) -> _Resp:
        return 200, _find(c.repo.labels, c.p["name"].lower()), {}

    def _h_contents(self, c: _Ctx) -> _Resp:
        repo, path = c.repo, c.p["path"].strip("/")
        ref = (c.req.query.get("ref") or str(repo.json["default_branch"])).removeprefix("refs/heads/")
        if (ref, path) not in repo.files:
            raise _HTTPError(404)
        raw = repo.files[(ref, path)].encode()
        sha = hashlib.sha1(b"blob %d\0" % len(raw) + raw).hexdigest()
        url, git = f"{PH}/repos/{repo.name}/contents/{quote(path)}?ref={ref}", f"{PH}/repos/{repo.name}/git/blobs/{sha}"
        html = f"https://github.com/{repo.name}/blob/{ref}/{path}"
        return (
            200,
            {
                "type": "file",
                "encoding": "base64",
                "size": len(raw),
                "name": path.rsplit("/", 1)[-1],
                "path": path,
                "content": base64.encodebytes(raw).decode(),
                "sha": sha,
                "url": url,
                "git_url": git,
                "html_url": html,
                "_links": {"self": url, "git": git, "html": html},
                "download_url": f"https://raw.githubusercontent.com/{repo.name}/{ref}/{path}",
            },
            {},
        )


@pytest.fixture
def fake_github() -> Iterator[FakeGitHub]:
    """A started FakeGitHub holding the repository "octo-org/octo-repo"; stopped afterwards."""
    with FakeGitHub() as fake:
        fake.add_repo("octo-org/octo-repo")
        yield fake
