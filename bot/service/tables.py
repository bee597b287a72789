"""Every table the bot keeps, on one MetaData: SQLite by default, PostgreSQL when scaled out.

One place for the schema, so `create_all` (and migrations) see all of it. Every text column is `Chars` or
`Words`: text without NUL, whatever table it is in and whoever writes it.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa


class Chars(sa.types.TypeDecorator[str]):
    """VARCHAR that never receives U+0000. PostgreSQL text cannot hold it (the statement fails, so the delivery
    is retried until it is a dead letter), and an issue's title, body or any field GitHub relays may carry one.
    Dropped on every write and in every comparison, so a lookup by the text as received still matches."""

    impl = sa.String
    cache_ok = True

    @property
    def python_type(self) -> type[str]:
        return str

    def process_bind_param(self, value: Any, dialect: sa.Dialect) -> Any:
        return without_nul(value)


class Words(Chars):
    """TEXT that never receives U+0000 (see Chars)."""

    impl = sa.Text
    cache_ok = True


def without_nul(value: Any) -> Any:
    return value.replace("\x00", "") if isinstance(value, str) else value


metadata = sa.MetaData()

deliveries = sa.Table(
    "deliveries",
    metadata,
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("delivery_id", Chars(64), nullable=False, unique=True),
    sa.Column("event", Chars(64), nullable=False),
    sa.Column("action", Chars(64)),
    sa.Column("repo", Chars(200)),
    sa.Column("number", sa.Integer),
    sa.Column("installation_id", sa.BigInteger),
    sa.Column("payload", Words, nullable=False),
    sa.Column("state", Chars(16), nullable=False, default="pending"),
    sa.Column("attempts", sa.Integer, nullable=False, default=0),
    sa.Column("last_error", Words),
    sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("done_at", sa.DateTime(timezone=True)),
    sa.Column("due_at", sa.DateTime(timezone=True)),  # a retry's time (Retry-After, backoff); NULL: on arrival
    sa.Index("deliveries_issue_state", "repo", "number", "state"),
    sa.Index("deliveries_state_due", "state", "due_at", "repo", "number"),  # covers Store.due_issues
)

issues = sa.Table(
    "issues",
    metadata,
    sa.Column("repo", Chars(200), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("digest", Chars(64)),  # what the diagnosis read, to skip edits that change nothing
    sa.Column("comment_id", sa.BigInteger),
    sa.Column("needs_env", sa.Boolean, nullable=False, default=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

# The duplicate index (bot/insights/dedupe/index.py).
dup_issues = sa.Table(
    "dup_issues", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("repo", Chars(200), nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("title", Chars(300), nullable=False),
    sa.Column("state", Chars(10), nullable=False),
    sa.Column("norm", sa.Float, nullable=False),
    sa.Column("features", Words, nullable=False),
    sa.UniqueConstraint("repo", "number"),
)  # fmt: skip
dup_postings = sa.Table(
    "dup_postings", metadata,
    sa.Column("repo", Chars(200), primary_key=True),
    sa.Column("key", Chars(250), primary_key=True),
    sa.Column("issue_id", sa.Integer, primary_key=True),
    sa.Index("dup_postings_issue", "issue_id"),
)  # fmt: skip
dup_df = sa.Table(
    "dup_df", metadata,
    sa.Column("repo", Chars(200), primary_key=True),
    sa.Column("key", Chars(250), primary_key=True),
    sa.Column("df", sa.Integer, nullable=False),
)  # fmt: skip
# Pairs a reporter or maintainer said are not duplicates (the duplicate label removed, `not-duplicate` added):
# never suggested again, either way round (low < high).
dup_rejections = sa.Table(
    "dup_rejections", metadata,
    sa.Column("repo", Chars(200), primary_key=True),
    sa.Column("low", sa.Integer, primary_key=True),
    sa.Column("high", sa.Integer, primary_key=True),
    sa.Index("dup_rejections_high", "repo", "high"),
)  # fmt: skip

# Where `python -m bot backfill` got to in each repository (bot/insights/backfill.py).
backfills = sa.Table(
    "backfills",
    metadata,
    sa.Column("repo", Chars(200), primary_key=True),
    sa.Column("since", Chars(40)),  # updated_at of the last issue loaded (ISO 8601)
    sa.Column("etag", Chars(200)),  # of the listing from `since`, for a conditional request next time
    sa.Column("issues", sa.Integer, nullable=False, default=0),
    sa.Column("finished", sa.Boolean, nullable=False, default=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

# What the bot concluded about each issue, and when (bot/insights/history.py); the dashboard reads it
# (bot/insights/stats.py).
triaged = sa.Table(
    "triaged",
    metadata,
    sa.Column("repo", Chars(200), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("title", Chars(300), nullable=False),
    sa.Column("state", Chars(10), nullable=False),
    sa.Column("opened_at", sa.DateTime(timezone=True)),
    sa.Column("first_triaged_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("last_triaged_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("categories", Words, nullable=False),  # JSON list: the diagnosis's categories
    sa.Column("torch", Chars(40)),  # "2.4+cu121"
    sa.Column("cuda", Chars(10)),
    sa.Column("driver", Chars(10)),  # branch: "535"
    sa.Column("archs", Words, nullable=False),  # JSON list: "sm_90"
    sa.Column("needs_env_since", sa.DateTime(timezone=True)),  # when the bot asked for a report
    sa.Column("report_at", sa.DateTime(timezone=True)),  # when a usable report came after that
    sa.Column("duplicates", Words, nullable=False),  # JSON list of the issue numbers suggested
    sa.Index("triaged_repo_time", "repo", "first_triaged_at"),
)
