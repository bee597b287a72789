"""The fake's constants, records and small helpers, shared by every part of it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.message import Message
from typing import Any

PH = "http://fakegithub.invalid"
TS = "%Y-%m-%dT%H:%M:%SZ"
DOCS_URL = "https://docs.github.com/rest"
WRITE_METHODS = frozenset({"POST", "PATCH", "PUT", "DELETE"})
RATE_LIMIT = 5000
SECONDARY_MESSAGE = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. "
    "If you reach out to GitHub Support for help, please include the request ID."
)
_Resp = tuple[int, Any, dict[str, str]]
_Json = dict[str, Any]


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
    hang: float = 0.0  # > 0: not an error answer; the request is carried out and answered this late (see hang_next)
    commit_late: bool = False  # the hang comes before the request is carried out, not after

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
