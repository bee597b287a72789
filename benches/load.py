"""Load and fault runs on loopback: signed deliveries at a set rate against the bot and the fake GitHub.

  python benches/load.py [--mode embedded|scaled] [--rate 200] [--seconds 60] [--issues 300] [--hostile N]
        [--fault none|kill-worker|kill-server|restart-postgres|restart-redis|github-500|github-429|github-403]

embedded: one `python -m bot serve` (SQLite, worker thread). scaled: two replicas and two `python -m bot worker`
on PostgreSQL and Redis (ENVTRIAGE_TEST_POSTGRES / ENVTRIAGE_TEST_REDIS, as for the tests; restart faults use
pg_ctlcluster / redis-server on this box). The issues hold real issue texts; each gets `opened`, then edits and
comments. A send that fails (server down) is redelivered every second, as an operator would from GitHub's UI.
--hostile N: the first N issues hold hostile bodies (benches/load_fake.py), and the last line adds the
acknowledgements of the other issues' deliveries (ack_p99_others_ms). Bounded: --seconds of sending, then at most
--drain seconds for the queue to empty. The last line:
deliveries=N acked=N lost=N duplicated=N ack_p50_ms=X ack_p99_ms=Y e2e_p99_ms=Z
(lost: acknowledged but not done at the end; duplicated: bot comments beyond one per issue plus repeated label adds).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import json
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from benches.load_client import ConnectionLost, Pool  # noqa: E402
from benches.load_cluster import Cluster  # noqa: E402
from benches.load_fake import issue_text  # noqa: E402
from bot.service.store import Store  # noqa: E402
from tests.fakegithub.standalone import bodies  # noqa: E402

SECRET = "load-test-secret"
REPO = "Codertocat/Hello-World"
PAYLOADS = REPO_ROOT / "tests" / "fixtures" / "payloads"
REDELIVER_AFTER = 1.0
IN_FLIGHT = 64


def deliveries(count: int, issues: int, hostile: int = 0) -> list[tuple[str, str, bytes]]:
    """(delivery id, event, raw body): per issue `opened` first, then edits and comments in turn."""
    opened = json.loads((PAYLOADS / "issues.opened.json").read_text())
    edited = json.loads((PAYLOADS / "issues.edited.json").read_text())
    comment = json.loads((PAYLOADS / "issue_comment.created.json").read_text())
    texts, seen, made = bodies(), set(), []
    for n in range(count):
        number = n % issues + 1
        title, body = issue_text(number, hostile, texts)
        event, template = (
            ("issues", opened) if number not in seen else [("issues", edited), ("issue_comment", comment)][n % 2]
        )
        seen.add(number)
        data = json.loads(json.dumps(template))
        data["issue"].update(number=number, title=title, body=body)
        if template is edited:
            data["changes"] = {}  # GitHub sometimes omits the old text: the worker compares digests
        made.append((f"load-{n}", event, json.dumps(data).encode()))
    return made


def headers(delivery_id: str, event: str, raw: bytes) -> dict[str, str]:
    signature = "sha256=" + hmac.new(SECRET.encode(), raw, hashlib.sha256).hexdigest()
    return {"X-GitHub-Event": event, "X-GitHub-Delivery": delivery_id, "X-Hub-Signature-256": signature,
            "Content-Type": "application/json"}  # fmt: skip


async def send(pools: list[Pool], n: int, item: tuple[str, str, bytes], deadline: float) -> tuple[str, int, float]:
    """One delivery, redelivered until acknowledged or the deadline: (id, status, ms of the acknowledged try)."""
    delivery_id, event, raw = item
    while True:
        pool = pools[n % len(pools)]
        request = pool.request(headers(delivery_id, event, raw), raw)
        start = time.perf_counter()
        try:
            status = await asyncio.wait_for(pool.post(request), timeout=10)
            if status < 500:
                return delivery_id, status, (time.perf_counter() - start) * 1000
        except (ConnectionLost, TimeoutError):
            pass
        if time.monotonic() > deadline:
            return delivery_id, 0, 0.0
        await asyncio.sleep(REDELIVER_AFTER)


async def drive(urls: list[str], items: list[tuple[str, str, bytes]], rate: float, fault: Any) -> list[Any]:
    """Send on schedule over IN_FLIGHT kept-alive connections per replica; a sender that falls behind shows in
    `sent_in`."""
    pools = [Pool(url, IN_FLIGHT) for url in urls]
    start, tasks, fault_at = time.monotonic(), [], len(items) // 3
    for n, item in enumerate(items):
        delay = start + n / rate - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        if n == fault_at:
            tasks.append(asyncio.create_task(asyncio.to_thread(fault)))
        tasks.append(asyncio.create_task(send(pools, n, item, time.monotonic() + 120)))
    results = await asyncio.gather(*tasks)
    for pool in pools:
        await pool.close()
    return [r for r in results if isinstance(r, tuple)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def settle(store: Store, drain: float) -> None:
    deadline = time.monotonic() + drain
    while store.counts().get("pending", 0) and time.monotonic() < deadline:
        time.sleep(0.5)


def outcome(store: Store, results: list[tuple[str, int, float]], stats: dict[str, Any], hostile: set[str]
            ) -> dict[str, Any]:  # fmt: skip
    """The figures; `hostile`: the ids of the deliveries for issues with hostile bodies."""
    acked = {delivery_id for delivery_id, status, _ in results if status in (200, 202)}
    done, e2e = store.finished()
    extra_comments = sum(max(0, count - 1) for count in stats["bot_comments"].values())
    others = {"ack_p99_others_ms": round(percentile([ms for i, s, ms in results if s == 202 and i not in hostile],
                                                    0.99), 1)} if hostile else {}  # fmt: skip
    return {
        "deliveries": len(results),
        "acked": len(acked),
        "lost": len(acked - done),
        "duplicated": extra_comments + stats["repeated_label_adds"],
        "ack_p50_ms": round(percentile([ms for _, s, ms in results if s == 202], 0.5), 1),
        "ack_p99_ms": round(percentile([ms for _, s, ms in results if s == 202], 0.99), 1),
        "e2e_p99_ms": round(percentile(e2e, 0.99)),
    } | others


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["embedded", "scaled"], default="embedded")
    parser.add_argument("--rate", type=float, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--issues", type=int, default=300)
    parser.add_argument("--fault", default="none", choices=["none", "kill-worker", "kill-server", "restart-postgres",
                        "restart-redis", "github-500", "github-429", "github-403"])  # fmt: skip
    parser.add_argument("--drain", type=float, default=300)
    parser.add_argument("--hostile", type=int, default=0, help="the first N issues hold hostile bodies")
    args = parser.parse_args()
    items = deliveries(int(args.rate * args.seconds), args.issues, args.hostile)
    hostile = {item[0] for n, item in enumerate(items) if n % args.issues < args.hostile}  # issue n % issues + 1
    with tempfile.TemporaryDirectory(prefix="envtriage-load-") as folder, Cluster(
        args.mode, Path(folder), REPO, args.issues, SECRET, args.hostile
    ) as cluster:  # fmt: skip
        started = time.monotonic()
        results = asyncio.run(drive(cluster.urls, items, args.rate, lambda: cluster.inject(args.fault)))
        sent_for = time.monotonic() - started
        store = Store(cluster.database_url)
        settle(store, args.drain)
        figures = outcome(store, results, cluster.stats(), hostile)
        counts = store.counts()
    print(f"mode={args.mode} fault={args.fault} rate={args.rate:g}/s sent_in={sent_for:.1f}s states={counts}")
    print(" ".join(f"{key}={value}" for key, value in figures.items()))
    return 0 if figures["lost"] == 0 and figures["duplicated"] == 0 else 1


def _terminate(signum: int, _frame: Any) -> None:
    raise SystemExit(128 + signum)  # unwinds through Cluster.__exit__: no server or worker outlives the run


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _terminate)
    raise SystemExit(main())
