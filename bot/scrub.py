"""Emptying SQLite's write-ahead log once payloads are dropped, so a pasted secret does not linger on disk.

A handled delivery's payload (GitHub's copy of the issue, with whatever was pasted in it) is cleared from its
row, but SQLite keeps older bytes in two places: the write-ahead log holds every page version written since it
was last reset, and is only overwritten as it is reused (its tail never), and the main file keeps a cleared
value's bytes in freed space. `secure_delete` (set on every connection, see store._sqlite_pragmas) zeroes freed
space; this checkpoints the log into the main file and truncates it to zero bytes.

At most once per `interval` seconds: a checkpoint holds the write lock while it waits for readers and copies
pages, and the webhook writes too. A drop within the interval is covered by one checkpoint at its end.
"""

from __future__ import annotations

import logging
import math
import threading
import time

import sqlalchemy as sa

log = logging.getLogger(__name__)
BUSY_MS = 100  # how long a checkpoint waits for readers and writers before it tries again later
RETRY_SECONDS = 1.0


class LogScrubber:
    def __init__(self, engine: sa.Engine, interval: float, busy_timeout_ms: int) -> None:
        self.engine = engine
        self.interval = interval
        self.busy_timeout_ms = busy_timeout_ms  # the connections' own, put back after a checkpoint
        self._lock = threading.Lock()
        self._last = -math.inf
        self._timer: threading.Timer | None = None

    def dropped(self) -> None:
        """A payload was cleared: empty the log now, or at the end of the interval since the last time."""
        with self._lock:
            if self._timer is not None:
                return  # one is due already, and covers this drop too
            wait = self._last + self.interval - time.monotonic()
            if wait > 0:
                self._schedule(wait)
                return
            self._last = time.monotonic()
        self.empty()

    def empty(self) -> None:
        """Checkpoint now; when someone holds on, try again a little later."""
        try:
            emptied = self.checkpoint()
        except sa.exc.OperationalError as exc:  # "database is locked": a writer held on past BUSY_MS
            log.info("write-ahead log not emptied yet: %s", exc.orig)
            emptied = False
        if not emptied:
            with self._lock:
                if self._timer is None:
                    self._schedule(RETRY_SECONDS)

    def checkpoint(self) -> bool:
        """Copy the log into the main file and truncate it; False when someone held on past BUSY_MS."""
        with self.engine.connect() as conn:
            conn.exec_driver_sql(f"PRAGMA busy_timeout={BUSY_MS}")
            try:
                busy, _, _ = conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").one()
            finally:
                conn.exec_driver_sql(f"PRAGMA busy_timeout={self.busy_timeout_ms}")
        return not busy

    def _due(self) -> None:
        with self._lock:
            self._timer = None
            self._last = time.monotonic()
        self.empty()

    def _schedule(self, wait: float) -> None:
        self._timer = threading.Timer(wait, self._due)
        self._timer.daemon = True  # a log left at exit is emptied by SQLite when its last connection closes
        self._timer.start()
