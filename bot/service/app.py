"""The web service: POST /webhook, GET /healthz, GET /metrics. The only module that knows FastAPI.

The webhook answers 202 once the delivery is committed to the database and its issue is queued; GitHub calls
happen later, in the worker, so a slow or failing GitHub never delays an answer (GitHub gives up after 10 s).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.concurrency import run_in_threadpool

from bot.diagnosis.matrix import Index
from bot.insights import dashboard
from bot.insights.stats import collect
from bot.service import log_redaction
from bot.service.metrics import Metrics
from bot.service.queue import EmbeddedConsumer, Queue
from bot.service.settings import Settings
from bot.service.store import Delivery, Store
from bot.service.webhook import Decision, Rejected, Scope, decide, parse, verify_signature

log = logging.getLogger(__name__)


@dataclass
class Service:
    settings: Settings
    store: Store
    queue: Queue
    matrix: Index
    metrics: Metrics


def create_app(service: Service) -> FastAPI:
    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        stop_redacting = log_redaction.install(secrets_of(service.settings))  # uvicorn's access log included
        consumer = EmbeddedConsumer(service.queue, service.store) if service.settings.embedded_worker else None
        if consumer:
            consumer.start()
        yield
        if consumer:
            consumer.stop()
        stop_redacting()

    app = FastAPI(title="envtriage", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)

    @app.post("/webhook")
    async def webhook(request: Request) -> Response:
        started = time.perf_counter()
        try:
            body = await _body(request, service.settings.max_payload_bytes)
            verify_signature(body, request.headers.get("x-hub-signature-256"), service.settings.webhook_secrets)
            event, delivery_id, payload = parse(request.headers, body, service.settings.max_payload_bytes)
        except Rejected as exc:
            service.metrics.rejected(exc.kind)
            return JSONResponse({"error": str(exc)}, status_code=exc.status)
        try:
            decision = await _accept(service, event, delivery_id, payload)
        except Rejected as exc:  # a repository this bot does not serve, an App delivery without its installation
            service.metrics.rejected(exc.kind, event)
            return JSONResponse({"error": str(exc)}, status_code=exc.status)
        service.metrics.delivery(decision.outcome, event, seconds=time.perf_counter() - started)
        status = {"queue": 202, "pong": 200, "ignore": 200, "duplicate": 200}[decision.outcome]
        return JSONResponse({"outcome": decision.outcome, "reason": decision.reason}, status_code=status)

    @app.get("/healthz")
    async def healthz() -> Response:
        counts = await run_in_threadpool(service.store.counts)
        return JSONResponse({"ok": True, "deliveries": counts})

    @app.get("/metrics")
    async def metrics() -> Response:
        counts = await run_in_threadpool(service.store.counts)
        return PlainTextResponse(service.metrics.render(counts), media_type="text/plain; version=0.0.4")

    _dashboard(app, service)
    return app


def _dashboard(app: FastAPI, service: Service) -> None:
    """Read-only, token-protected views of the triage history (bot/insights/dashboard.py renders them)."""

    async def view(request: Request, kind: str) -> Response:
        token = request.query_params.get("token")
        if not service.settings.dashboard_token:
            return JSONResponse({"error": "the dashboard is off: set ENVTRIAGE_DASHBOARD_TOKEN"}, status_code=404)
        if not dashboard.allowed(service.settings.dashboard_token, request.headers.get("authorization"), token):
            return JSONResponse({"error": "a valid dashboard token is required"}, status_code=401)
        params = request.query_params
        try:
            filters = dashboard.filters_from(params.get("repo"), params.get("since"), params.get("until"))
        except dashboard.DashboardError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        found = await run_in_threadpool(collect, service.store.engine, filters, service.matrix)
        web = service.settings.web_url  # issue links: github.com, or the Enterprise host the bot talks to
        if kind == "json":
            return JSONResponse(dashboard.json_data(found, web))
        if kind == "csv":
            return PlainTextResponse(dashboard.csv_text(found, web), media_type="text/csv; charset=utf-8")
        return HTMLResponse(dashboard.html(found, web, token=token))

    @app.get("/dashboard")
    async def page(request: Request) -> Response:
        return await view(request, "html")

    @app.get("/dashboard.json")
    async def data(request: Request) -> Response:
        return await view(request, "json")

    @app.get("/dashboard.csv")
    async def table(request: Request) -> Response:
        return await view(request, "csv")


async def _accept(service: Service, event: str, delivery_id: str, payload: dict[str, object]) -> Decision:
    """Route and store a delivery. Deciding reads routing fields only (on the event loop); the row is committed by
    the store's inbox, awaited here, or on PostgreSQL in a thread of the pool."""
    scope = Scope(service.settings.repositories, app=service.settings.app_auth)
    decision = decide(event, delivery_id, payload, service.settings.bot_login, scope)
    if decision.outcome != "queue" or decision.delivery is None:
        return decision
    delivery = decision.delivery
    pending = service.store.submit(delivery)
    seq = await (asyncio.wrap_future(pending) if pending else run_in_threadpool(service.store.record, delivery))
    if seq is None:
        return Decision("duplicate", f"delivery {delivery_id} was already received")
    if service.queue.wakes:
        await run_in_threadpool(_wake, service, delivery, seq)
    return decision


def _wake(service: Service, delivery: Delivery, seq: int) -> None:
    if service.store.waiting_before(delivery.repo, delivery.number, seq):
        return  # whoever handles the earlier one finds this one too
    try:
        service.queue.enqueue(delivery.repo, delivery.number)
    except Exception:  # the queue (Redis) is down: the delivery is safe in the database, the sweep wakes it
        log.warning("could not queue %s#%s; the periodic sweep will", delivery.repo, delivery.number, exc_info=True)


def secrets_of(settings: Settings) -> list[str]:
    """The configured values that no log line may show."""
    return [*settings.webhook_secrets, *(s for s in (settings.token, settings.dashboard_token,
                                                      settings.app_private_key) if s)]  # fmt: skip


async def _body(request: Request, limit: int) -> bytes:
    """The raw body (the signature covers the exact bytes), refused as soon as it passes the limit."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise Rejected(413, f"payload larger than {limit} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Rejected(413, f"payload larger than {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)
