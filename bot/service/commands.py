"""`python -m bot serve | jobs | action`: the service commands (they need the [bot] extra)."""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.diagnosis.matrix import default as default_matrix
from bot.service.settings import PUBLIC_API, Settings, SettingsError, from_env, web_url_of
from bot.service.store import Store
from collector import templating

log = logging.getLogger("envtriage")
ACTION_ATTEMPTS = 5
ACTION_MAX_WAIT = 600.0  # seconds a workflow run waits for a retry's time (Retry-After, backoff)
ACTIONS_LOGIN = "github-actions[bot]"


def _settings(**kwargs: bool) -> Settings:
    try:
        return from_env(dict(os.environ), **kwargs)
    except SettingsError as exc:
        raise SystemExit(f"python -m bot: {exc}") from exc


def serve(args: argparse.Namespace) -> int:
    """The web server; with the embedded worker (the default) it also starts, watches and stops the worker's
    process (bot/service/queue.py EmbeddedConsumer), which it talks to only through the database."""
    import uvicorn

    from bot.service.app import Service, create_app
    from bot.service.http_limits import MAX_HEADER_BYTES, ReadDeadline, guarded_protocol
    from bot.service.metrics import Metrics
    from bot.service.queue import Queue

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = _settings(dry_run=args.dry_run)
    store = Store(settings.database_url)
    store.create()
    store.warm()
    matrix = default_matrix()
    app = create_app(Service(settings, store, Queue(settings, None), matrix, Metrics()))
    if settings.dry_run:
        log.warning("dry run: GitHub is read, never written; every write is logged instead")
    # The matrix and the imported modules live as long as the process: keep them out of the garbage collector's
    # full passes, which would otherwise walk them all and stall answers for a tenth of a second.
    gc.freeze()
    # Slow or idle clients: every request arrives within the read timeout or its connection goes (http_limits).
    uvicorn.run(ReadDeadline(app, settings.read_timeout_seconds), host=args.host, port=args.port, log_level="info",
                http=guarded_protocol(settings.read_timeout_seconds), timeout_keep_alive=settings.keep_alive_seconds,
                limit_concurrency=settings.max_connections, h11_max_incomplete_event_size=MAX_HEADER_BYTES)  # fmt: skip
    return 0


def worker(args: argparse.Namespace) -> int:
    """A standalone worker (ENVTRIAGE_EMBEDDED_WORKER=0 on the servers): on Redis (QUEUE_URL) huey's consumer,
    else threads polling the database."""
    from bot.service.queue import Queue, consume
    from bot.service.worker import Processor

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = _settings(dry_run=args.dry_run, need_secret=False)
    store = Store(settings.database_url)
    store.create()
    queue = Queue(settings, Processor(settings, store, default_matrix()))
    gc.freeze()  # as in serve: long-lived objects out of the collector's full passes
    consume(queue, args.threads)
    return 0


def jobs(args: argparse.Namespace) -> int:
    store = Store(os.environ.get("DATABASE_URL") or Settings().database_url)
    store.create()
    asked = sorted(set(args.retry or []))
    revived = store.revive(asked) if asked else 0
    text = templating.render("jobs.txt.j2", counts=store.counts(), dead=store.dead(), revived=revived, asked=asked)
    sys.stdout.write(text)
    return 1 if revived < len(asked) else 0


