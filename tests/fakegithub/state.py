"""The fake's in-memory state, and the helpers that build and change GitHub's JSON objects in it."""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, TypeVar, cast
from urllib.parse import quote, urlencode

from tests.fakegithub.model import (
    PH,
    RATE_LIMIT,
    TS,
    Call,
    _Failure,
    _HTTPError,
    _int,
    _issue_of,
    _Json,
    _reactions,
    _Repo,
    _Req,
    _Resp,
)

_T = TypeVar("_T")


class _State:
    """What every part of FakeGitHub shares: its settings, its recordings and the repositories."""

    def __init__(self, bot_login: str, app_id: int, installation_id: int, app_slug: str) -> None:
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
        self._base = "http://127.0.0.1"  # the url; kept after stop() for requests still in flight

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

    def _page(self, req: _Req, items: list[Any]) -> _Resp:
        """One page (per_page default 30, max 100) and GitHub's Link header."""
        per_page, page = min(max(_int(req.query, "per_page", 30), 1), 100), max(_int(req.query, "page", 1), 1)
        last = max(1, -(-len(items) // per_page))

        def link(to: int, rel: str) -> str:
            return f'<{self._base}{req.path}?{urlencode({**req.query, "page": to})}>; rel="{rel}"'

        links = [link(page - 1, "prev"), link(1, "first")] if page > 1 else []
        links += [link(page + 1, "next"), link(last, "last")] if page < last else []
        return 200, items[(page - 1) * per_page : page * per_page], {"Link": ", ".join(links)} if links else {}


@dataclass
class _Ctx:
    """A routed request: path parameters resolved lazily into the repo and issue (404 when absent)."""

    fake: _State
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
