"""The job queue, on huey: SQLite storage beside the database by default, Redis when QUEUE_URL names one.

huey carries the wake-ups, delays and retries; the deliveries table is the durable record. A task only names an
issue, so duplicate wake-ups collapse, and `sweep` re-enqueues every issue with pending deliveries after a crash
(huey drops a task that was running when its process died).
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from pathlib import Path
from typing import Any

from huey import RedisHuey, SqliteHuey, crontab
from huey.api import Huey
from huey.exceptions import RetryTask

from bot.settings import Settings
from bot.store import Store
from bot.worker import Processor, Retry

log = logging.getLogger(__name__)
TASK = "process_issue"
SWEEP_TASK = "sweep_pending"
LOCK_WAIT = 1.0


def queue_path(database_url: str) -> str:
    """sqlite:///envtriage.db -> envtriage.queue.db, beside it."""
    if database_url.startswith("sqlite:///"):
        path = Path(database_url.removeprefix("sqlite:///"))
        return str(path.with_name(path.stem + ".queue" + (path.suffix or ".db")))
    return "envtriage.queue.db"


class Queue:
    """huey plus our one task; `enqueue` wakes a worker for one issue."""

    def __init__(self, settings: Settings, processor: Processor | None) -> None:
        self.huey = make_huey(settings)
        self.task = _register(self.huey, processor)
        if processor is not None:
            self._register_sweep(processor.store)

    def _register_sweep(self, store: Store) -> None:
        """Every minute, wake issues whose wake-up was lost (a replica died between commit and enqueue, a worker
        died holding the task). Standalone workers run it (huey's periodic tasks); the embedded one sweeps itself."""

        @self.huey.periodic_task(crontab(minute="*"), name=SWEEP_TASK)  # type: ignore[untyped-decorator]
        def sweep_pending() -> None:
            woken = self.sweep(store)
            if woken:
                log.info("sweep: woke %d issues with pending deliveries", woken)

    def enqueue(self, repo: str | None, number: int | None) -> None:
        self.task(repo, number)

    def sweep(self, store: Store) -> int:
        """Wake every issue that still has pending deliveries (after a crash, or a lost wake-up)."""
        keys = store.pending_issues()
        for repo, number in keys:
            self.enqueue(repo, number)
        return len(keys)


def queue_name(database_url: str) -> str:
    """One queue per database: two deployments sharing a Redis never take each other's jobs (a worker would
    find nothing pending in its own database and drop the wake-up)."""
    return "envtriage-" + hashlib.sha256(database_url.encode()).hexdigest()[:12]


def make_huey(settings: Settings) -> Huey:
    if settings.queue_url and settings.queue_url.startswith(("redis://", "rediss://", "unix://")):
        return RedisHuey(queue_name(settings.database_url), url=settings.queue_url, results=False)
    return SqliteHuey("envtriage", filename=queue_path(settings.database_url), results=False)


def _register(huey: Huey, processor: Processor | None) -> Any:
    @huey.task(name=TASK)  # type: ignore[untyped-decorator]
    def process_issue(repo: str | None, number: int | None) -> None:
        if processor is None:
            raise RuntimeError("this process only enqueues; run a worker")
        try:
            with processor.store.locked(repo, number) as mine:  # one worker per issue, across machines
                if not mine:
                    raise RetryTask(delay=LOCK_WAIT)
                processor.process(repo, number)
        except Retry as exc:
            log.info("%s#%s: %s; again in %.0f s", repo, number, exc, exc.delay)
            raise RetryTask(delay=exc.delay) from exc

    return process_issue


class EmbeddedConsumer:
    """The in-process worker of the single-machine setup: one thread draining huey, scheduling retries."""

    def __init__(self, queue: Queue, store: Store, sweep_every: float = 60.0) -> None:
        self.queue = queue
        self.huey = queue.huey
        self.store = store
        self.sweep_every = sweep_every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="envtriage-worker", daemon=True)

    def start(self) -> None:
        self.queue.sweep(self.store)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        last_sweep = time.monotonic()
        while not self._stop.is_set():
            for task in self.huey.read_schedule():
                self.huey.enqueue(task)
            task = self.huey.dequeue()
            if task is None:
                self._stop.wait(0.05)
            else:
                self._execute(task)
            if time.monotonic() - last_sweep > self.sweep_every:
                self.queue.sweep(self.store)
                last_sweep = time.monotonic()

    def _execute(self, task: Any) -> None:
        try:
            self.huey.execute(task)
        except Exception:  # huey logs task errors itself; the loop must survive anything
            log.exception("worker loop: task %s failed outside huey's handling", task)
