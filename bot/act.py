"""Act: make an issue on GitHub match a Plan, idempotently. One sticky comment, add-only labels.

The sticky comment is the one carrying our marker *and* written by the bot itself (a user can paste the marker;
they cannot post as the bot). Labels are only ever removed if the bot added them, and never re-added once a
human removed them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.findings import CATEGORIES
from bot.github_io import Repo
from bot.render import MARKER
from bot.store import IssueState, Store
from bot.triage import Plan

ERROR_COLOR = "d73a4a"
NEEDS_ENV_COLOR = "fbca04"
DUPLICATE_COLOR = "cfd3d7"
NEEDS_ENV_DESCRIPTION = "Waiting for an environment report (python -m collector)"
DUPLICATE_DESCRIPTION = "envtriage found a likely duplicate"


@dataclass(frozen=True)
class Outcome:
    comment: str  # "created", "edited", "unchanged", "deleted", "none"
    labels_added: list[str]
    labels_removed: list[str]
    comment_id: int | None


def sync_comment(repo: Repo, issue: Any, comments: list[Any], bot: str, text: str | None) -> tuple[str, int | None]:
    mine = [c for c in comments if c.user is not None and c.user.login == bot and MARKER in (c.body or "")]
    if text is None:
        for comment in mine:
            repo.write(f"delete comment {comment.id}", comment.delete)
        return ("deleted" if mine else "none"), None
    for extra in mine[1:]:  # from an older bot that posted twice: keep one
        repo.write(f"delete duplicate comment {extra.id}", extra.delete)
    if not mine:
        created = repo.write(f"comment on #{issue.number}", lambda: issue.create_comment(text))
        return "created", getattr(created, "id", None)
    sticky = mine[0]
    if (sticky.body or "").strip() == text.strip():
        return "unchanged", sticky.id
    repo.write(f"edit comment {sticky.id}", lambda: sticky.edit(text))
    return "edited", sticky.id


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
        repo.ensure_label(label, *_look(label, plan, needs_env_label))
        repo.write(f"label #{issue.number} {label!r}", _adder(issue, label))
        added.append(label)
    if stale_needs_env and needs_env_label in history.added_by_bot:
        repo.write(f"unlabel #{issue.number} {needs_env_label!r}", lambda: issue.remove_from_labels(needs_env_label))
        return added, [needs_env_label]
    return added, []


def _adder(issue: Any, label: str) -> Any:
    return lambda: issue.add_to_labels(label)


def _look(label: str, plan: Plan, needs_env_label: str) -> tuple[str, str]:
    if label == needs_env_label:
        return NEEDS_ENV_COLOR, NEEDS_ENV_DESCRIPTION
    for finding in plan.findings:
        if finding.category and label.endswith(finding.category.replace("_", "-")):
            return ERROR_COLOR, "envtriage: " + CATEGORIES[finding.category]
    return DUPLICATE_COLOR, DUPLICATE_DESCRIPTION


def apply(repo: Repo, issue: Any, comments: list[Any], bot: str, plan: Plan, store: Store, needs_env_label: str,
          digest: str) -> Outcome:  # fmt: skip
    state, comment_id = sync_comment(repo, issue, comments, bot, plan.comment)
    added, removed = sync_labels(repo, issue, plan, bot, needs_env_label)
    store.save_issue(repo.full_name, issue.number, IssueState(digest, comment_id, plan.needs_env))
    return Outcome(state, added, removed, comment_id)
