"""Workers fed by the database: the default queue, when no QUEUE_URL names a Redis.

The deliveries table already says what is to be done and when (`due_at`, for a retry), so the web server sends
nothing and the workers ask: the issues with deliveries whose time has come, the longest waiting first, a batch
at a time, each to a free thread as one frees up; asked again when the batch is handed out, or every `idle`
seconds while nothing is due. An issue is in one thread at a time, and in one process at a time (the store's
per-issue lock: PostgreSQL's advisory lock across machines).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

import sqlalchemy as sa

from bot.service.worker import Processor, Retry

log = logging.getLogger(__name__)
POLL_SECONDS = 0.05
BATCH = 64  # issues asked for at a time
FAILURE_PAUSE = 1.0  # after a failure outside the processor's own handling (the database is down, say)
Key = tuple[str | None, int | None]


class Poller:
    def __init__(self, processor: Processor, threads: int, idle: float = POLL_SECONDS) -> None:
        self.processor = processor
        self.store = processor.store
        self.threads = max(1, threads)
        self.idle = idle

    def run(self, stop: threading.Event) -> None:
        """Until `stop` is set; then the issues in hand are finished (what was not begun stays pending)."""
        with ThreadPoolExecutor(self.threads, thread_name_prefix="envtriage-worker") as pool:
            running: dict[Key, Future[None]] = {}
            due: deque[Key] = deque()
            while not stop.is_set():
                for key in [key for key, job in running.items() if job.done()]:
                    del running[key]
                if not due and len(running) < self.threads:
                    due.extend(self._due(BATCH, stop))
                while due and len(running) < self.threads:
                    key = due.popleft()
                    if key not in running:  # in hand: its thread takes what came meanwhile before it lets go
                        running[key] = pool.submit(self.take, *key)
                if running:
                    wait(list(running.values()), timeout=self.idle, return_when=FIRST_COMPLETED)
                elif not due:
                    stop.wait(self.idle)

    def _due(self, limit: int, stop: threading.Event) -> list[Key]:
        try:
            return self.store.due_issues(self.processor.clock(), limit)
        except sa.exc.DBAPIError as exc:
            log.warning("worker: cannot read the pending deliveries (%s); trying again", type(exc.orig).__name__)
            stop.wait(FAILURE_PAUSE)
            return []

    def take(self, repo: str | None, number: int | None) -> None:
        """One issue's due deliveries, unless another worker holds the issue (it takes them when it looks again)."""
        try:
            with self.store.locked(repo, number) as mine:
                if mine:
                    self.processor.process(repo, number)
        except Retry as exc:  # the deliveries carry their time (due_at): nothing takes them sooner
            log.info("%s#%s: %s; again in %.0f s", repo, number, exc, exc.delay)
        except Exception:  # the loop must survive anything; the deliveries stay pending and are taken again
            log.exception("worker: %s#%s failed outside the processor's handling", repo, number)
            time.sleep(FAILURE_PAUSE)
