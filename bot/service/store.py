"""The bot's state, in SQLite by default or PostgreSQL: deliveries (the durable inbox) and issues.

A delivery is committed here before the webhook answers 202; it stays `pending` until a worker has applied it
to GitHub, so a crash at any point leaves it to be picked up again (`pending_issues`).
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from bot.service.engine import SQLITE_TIMEOUT, engine_options, engine_url, reconnecting, sqlite_pragmas
from bot.service.inbox import Inbox
from bot.service.scrub import LogScrubber
from bot.service.tables import deliveries, issues

# Built once: the webhook's two statements, executed with parameters (no per-request statement building).
INSERT_DELIVERY = deliveries.insert().returning(deliveries.c.seq)
WAITING_BEFORE = (
    sa.select(deliveries.c.seq)
    .where(
        deliveries.c.state == "pending",
        deliveries.c.repo == sa.bindparam("repo"),
        deliveries.c.number == sa.bindparam("number"),
        deliveries.c.seq < sa.bindparam("seq"),
    )
    .limit(1)
)
SCRUB_SECONDS = (
    30.0  # the longest a dropped payload stays in the write-ahead log while drops go on (bot/service/scrub.py)
)


def now() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


@dataclass(frozen=True)
class Delivery:
    delivery_id: str
    event: str
    action: str | None
    repo: str | None
    number: int | None
    installation_id: int | None
    payload: dict[str, Any]
    seq: int = 0
    attempts: int = 0
    state: str = "pending"
    last_error: str | None = None


@dataclass(frozen=True)
class IssueState:
    digest: str | None = None
    comment_id: int | None = None
    needs_env: bool = False


class Store:
    def __init__(self, url: str, scrub_seconds: float = SCRUB_SECONDS) -> None:
        url = engine_url(url)
        self.engine = sa.create_engine(url, **engine_options(url))
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        # PostgreSQL's own log and dead row versions are the server's to recycle (VACUUM); SQLite's are files here.
        self._scrubber: LogScrubber | None = None
        self._inbox: Inbox | None = None  # SQLite's one write lock, taken once for every delivery waiting
        if url.startswith("sqlite"):
            sa.event.listen(self.engine, "connect", sqlite_pragmas)
            if self.engine.url.database not in (None, "", ":memory:"):
                self._scrubber = LogScrubber(self.engine, scrub_seconds, SQLITE_TIMEOUT * 1000)
                self._inbox = Inbox(url, sqlite_pragmas)

    def warm(self) -> None:
        """Open the pool's connections now, not on the first webhooks (a PostgreSQL connection is a process
        fork on the server: a burst of them at start would delay the first answers)."""
        if self.engine.dialect.name == "sqlite":
            return
        held = []
        for _ in range(self.engine.pool.size()):  # type: ignore[attr-defined]
            held.append(self.engine.connect())
        for connection in held:
            connection.close()

    def create(self) -> None:
        """Bring the database to the current schema (alembic migrations; idempotent)."""
        from bot.service.migrate import upgrade

        upgrade(self.engine)
        if self._scrubber is not None:  # a log a killed process left behind may hold dropped payloads
            self._scrubber.empty()

    # --- the inbox ------------------------------------------------------------------------------------------

    @reconnecting
    def record(self, delivery: Delivery) -> int | None:
        """Store a delivery and return its sequence number; None when it was seen before (a redelivery: GitHub
        reuses X-GitHub-Delivery)."""
        row = _row(delivery)
        if self._inbox is not None:
            return self._inbox.record(row)
        try:
            with self.engine.begin() as conn:
                return int(conn.execute(INSERT_DELIVERY, row).scalar_one())
        except IntegrityError:
            return None

    def submit(self, delivery: Delivery) -> Future[int | None] | None:
        """`record` without waiting, where deliveries are group-committed (SQLite): a future of the sequence
        number, so the web server's event loop awaits it without a thread of its own. None elsewhere."""
        return None if self._inbox is None else self._inbox.submit(_row(delivery))

    @reconnecting
    def waiting_before(self, repo: str | None, number: int | None, seq: int) -> bool:
        """Whether an earlier delivery of the same issue is still pending. Asked after `seq` was committed: if
        so, whoever handles that one re-reads the issue's pending deliveries after finishing it, and finds this
        one too, so it needs no wake-up of its own (see Processor.process)."""
        if repo is None or number is None:
            query = sa.select(deliveries.c.seq).where(
                deliveries.c.state == "pending", deliveries.c.seq < seq, *_same_issue(repo, number)
            )
            with self.engine.connect() as conn:
                return conn.execute(query.limit(1)).first() is not None
        with self.engine.connect() as conn:
            return conn.execute(WAITING_BEFORE, {"repo": repo, "number": number, "seq": seq}).first() is not None

    def pending(self, repo: str | None, number: int | None) -> list[Delivery]:
        """One issue's waiting deliveries, oldest first (repo None: installation events)."""
        query = (
            sa.select(deliveries)
            .where(deliveries.c.state == "pending", *_same_issue(repo, number))
            .order_by(deliveries.c.seq)
        )
        with self.engine.connect() as conn:
            return [_delivery(row) for row in conn.execute(query).mappings()]

    def due(self, repo: str | None, number: int | None, now: datetime.datetime) -> list[Delivery]:
        """One issue's pending deliveries whose time has come, oldest first: a retry scheduled for later
        (Retry-After, backoff; `defer`) is not taken sooner, whatever woke the issue."""
        query = (
            sa.select(deliveries)
            .where(deliveries.c.state == "pending", _due_by(now), *_same_issue(repo, number))
            .order_by(deliveries.c.seq)
        )
        with self.engine.connect() as conn:
            return [_delivery(row) for row in conn.execute(query).mappings()]

    def due_issues(self, now: datetime.datetime, limit: int | None = None) -> list[tuple[str | None, int | None]]:
        """Issues with pending deliveries whose time has come, the longest waiting first."""
        query = (
            sa.select(deliveries.c.repo, deliveries.c.number)
            .where(deliveries.c.state == "pending", _due_by(now))
            .group_by(deliveries.c.repo, deliveries.c.number)
            .order_by(sa.func.min(deliveries.c.seq))
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [(row.repo, row.number) for row in conn.execute(query)]

    def defer(self, seqs: list[int], until: datetime.datetime) -> None:
        """Take these deliveries again no sooner than `until` (a retry's time, kept across restarts)."""
        with self.engine.begin() as conn:
            conn.execute(deliveries.update().where(deliveries.c.seq.in_(seqs)).values(due_at=until))

    def pending_issues(self) -> list[tuple[str, int | None]]:
        query = sa.select(deliveries.c.repo, deliveries.c.number).where(deliveries.c.state == "pending").distinct()
        with self.engine.connect() as conn:
            return [(row.repo, row.number) for row in conn.execute(query)]

    def finish(self, seqs: list[int], state: str = "done", error: str | None = None) -> None:
        values: dict[str, Any] = {"state": state, "done_at": now()}
        if state == "done":  # the issue's text is GitHub's to keep; the id stays, so a redelivery is still known
            values["payload"] = "{}"
        if error is not None:
            values["last_error"] = error[-4000:]
        with self.engine.begin() as conn:
            conn.execute(deliveries.update().where(deliveries.c.seq.in_(seqs)).values(**values))
        if state == "done" and self._scrubber is not None:
            self._scrubber.dropped()  # the payload's old bytes are still in the write-ahead log

    def attempt(self, seqs: list[int], error: str) -> int:
        """Count a failed attempt on these deliveries; returns how many attempts the oldest has had."""
        with self.engine.begin() as conn:
            conn.execute(
                deliveries.update()
                .where(deliveries.c.seq.in_(seqs))
                .values(attempts=deliveries.c.attempts + 1, last_error=error[-4000:])
            )
            found = conn.execute(sa.select(sa.func.max(deliveries.c.attempts)).where(deliveries.c.seq.in_(seqs)))
            return int(found.scalar() or 0)

    def dead(self) -> list[Delivery]:
        query = sa.select(deliveries).where(deliveries.c.state == "dead").order_by(deliveries.c.seq)
        with self.engine.connect() as conn:
            return [_delivery(row) for row in conn.execute(query).mappings()]

    def revive(self, delivery_ids: list[str]) -> int:
        """Put dead letters back in the inbox (after the cause was fixed)."""
        with self.engine.begin() as conn:
            result = conn.execute(
                deliveries.update()
                .where(deliveries.c.delivery_id.in_(delivery_ids), deliveries.c.state == "dead")
                .values(state="pending", attempts=0)
            )
            return int(result.rowcount)

    def finished(self) -> tuple[set[str], list[float]]:
        """Done deliveries: their ids, and milliseconds from receipt to done (for load figures)."""
        query = sa.select(deliveries.c.delivery_id, deliveries.c.received_at, deliveries.c.done_at).where(
            deliveries.c.state == "done"
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return {row[0] for row in rows}, [(row[2] - row[1]).total_seconds() * 1000 for row in rows if row[2]]

    def counts(self) -> dict[str, int]:
        query = sa.select(deliveries.c.state, sa.func.count()).group_by(deliveries.c.state)
        with self.engine.connect() as conn:
            return {row[0]: int(row[1]) for row in conn.execute(query)}

    @contextlib.contextmanager
    def locked(self, repo: str | None, number: int | None) -> Iterator[bool]:
        """Hold one issue exclusively, without waiting: yields False when another worker has it.

        PostgreSQL: a session advisory lock, which the server drops with the connection, so a worker killed
        mid-job cannot leave the issue locked. SQLite serves one process, where a thread lock does the same.
        """
        key = f"{repo}#{number}"
        if self.engine.dialect.name == "postgresql":
            number_key = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big", signed=True)
            with self.engine.connect() as conn:
                got = bool(conn.execute(sa.text("SELECT pg_try_advisory_lock(:k)"), {"k": number_key}).scalar())
                try:
                    yield got
                finally:
                    if got:
                        conn.execute(sa.text("SELECT pg_advisory_unlock(:k)"), {"k": number_key})
            return
        with self._locks_guard:
            lock = self._locks.setdefault(key, threading.Lock())
        got = lock.acquire(blocking=False)
        try:
            yield got
        finally:
            if got:
                lock.release()

    # --- issues -------------------------------------------------------------------------------------------

    def issue(self, repo: str, number: int) -> IssueState:
        query = sa.select(issues).where(issues.c.repo == repo, issues.c.number == number)
        with self.engine.connect() as conn:
            row = conn.execute(query).mappings().first()
        return IssueState(row["digest"], row["comment_id"], bool(row["needs_env"])) if row else IssueState()

    def save_issue(self, repo: str, number: int, state: IssueState) -> None:
        values = {"digest": state.digest, "comment_id": state.comment_id, "needs_env": state.needs_env,
                  "updated_at": now()}  # fmt: skip
        with self.engine.begin() as conn:
            updated = conn.execute(
                issues.update().where(issues.c.repo == repo, issues.c.number == number).values(**values)
            )
            if not updated.rowcount:
                conn.execute(issues.insert().values(repo=repo, number=number, **values))


def _same_issue(repo: str | None, number: int | None) -> tuple[Any, Any]:
    return (
        deliveries.c.repo == repo if repo is not None else deliveries.c.repo.is_(None),
        deliveries.c.number == number if number is not None else deliveries.c.number.is_(None),
    )


def _due_by(now: datetime.datetime) -> Any:
    return sa.or_(deliveries.c.due_at.is_(None), deliveries.c.due_at <= now)


def _row(delivery: Delivery) -> dict[str, Any]:
    return {
        "delivery_id": delivery.delivery_id, "event": delivery.event, "action": delivery.action,
        "repo": delivery.repo, "number": delivery.number, "installation_id": delivery.installation_id,
        "payload": json.dumps(delivery.payload), "state": delivery.state, "attempts": 0, "received_at": now(),
    }  # fmt: skip


def _delivery(row: Any) -> Delivery:
    return Delivery(
        delivery_id=row["delivery_id"], event=row["event"], action=row["action"], repo=row["repo"],
        number=row["number"], installation_id=row["installation_id"], payload=json.loads(row["payload"]),
        seq=row["seq"], attempts=row["attempts"], state=row["state"], last_error=row["last_error"],
    )  # fmt: skip
