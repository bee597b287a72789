"""The webhook edge, without I/O: verify the signature, read the event, decide whether it is work.

GitHub signs the raw body with HMAC-SHA256 (`X-Hub-Signature-256: sha256=<hex>`); several secrets may be valid
at once while one is rotated. A redelivery carries the same `X-GitHub-Delivery`, which is how it is recognised.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.service.settings import serves
from bot.service.store import Delivery

# Issue events the bot acts on; the others (labeled, assigned, ...) never change a diagnosis.
TRIAGE_ACTIONS = {"opened", "edited", "reopened"}
INDEX_ACTIONS = {"closed", "deleted", "transferred"}
# A maintainer saying "not a duplicate": the duplicate label taken off (its name is the repository's setting, read
# by the worker), or this label put on. The suggested pairs are remembered as rejected.
LABEL_ACTIONS = {"labeled", "unlabeled"}
NOT_DUPLICATE_LABEL = "not-duplicate"
COMMENT_ACTIONS = {"created", "edited"}
# Bounds of the routing fields, checked before anything is stored. Issue numbers are GraphQL `Int` on GitHub
# (32-bit signed) and INTEGER columns here (PostgreSQL's int4); installation ids are 64-bit database ids (BIGINT).
MAX_ISSUE_NUMBER = 2**31 - 1
MAX_DATABASE_ID = 2**63 - 1
MAX_NAME = 64  # the event, action and delivery id columns
# What GitHub allows in an owner (39 characters) and a repository name (100 characters): one shape, no spaces.
FULL_NAME = re.compile(r"[A-Za-z0-9-]{1,39}/[A-Za-z0-9._-]{1,100}")
HEX_DIGITS = frozenset(string.hexdigits)


# What a refusal counts as in /metrics (envtriage_deliveries_total's outcome), by its HTTP answer.
REJECTED_AS = {400: "rejected_malformed", 401: "rejected_signature", 403: "rejected_repository",
               413: "rejected_too_large"}  # fmt: skip


class Rejected(Exception):
    """The request is refused; `status` is the HTTP answer, the message says why, `kind` names it in /metrics."""

    def __init__(self, status: int, message: str, kind: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind or REJECTED_AS.get(status, "rejected")


def verify_signature(body: bytes, header: str | None, secrets: tuple[str, ...]) -> None:
    """Fail closed: no secret configured, no header, or no secret matching, all refuse."""
    if not secrets:
        raise Rejected(401, "the server has no webhook secret configured")
    if not header or not header.startswith("sha256="):
        raise Rejected(401, "missing X-Hub-Signature-256")
    given = header.removeprefix("sha256=")
    if len(given) != 64 or not HEX_DIGITS.issuperset(given):  # compare_digest raises on non-ASCII text
        raise Rejected(401, "malformed X-Hub-Signature-256: not 64 hex digits")
    for secret in secrets:
        expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        if hmac.compare_digest(expected, given):
            return
    raise Rejected(401, "signature does not match")


@dataclass(frozen=True)
class Scope:
    """Which deliveries this bot serves. A GitHub App gets deliveries from every installation, and one webhook
    secret may be shared by many repositories' hooks; `repositories` narrows that down."""

    repositories: tuple[str, ...] = ()  # "owner/repo" or "owner/*", exactly as GitHub spells them; empty: every one
    app: bool = False  # as a GitHub App, an issue delivery must name its installation (its token comes from it)

    def check(self, repo: str, installation: Any) -> None:
        if self.repositories and not serves(self.repositories, repo):
            raise Rejected(403, f"repository {repo} is not one this bot serves (ENVTRIAGE_REPOSITORIES)")
        if self.app and not isinstance(installation, int):
            message = "a delivery for a GitHub App without installation.id: no token can act on it"
            raise Rejected(400, message, "rejected_no_installation")


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
    if not event or not delivery:
        raise Rejected(400, "missing X-GitHub-Event or X-GitHub-Delivery")
    if not (_name(event) and _name(delivery)):
        raise Rejected(400, f"X-GitHub-Event and X-GitHub-Delivery must be printable ASCII, at most {MAX_NAME} long")
    try:
        payload = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise Rejected(400, f"body is not JSON: {exc}") from exc
    if not isinstance(payload, dict):
        raise Rejected(400, "body is not a JSON object")
    return event, delivery, payload


