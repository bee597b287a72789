"""Group commit of incoming deliveries into SQLite: one writer thread, one transaction for all that wait.

SQLite has one write lock for every process. With each webhook thread taking it for its own one-row transaction,
the threads queue on the lock with SQLite's busy handler, which sleeps in steps of up to 100 ms, and the worker
process's writes interleave: the acknowledgement's tail was the lock's, not the work's. Here the webhook threads
hand their rows to one writer, which takes the lock once for every row waiting and answers each thread with its
sequence number (None for a delivery id already stored: GitHub's redelivery). The writer asks for the lock
itself, every half millisecond, instead of through the busy handler: it gets it as soon as the worker lets go.

Nor does the writer checkpoint: SQLite copies the write-ahead log into the database (and syncs it) in whichever
commit finds the log past 1,000 pages, every few seconds at 200 deliveries a second, and the deliveries waiting on
that commit waited for the copy. A thread of its own checkpoints instead (PASSIVE: beside the writers).
"""

from __future__ import annotations

import queue
import sqlite3
import threading
import time
from concurrent.futures import Future
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import sqlite

from bot.service.tables import deliveries

CHECKPOINT_SECONDS = 1.0
BATCH = 256  # rows in one transaction at most (a burst of 256 deliveries is one lock, one fsync)
LOCK_POLL = 0.0005  # seconds between two asks for the write lock
LOCK_WAIT = 30.0  # seconds before a write fails, as the busy handler's would
INSERT = (
    sqlite.insert(deliveries)
    .on_conflict_do_nothing(index_elements=[deliveries.c.delivery_id])
    .returning(deliveries.c.seq)
)


class Inbox:
    def __init__(self, url: str, on_connect: Any) -> None:
        # Connections of its own: one for the writer, one for the checkpointer, neither checkpointing on commit.
        self.engine = sa.create_engine(url, poolclass=sa.pool.SingletonThreadPool, connect_args={"timeout": LOCK_WAIT})
        sa.event.listen(self.engine, "connect", on_connect)
        sa.event.listen(self.engine, "connect", _no_checkpoint_on_commit)
        self._waiting: queue.SimpleQueue[tuple[dict[str, Any], Future[int | None]]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    def record(self, row: dict[str, Any]) -> int | None:
        """Store one delivery row; its sequence number once committed, None if its id was stored before."""
        return self.submit(row).result()

    def submit(self, row: dict[str, Any]) -> Future[int | None]:
        """`record` without waiting: the future holds the sequence number once the row is committed."""
        self._ensure_started()
        done: Future[int | None] = Future()
        self._waiting.put((row, done))
        return done

    def _ensure_started(self) -> None:
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._write_forever, name="inbox writer", daemon=True)
                self._thread.start()
                checkpointer = threading.Thread(target=self._checkpoint_forever, name="inbox checkpoints", daemon=True)
                checkpointer.start()

    def _write_forever(self) -> None:
        while True:
            batch = [self._waiting.get()]
            while len(batch) < BATCH:
                try:
                    batch.append(self._waiting.get_nowait())
                except queue.Empty:
                    break
            self._write(batch)

    def _checkpoint_forever(self) -> None:
        while True:
            time.sleep(CHECKPOINT_SECONDS)
            try:
                with self.engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except sa.exc.OperationalError:  # someone else is checkpointing: theirs does the same
                pass

    def _write(self, batch: list[tuple[dict[str, Any], Future[int | None]]]) -> None:
        try:
            with self.engine.connect() as conn:
                _lock(conn)
                with conn.begin():
                    seqs = [conn.execute(INSERT, row).scalar_one_or_none() for row, _ in batch]
        except Exception as exc:  # every waiting request fails as its own write would have (the caller answers 5xx)
            for _, done in batch:
                done.set_exception(exc)
            return
        for (_, done), seq in zip(batch, seqs, strict=True):
            done.set_result(None if seq is None else int(seq))


def _lock(conn: sa.Connection) -> None:
    """Open the transaction with SQLite's write lock (BEGIN IMMEDIATE), asking every LOCK_POLL seconds. The
    driver then sees a transaction open and adds no BEGIN of its own; SQLAlchemy's commit ends this one."""
    raw = conn.connection.driver_connection
    assert isinstance(raw, sqlite3.Connection)
    raw.execute("PRAGMA busy_timeout=0")
    end = time.monotonic() + LOCK_WAIT
    try:
        while True:
            try:
                raw.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > end:
                    raise
                time.sleep(LOCK_POLL)
    finally:
        raw.execute(f"PRAGMA busy_timeout={int(LOCK_WAIT * 1000)}")


def _no_checkpoint_on_commit(connection: Any, _record: Any) -> None:
    connection.execute("PRAGMA wal_autocheckpoint=0")
