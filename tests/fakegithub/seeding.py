"""Seeding the fake's state as a test's "given", and inspecting it afterwards."""

from __future__ import annotations

from typing import Any

from tests.fakegithub.model import PH, WRITE_METHODS, Call, _issue_of, _Json, _reactions, _Repo
from tests.fakegithub.state import _State


class _Seeding(_State):
    """What a test calls directly: seeding the state it starts from, and inspecting what it ended as."""

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
