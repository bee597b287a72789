"""The job queue: the database itself by default (workers poll it, bot/service/poller.py), huey on Redis when QUEUE_URL
names one.

The deliveries table is the durable record, a retry's time included (`due_at`). On Redis, huey carries the
wake-ups and delays: a task only names an issue, so duplicate wake-ups collapse, and `sweep` re-enqueues every
issue with deliveries whose time has come, after a crash (huey drops a task that was running when its process
died) or a lost wake-up.

`python -m bot serve` runs its worker in a process of its own (EmbeddedConsumer): a triage never holds the web
server's interpreter, so acknowledgements do not wait for one. The two talk only through the database.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from datetime import datetime
from typing import Any

from huey import RedisHuey, crontab
from huey.exceptions import RetryTask

from bot.service.settings import Settings
from bot.service.store import Store
from bot.service.store import now as wall_clock
from bot.service.worker import Processor, Retry

log = logging.getLogger(__name__)
TASK = "process_issue"
SWEEP_TASK = "sweep_pending"
LOCK_WAIT = 1.0
EMBEDDED_THREADS = 4  # GitHub calls wait on the network: a few issues at once keep up with a busy repository
EMBEDDED_NICENESS = 10  # on the web server's machine, the acknowledgement comes first
RESTART_DELAY = (1.0, 30.0)  # a worker process that died is started again after 1 s, doubling up to 30 s
STABLE_SECONDS = 60.0  # one that ran this long before dying starts the doubling over
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def redis_queue(queue_url: str | None) -> bool:
    return bool(queue_url) and str(queue_url).startswith(("redis://", "rediss://", "unix://"))


class Queue:
    """`enqueue` wakes a worker for one issue: a huey task on Redis; nothing to send when the workers poll the
    database, which already holds the delivery."""

    def __init__(self, settings: Settings, processor: Processor | None) -> None:
        self.settings = settings
        self.processor = processor
        self.huey: RedisHuey | None = None
        if redis_queue(settings.queue_url):
            self.huey = RedisHuey(queue_name(settings.database_url), url=settings.queue_url, results=False)
            self.task = _register(self.huey, processor)
            if processor is not None:
                self._register_sweep(processor.store)

    def _register_sweep(self, store: Store) -> None:
        """Every minute, wake issues whose wake-up was lost (a replica died between commit and enqueue, a worker
        died holding the task), as huey's periodic task in the workers."""
        assert self.huey is not None

        @self.huey.periodic_task(crontab(minute="*"), name=SWEEP_TASK)  # type: ignore[untyped-decorator]
        def sweep_pending() -> None:
            woken = self.sweep(store)
            if woken:
                log.info("sweep: woke %d issues with deliveries due", woken)

    @property
    def wakes(self) -> bool:
        """Whether a delivery needs a wake-up sent (huey); polling workers find it in the database themselves."""
        return self.huey is not None

    def enqueue(self, repo: str | None, number: int | None) -> None:
        if self.huey is not None:
            self.task(repo, number)

    def sweep(self, store: Store, now: datetime | None = None) -> int:
        """Wake every issue with deliveries whose time has come; one whose retry is scheduled later (Retry-After,
        backoff) is left to that time. Returns how many issues are due."""
        keys = store.due_issues(now or wall_clock())
        if self.huey is not None:
            for repo, number in keys:
                self.enqueue(repo, number)
        return len(keys)


def queue_name(database_url: str) -> str:
    """One queue per database: two deployments sharing a Redis never take each other's jobs (a worker would
    find nothing pending in its own database and drop the wake-up)."""
    return "envtriage-" + hashlib.sha256(database_url.encode()).hexdigest()[:12]


def _register(huey: RedisHuey, processor: Processor | None) -> Any:
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


def consume(queue: Queue, threads: int, stop_signals: tuple[int, ...] = (signal.SIGTERM, signal.SIGINT)) -> None:
    """Work until one of `stop_signals`: huey's consumer on Redis, else threads polling the database. The issues
    in hand are finished first; what was not begun stays pending for the next start."""
    from bot.service.poller import Poller

    if queue.processor is None:
        raise RuntimeError("a worker needs a processor")
    if queue.huey is not None:
        from huey.consumer import Consumer

        queue.sweep(queue.processor.store)
        Consumer(queue.huey, workers=threads, worker_type="thread", periodic=True).run()
        return
    stop = threading.Event()
    for number in stop_signals:
        signal.signal(number, lambda _signum, _frame: stop.set())
    Poller(queue.processor, threads).run(stop)


def run_embedded(settings: Settings, threads: int, parent: int) -> None:
    """The body of `serve`'s worker process (started by EmbeddedConsumer, settings handed down from the server)."""
    import gc

    from bot.diagnosis.matrix import default as default_matrix

    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    os.nice(EMBEDDED_NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the server stops us itself
    threading.Thread(target=_follow, args=(parent,), name="envtriage-parent", daemon=True).start()
    processor = Processor(settings, Store(settings.database_url), default_matrix())
    gc.freeze()  # the matrix and the modules live as long as the process: out of the collector's full passes
    consume(Queue(settings, processor), threads, stop_signals=(signal.SIGTERM,))


def _follow(parent: int) -> None:
    """Stop when the server is gone, however it went (killed, it cannot stop us itself)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os.kill(os.getpid(), signal.SIGTERM)


class EmbeddedConsumer:
    """`serve`'s worker: a process of its own, started with the server, started again when it dies, stopped
    with the server."""

    def __init__(self, queue: Queue, store: Store, threads: int = EMBEDDED_THREADS) -> None:
        self.settings = queue.settings
        self.threads = threads
        self._context = multiprocessing.get_context("spawn")  # a fresh interpreter: no state of the server's
        self._process: Any = None
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._watch = threading.Thread(target=self._supervise, name="envtriage-supervisor", daemon=True)

    @property
    def pid(self) -> int | None:
        with self._lock:
            return self._process.pid if self._process is not None else None

    def start(self) -> None:
        with self._lock:
            self._process = self._spawn()
        self._watch.start()

    def stop(self, timeout: float = 10.0) -> None:
        self._stopping.set()
        if self._watch.is_alive():
            self._watch.join()
        with self._lock:
            process = self._process
        if process is None:
            return
        process.terminate()  # SIGTERM: the issues in hand are finished, then it exits
        process.join(timeout)
        if process.is_alive():
            log.warning("worker process %d did not stop within %.0f s; killing it", process.pid, timeout)
            process.kill()
            process.join(5)

    def _spawn(self) -> Any:
        process = self._context.Process(target=run_embedded, args=(self.settings, self.threads, os.getpid()),
                                        name="envtriage-worker", daemon=True)  # fmt: skip
        process.start()
        log.info("worker process %d started", process.pid)
        return process

    def _supervise(self) -> None:
        delay, started = RESTART_DELAY[0], time.monotonic()
        while not self._stopping.is_set():
            with self._lock:
                process = self._process
            process.join(0.2)  # returns as soon as it exits
            if process.is_alive() or self._stopping.is_set():
                continue
            if time.monotonic() - started > STABLE_SECONDS:
                delay = RESTART_DELAY[0]
            # 0: stopped by a signal sent to the whole group (Ctrl-C, a service manager); else it died
            level = logging.INFO if process.exitcode == 0 else logging.WARNING
            log.log(level, "worker process %d exited (%s); another in %.0f s", process.pid, process.exitcode, delay)
            if self._stopping.wait(delay):
                return
            with self._lock:
                self._process, started = self._spawn(), time.monotonic()
            delay = min(delay * 2, RESTART_DELAY[1])
