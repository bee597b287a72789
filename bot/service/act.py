"""Act: make an issue on GitHub match a Plan, idempotently. One sticky comment, add-only labels.

The sticky comment is the one carrying our marker *and* written by the bot itself (a user can paste the marker;
they cannot post as the bot). Its id is remembered per issue and read directly, so a long thread is never walked
on each delivery. A post that times out (or gets a 5xx) may have landed anyway: what changed since is listed and
one comment kept, never a second posted blindly. Labels are only ever removed if the bot added them, and never
re-added once a human removed them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from bot.diagnosis.findings import CATEGORIES
from bot.diagnosis.plan import Plan
from bot.diagnosis.render import MARKER
from bot.service.github_io import InDoubt, Repo, Transient
from bot.service.store import IssueState, Store

ERROR_COLOR = "d73a4a"
NEEDS_ENV_COLOR = "fbca04"
DUPLICATE_COLOR = "cfd3d7"
NEEDS_ENV_DESCRIPTION = "Waiting for an environment report (python -m collector)"
DUPLICATE_DESCRIPTION = "envtriage found a likely duplicate"
CLOCK_SKEW = timedelta(minutes=10)  # between this host's clock and GitHub's, when listing "since we posted"
IN_DOUBT_WAIT = 30.0  # seconds before posting again: GitHub gives up on a request after 10, commits within them


@dataclass(frozen=True)
class Outcome:
    comment: str  # "created", "edited", "unchanged", "deleted", "none"
    labels_added: list[str]
    labels_removed: list[str]
    comment_id: int | None


def sync_comment(repo: Repo, issue: Any, comments: list[Any], bot: str, text: str | None,
                 known: IssueState | None = None) -> tuple[str, int | None]:  # fmt: skip
    """Make the sticky comment say `text` (or go, for None); `comments` is what was read of the thread and
    `known` what the store remembers of the issue (our comment's id)."""
    known = known or IssueState()
    mine = _mine(repo, issue, comments, bot, known, whole_thread=text is not None or known.digest is None)
    if text is None:
        for comment in mine:
            repo.write(f"delete comment {comment.id}", comment.delete)
        return ("deleted" if mine else "none"), None
    if not mine:
        return "created", _create(repo, issue, bot, text)
    return _keep_one(repo, mine, text)


def _ours(comment: Any, bot: str) -> bool:
    return comment.user is not None and comment.user.login == bot and MARKER in (comment.body or "")


def _mine(repo: Repo, issue: Any, listed: list[Any], bot: str, known: IssueState, whole_thread: bool) -> list[Any]:
    """Our comments, oldest first: among those read, the remembered one (fetched by its id when it is not among
    them), and only when neither finds one and more was left unread (before posting, or the first time this store
    meets the issue), the whole thread: a lost store must not make a long thread get a second comment."""
    found = {c.id: c for c in listed if _ours(c, bot)}
    if known.comment_id is not None and known.comment_id not in found:
        remembered = repo.comment(issue, known.comment_id)
        if remembered is not None and _ours(remembered, bot):
            found[remembered.id] = remembered
    if not found and whole_thread and issue.comments > len(listed):
        found = {c.id: c for c in repo.all_comments(issue) if _ours(c, bot)}
    return _oldest_first(found.values())


def _oldest_first(comments: Iterable[Any]) -> list[Any]:
    return sorted(comments, key=lambda c: (c.created_at, c.id))


def _keep_one(repo: Repo, mine: list[Any], text: str) -> tuple[str, int | None]:
    """Keep the oldest of ours, delete the others (an ambiguous post that landed twice), make it say `text`."""
    sticky, *extras = mine
    for extra in extras:
        repo.write(f"delete duplicate comment {extra.id}", extra.delete)
    if (sticky.body or "").strip() == text.strip():
        return "unchanged", sticky.id
    repo.write(f"edit comment {sticky.id}", lambda: sticky.edit(text))
    return "edited", sticky.id


def _create(repo: Repo, issue: Any, bot: str, text: str) -> int | None:
    started = datetime.now(timezone.utc)
    try:
        created = repo.write(f"comment on #{issue.number}", lambda: issue.create_comment(text))
    except Transient as exc:
        # A timeout or a 5xx on a POST says nothing of whether GitHub posted it: look at what changed since.
        mine = _oldest_first(c for c in repo.comments_since(issue, started - CLOCK_SKEW) if _ours(c, bot))
        if not mine:
            raise InDoubt(IN_DOUBT_WAIT, f"comment on #{issue.number} not found after {exc}") from exc
        return _keep_one(repo, mine, text)[1]
    return getattr(created, "id", None)


def sync_labels(repo: Repo, issue: Any, plan: Plan, bot: str, needs_env_label: str) -> tuple[list[str], list[str]]:
    current = {label.name for label in issue.labels}
    wanted = [label for label in plan.labels if label not in current]
    stale_needs_env = bool(needs_env_label) and needs_env_label in current and not plan.needs_env
    if not wanted and not stale_needs_env:
        return [], []
    history = repo.label_history(issue, bot)  # the timeline is the provenance: nothing else to keep in sync
    added: list[str] = []
    for label in wanted:
        if label in history.removed_by_others:
            continue  # a human took it off once: their call stands
        repo.ensure_label(label, *_look(label, plan))
        repo.write(f"label #{issue.number} {label!r}", _adder(issue, label))
        added.append(label)
    if stale_needs_env and needs_env_label in history.added_by_bot:
        repo.write(f"unlabel #{issue.number} {needs_env_label!r}", lambda: issue.remove_from_labels(needs_env_label))
        return added, [needs_env_label]
    return added, []


def _adder(issue: Any, label: str) -> Any:
    return lambda: issue.add_to_labels(label)


def _look(label: str, plan: Plan) -> tuple[str, str]:
    """A new label's colour and description, from why it is wanted (not from its name, which a repo may choose)."""
    intent = plan.intents.get(label)
    if intent is not None and intent.kind == "category" and intent.category:
        return ERROR_COLOR, "envtriage: " + CATEGORIES[intent.category]
    if intent is not None and intent.kind == "needs_env":
        return NEEDS_ENV_COLOR, NEEDS_ENV_DESCRIPTION
    return DUPLICATE_COLOR, DUPLICATE_DESCRIPTION


def apply(repo: Repo, issue: Any, comments: list[Any], bot: str, plan: Plan, store: Store, needs_env_label: str,
          digest: str) -> Outcome:  # fmt: skip
    known = store.issue(repo.full_name, issue.number)
    state, comment_id = sync_comment(repo, issue, comments, bot, plan.comment, known)
    added, removed = sync_labels(repo, issue, plan, bot, needs_env_label)
    store.save_issue(repo.full_name, issue.number, IssueState(digest, comment_id, plan.needs_env))
    return Outcome(state, added, removed, comment_id)