def action(args: argparse.Namespace) -> int:
    """GitHub Action mode: the event that started this workflow run, handled once, synchronously."""
    from bot.service.webhook import decide
    from bot.service.worker import Processor, Retry

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    env = dict(os.environ)
    event, path = env.get("GITHUB_EVENT_NAME", ""), env.get("GITHUB_EVENT_PATH", "")
    if not event or not path:
        raise SystemExit("python -m bot action: GITHUB_EVENT_NAME and GITHUB_EVENT_PATH come from GitHub Actions")
    try:
        payload = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise SystemExit(f"python -m bot action: cannot read the event at {path}: {exc}") from exc
    settings = _settings(dry_run=args.dry_run, need_secret=False)
    if settings.bot_login is None and env.get("GITHUB_ACTIONS") == "true":
        # The workflow token cannot read GET /user; what it posts is authored by github-actions[bot].
        settings = replace(settings, bot_login=ACTIONS_LOGIN)
    store = Store("sqlite://")
    store.create()
    matrix = default_matrix()
    decision = decide(event, env.get("GITHUB_RUN_ID", "action"), payload, settings.bot_login)
    if decision.delivery is None:
        log.info("nothing to do: %s", decision.reason)
        return 0
    store.record(decision.delivery)
    processor = Processor(settings, store, matrix)
    for _ in range(ACTION_ATTEMPTS):
        try:
            result = processor.process(decision.delivery.repo, decision.delivery.number)
        except Retry as exc:  # the delivery is not taken again before its time: wait for all of it, or give up
            if exc.delay > ACTION_MAX_WAIT:
                log.error("%s; GitHub asks for %.0f s: run the workflow again later", exc, exc.delay)
                return 1
            log.warning("%s; trying again in %.0f s", exc, exc.delay)
            time.sleep(exc.delay)
            continue
        if settings.dry_run and result.applied is not None:  # what would have been posted, not "comment created"
            delivery = decision.delivery
            sys.stdout.write(templating.render("dry_run.txt.j2", repo=delivery.repo, number=delivery.number,
                                               applied=result.applied, comment=result.comment))  # fmt: skip
        else:
            log.info("%s: %s", result.outcome, result.detail)
        return 0 if result.outcome != "dead" else 1
    return 1


def backfill(args: argparse.Namespace) -> int:
    """Load (and with --triage, triage) a repository's existing issues; resumable, rate-limit aware."""
    from tqdm import tqdm

    from bot.insights.backfill import Backfill, Options
    from bot.service.worker import Processor

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
    if args.repo.count("/") != 1 or not all(args.repo.split("/")):
        raise SystemExit(f"python -m bot backfill: {args.repo!r} is not OWNER/REPO")
    settings = _settings(dry_run=args.dry_run, need_secret=False)
    store = Store(settings.database_url)
    store.create()
    matrix = default_matrix()
    processor = Processor(settings, store, matrix)
    job = Backfill(settings, store.engine, matrix, processor)

    def progress(items: Any) -> Any:
        return tqdm(items, desc=args.repo, unit=" issues", file=sys.stderr, disable=args.quiet or None)

    summary = job.run(args.repo, Options(since=args.since, triage=args.triage), progress)
    sys.stdout.write(templating.render("backfill.txt.j2", s=summary, dry_run=settings.dry_run))
    return 0


def report(args: argparse.Namespace) -> int:
    """The dashboard page, written to a file from the database (no server)."""
    from bot.insights import dashboard
    from bot.insights.stats import collect

    store = Store(os.environ.get("DATABASE_URL") or Settings().database_url)
    store.create()
    try:
        filters = dashboard.filters_from(args.repo, args.since, args.until)
    except dashboard.DashboardError as exc:
        raise SystemExit(f"python -m bot report: {exc}") from exc
    found = collect(store.engine, filters, default_matrix())
    if args.repo and args.repo not in found.repos:
        raise SystemExit(f"python -m bot report: no triaged issues of {args.repo} in the database")
    try:
        web = web_url_of(os.environ.get("GITHUB_API_URL") or PUBLIC_API)  # the links' GitHub: the one the bot uses
        Path(args.html).write_text(dashboard.html(found, web, offline=True), encoding="utf-8")
    except OSError as exc:
        raise SystemExit(f"python -m bot report: cannot write {args.html}: {exc.strerror}") from exc
    sys.stdout.write(templating.render("report.txt.j2", i=found, path=args.html))
    return 0