def decide(event: str, delivery_id: str, payload: dict[str, Any], bot_login: str | None, scope: Scope = Scope()
           ) -> Decision:  # fmt: skip
    """Raises Rejected for a delivery this bot must not act on (another repository, no installation) or whose
    routing fields are of the wrong type or out of range.

    Only the routing fields are read: whatever reading an issue's text takes is the worker's, never the answer's.
    """
    if event == "ping":
        return Decision("pong", "ping")
    action = _routing(payload)
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
    repo, number = _object(payload, "repository").get("full_name"), issue.get("number")
    if repo is None or number is None:
        return Decision("ignore", "no repository or issue number in the payload")
    scope.check(repo, _object(payload, "installation").get("id"))
    if event == "issues" and action in LABEL_ACTIONS:
        return _label_decision(event, delivery_id, payload, action, number)
    if event == "issues" and action not in TRIAGE_ACTIONS | INDEX_ACTIONS:
        return Decision("ignore", f"issues.{action} changes no diagnosis")
    if event == "issue_comment" and action not in COMMENT_ACTIONS:
        return Decision("ignore", f"issue_comment.{action} changes no diagnosis")
    if action == "edited" and _same_text(event, payload):
        return Decision("ignore", "the edit changed neither the report nor the error text")
    return Decision("queue", f"{event}.{action}", _delivery(event, delivery_id, payload, number))


def _label_decision(event: str, delivery_id: str, payload: dict[str, Any], action: str, number: Any) -> Decision:
    """Queue the label changes that can reject a duplicate suggestion; ignore the rest."""
    name = _object(payload, "label").get("name")
    if action == "unlabeled" or name == NOT_DUPLICATE_LABEL:
        return Decision("queue", f"{event}.{action}", _delivery(event, delivery_id, payload, number))
    return Decision("ignore", "issues.labeled with another label changes no diagnosis")


def _routing(payload: dict[str, Any]) -> str | None:
    """Check the fields a delivery is routed and stored by; a wrong type or an out-of-range number is refused
    here, with a 400, instead of failing in a comparison or overflowing a column. Returns the action."""
    action = payload.get("action")
    if action is not None and not (isinstance(action, str) and _name(action)):
        raise Rejected(400, f"action must be a string of printable ASCII, at most {MAX_NAME} long")
    for key in ("repository", "installation", "issue"):
        if key in payload and not isinstance(payload[key], (dict, type(None))):
            raise Rejected(400, f"{key} must be an object")
    repo = _object(payload, "repository").get("full_name")
    if repo is not None and not (isinstance(repo, str) and FULL_NAME.fullmatch(repo)):
        raise Rejected(400, "repository.full_name must be OWNER/NAME as GitHub spells it")
    _integer(_object(payload, "issue").get("number"), "issue.number", MAX_ISSUE_NUMBER)
    _integer(_object(payload, "installation").get("id"), "installation.id", MAX_DATABASE_ID)
    return action


def _integer(value: Any, name: str, most: int) -> None:
    if value is not None and (type(value) is not int or not 1 <= value <= most):  # bool is an int to Python
        raise Rejected(400, f"{name} must be a whole number from 1 to {most}")


def _name(value: str) -> bool:
    return 0 < len(value) <= MAX_NAME and value.isascii() and value.isprintable()


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


def _same_text(event: str, payload: dict[str, Any]) -> bool:
    """An edit that left the text as it was: GitHub sent the old text (`changes.body.from`) and nothing else
    changed. A string comparison, no reading: whether an edit changes what the diagnosis reads (a ticked
    checkbox, a typo fixed) is the worker's question, answered against the digest it stored."""
    changes = payload.get("changes")
    if not isinstance(changes, dict) or set(changes) != {"body"}:
        return False
    old = _object(changes, "body").get("from")
    holder = payload.get("comment") if event == "issue_comment" else payload.get("issue")
    new = holder.get("body") if isinstance(holder, dict) else None
    return isinstance(old, str) and old == new


def digest(case: Any) -> str:
    """What the diagnosis depends on, hashed: the facts read and the error texts quoted."""
    from collector.report.model import to_json_obj

    facts = to_json_obj(case.report)["facts"]
    for entry in facts.values():
        entry.pop("source", None)  # where a fact was read does not change the diagnosis
        entry.pop("evidence", None)
    material = {"facts": facts, "errors": sorted(q.text for q in case.errors), "topics": sorted(case.topics)}
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()
