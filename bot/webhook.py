"""The webhook edge, without I/O: verify the signature, read the event, decide whether it is work.

GitHub signs the raw body with HMAC-SHA256 (`X-Hub-Signature-256: sha256=<hex>`); several secrets may be valid
at once while one is rotated. A redelivery carries the same `X-GitHub-Delivery`, which is how it is recognised.
"""

from __future__ import annotations

import fnmatch
import hashlib
import hmac
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.matrix import Index
from bot.readers import read_case
from bot.store import Delivery

# Issue events the bot acts on; the others (labeled, assigned, ...) never change a diagnosis.
TRIAGE_ACTIONS = {"opened", "edited", "reopened"}
INDEX_ACTIONS = {"closed", "deleted", "transferred"}
COMMENT_ACTIONS = {"created", "edited"}


class Rejected(Exception):
    """The request is refused; `status` is the HTTP answer and the message says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def verify_signature(body: bytes, header: str | None, secrets: tuple[str, ...]) -> None:
    """Fail closed: no secret configured, no header, or no secret matching, all refuse."""
    if not secrets:
        raise Rejected(401, "the server has no webhook secret configured")
    if not header or not header.startswith("sha256="):
        raise Rejected(401, "missing X-Hub-Signature-256")
    given = header.removeprefix("sha256=")
    for secret in secrets:
        expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        if hmac.compare_digest(expected, given):
            return
    raise Rejected(401, "signature does not match")


@dataclass(frozen=True)
class Scope:
    """Which deliveries this bot serves. A GitHub App gets deliveries from every installation, and one webhook
    secret may be shared by many repositories' hooks; `repositories` narrows that down."""

    repositories: tuple[str, ...] = ()  # "owner/repo" or "owner/*", case-insensitive; empty: every repository
    app: bool = False  # as a GitHub App, an issue delivery must name its installation (its token comes from it)

    def check(self, repo: str, installation: Any) -> None:
        if self.repositories and not any(fnmatch.fnmatchcase(repo.lower(), p.lower()) for p in self.repositories):
            raise Rejected(403, f"repository {repo} is not one this bot serves (ENVTRIAGE_REPOSITORIES)")
        if self.app and not isinstance(installation, int):
            raise Rejected(400, "a delivery for a GitHub App without installation.id: no token can act on it")


@dataclass(frozen=True)
class Decision:
    """What the edge does with a verified delivery: queue it, answer at once (ping), or ignore it (and why)."""

    outcome: str  # "queue", "pong", "ignore"
    reason: str
    delivery: Delivery | None = None


def parse(headers: Mapping[str, str], body: bytes, max_bytes: int) -> tuple[str, str, dict[str, Any]]:
    if len(body) > max_bytes:
        raise Rejected(413, f"payload larger than {max_bytes} bytes")
    event = headers.get("x-github-event", "")
    delivery = headers.get("x-github-delivery", "")
    if not event or not delivery or len(delivery) > 64:
        raise Rejected(400, "missing X-GitHub-Event or X-GitHub-Delivery")
    try:
        payload = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise Rejected(400, f"body is not JSON: {exc}") from exc
    if not isinstance(payload, dict):
        raise Rejected(400, "body is not a JSON object")
    return event, delivery, payload


def decide(
    event: str, delivery_id: str, payload: dict[str, Any], bot_login: str | None, matrix: Index, scope: Scope = Scope()
) -> Decision:
    """Raises Rejected for a delivery this bot must not act on (another repository, no installation)."""
    if event == "ping":
        return Decision("pong", "ping")
    action = payload.get("action")
    sender = _object(payload, "sender")
    if sender.get("type") == "Bot" or (bot_login and sender.get("login") == bot_login):
        return Decision("ignore", "sent by a bot")
    if event in ("installation", "installation_repositories"):
        return Decision("queue", "installation", _delivery(event, delivery_id, payload, None))
    issue = payload.get("issue")
    if event not in ("issues", "issue_comment") or not isinstance(issue, dict):
        return Decision("ignore", f"event {event} is not handled")
    if "pull_request" in issue:
        return Decision("ignore", "a pull request, not an issue")
    if not isinstance(_object(payload, "repository").get("full_name"), str) or not isinstance(issue.get("number"), int):
        return Decision("ignore", "no repository or issue number in the payload")
    scope.check(_object(payload, "repository")["full_name"], _object(payload, "installation").get("id"))
    if event == "issues" and action not in TRIAGE_ACTIONS | INDEX_ACTIONS:
        return Decision("ignore", f"issues.{action} changes no diagnosis")
    if event == "issue_comment" and action not in COMMENT_ACTIONS:
        return Decision("ignore", f"issue_comment.{action} changes no diagnosis")
    if action == "edited" and _unchanged(event, payload, matrix):
        return Decision("ignore", "the edit changed neither the report nor the error text")
    return Decision("queue", f"{event}.{action}", _delivery(event, delivery_id, payload, issue.get("number")))


def _object(data: dict[str, Any], key: str) -> dict[str, Any]:
    """A nested object of the payload, or {} when absent or (in a payload we did not expect) of another type."""
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _delivery(event: str, delivery_id: str, payload: dict[str, Any], number: Any) -> Delivery:
    repo = _object(payload, "repository").get("full_name")
    installation = _object(payload, "installation").get("id")
    return Delivery(
        delivery_id=delivery_id, event=event, action=_text(payload.get("action")), repo=_text(repo),
        number=number if isinstance(number, int) else None,
        installation_id=installation if isinstance(installation, int) else None, payload=payload,
    )  # fmt: skip


def _unchanged(event: str, payload: dict[str, Any], matrix: Index) -> bool:
    """An edit whose old text GitHub sent (`changes.body.from`) and that reads the same as the new text.

    Checkbox ticks and typo fixes are edits too; acting on them would churn the comment. Without the old text
    (GitHub sometimes sends `"changes": {}`) the worker compares against the digest it stored.
    """
    old = _object(_object(payload, "changes"), "body").get("from")
    if not isinstance(old, str):
        return False
    holder = payload.get("comment") if event == "issue_comment" else payload.get("issue")
    new = holder.get("body") if isinstance(holder, dict) else None
    if not isinstance(new, str):
        return False
    return digest(read_case(matrix, old)) == digest(read_case(matrix, new))


def digest(case: Any) -> str:
    """What the diagnosis depends on, hashed: the facts read and the error texts quoted."""
    from collector.report import to_json_obj

    facts = to_json_obj(case.report)["facts"]
    for entry in facts.values():
        entry.pop("source", None)  # where a fact was read does not change the diagnosis
        entry.pop("evidence", None)
    material = {"facts": facts, "errors": sorted(q.text for q in case.errors), "topics": sorted(case.topics)}
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()
