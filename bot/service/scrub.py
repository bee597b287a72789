"""Emptying SQLite's write-ahead log once payloads are dropped, so a pasted secret does not linger on disk.

A handled delivery's payload (GitHub's copy of the issue, with whatever was pasted in it) is cleared from its
row, but SQLite keeps older bytes in two places: the write-ahead log holds every page version written since it
was last reset, and is only overwritten as it is reused (its tail never), and the main file keeps a cleared
value's bytes in freed space. `secure_delete` (set on every connection, see engine.sqlite_pragmas) zeroes freed
space; this checkpoints the log into the main file and truncates it to zero bytes.

When the work pauses: `quiet` seconds after the last drop, and under a steady stream of drops at least every
`longest` seconds. A checkpoint holds the write lock while it waits for readers and copies pages, and the webhook
writes too: once a second under load, it was the acknowledgement's slowest moment.
"""

from __future__ import annotations

import logging
import threading
import time

import sqlalchemy as sa

log = logging.getLogger(__name__)
BUSY_MS = 100  # how long a checkpoint waits for readers and writers before it tries again later
RETRY_SECONDS = 1.0
QUIET_SECONDS = 0.5


class LogScrubber:
    def __init__(self, engine: sa.Engine, longest: float, busy_timeout_ms: int, quiet: float = QUIET_SECONDS) -> None:
        self.engine = engine
        self.longest = longest
        self.quiet = min(quiet, longest)
        self.busy_timeout_ms = busy_timeout_ms  # the connections' own, put back after a checkpoint
        self._changed = threading.Condition()
        self._first: float | None = None  # the oldest drop the log may still hold
        self._last = 0.0
        self._not_before = 0.0  # after a checkpoint someone held up, the next waits RETRY_SECONDS
        self._thread: threading.Thread | None = None

    def dropped(self) -> None:
        """A payload was cleared: the log is emptied once the drops pause, or `longest` after this one."""
        with self._changed:
            self._last = time.monotonic()
            if self._first is None:
                self._first = self._last
            if self._thread is None:  # a log left at exit is emptied by SQLite when its last connection closes
                self._thread = threading.Thread(target=self._scrub_forever, name="log scrubber", daemon=True)
                self._thread.start()
            self._changed.notify()

    def _scrub_forever(self) -> None:
        while True:
            with self._changed:
                while self._first is None or time.monotonic() < self._due():
                    self._changed.wait(None if self._first is None else max(0.0, self._due() - time.monotonic()))
                first, self._first = self._first, None
            if not self.empty():
                with self._changed:  # someone held on: again a little later, the drop still counted
                    self._first = min(first, self._first or first)
                    self._not_before = time.monotonic() + RETRY_SECONDS

    def _due(self) -> float:
        assert self._first is not None
        return max(self._not_before, min(self._last + self.quiet, self._first + self.longest))

    def empty(self) -> bool:
        """Checkpoint now; False when someone held on past BUSY_MS."""
        try:
            return self.checkpoint()
        except sa.exc.OperationalError as exc:  # "database is locked": a writer held on past BUSY_MS
            log.info("write-ahead log not emptied yet: %s", exc.orig)
            return False

    def checkpoint(self) -> bool:
        """Copy the log into the main file and truncate it; False when someone held on past BUSY_MS."""
        with self.engine.connect() as conn:
            conn.exec_driver_sql(f"PRAGMA busy_timeout={BUSY_MS}")
            try:
                busy, _, _ = conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").one()
            finally:
                conn.exec_driver_sql(f"PRAGMA busy_timeout={self.busy_timeout_ms}")
        return not busy
