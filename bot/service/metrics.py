"""Prometheus metrics of one service process, in its own registry (no global state, tests stay independent)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

# envtriage_deliveries_total's outcome for each decision of the edge (bot/service/webhook.py Decision.outcome); a
# refusal counts as its Rejected.kind ("rejected_signature", ...), under event "unknown" where it came before the
# signature was checked: a header nobody signed must not name a label (one time series per forged value).
ACCEPTED_AS = {"queue": "accepted", "pong": "ping", "ignore": "ignored", "duplicate": "duplicate"}
UNVERIFIED = "unknown"


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.deliveries = Counter(
            "envtriage_deliveries", "Webhook deliveries by outcome and event", ["outcome", "event"],
            registry=self.registry,
        )  # fmt: skip
        self.ack_seconds = Histogram(
            "envtriage_ack_seconds", "Time from request to webhook answer",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0), registry=self.registry,
        )  # fmt: skip
        self.queue = Gauge("envtriage_deliveries_by_state", "Deliveries in the database by state", ["state"],
                           registry=self.registry)  # fmt: skip

    def delivery(self, decision: str, event: str, seconds: float) -> None:
        self.deliveries.labels(outcome=ACCEPTED_AS.get(decision, decision), event=event).inc()
        self.ack_seconds.observe(seconds)

    def rejected(self, kind: str, event: str = UNVERIFIED) -> None:
        self.deliveries.labels(outcome=kind, event=event).inc()

    def render(self, counts: dict[str, int]) -> str:
        for state in ("pending", "done", "dead"):
            self.queue.labels(state=state).set(counts.get(state, 0))
        return generate_latest(self.registry).decode()
