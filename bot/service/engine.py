"""The database engine: its URL (psycopg 3 for PostgreSQL), its options and pragmas, and one retry where the server
dropped the connection."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import sqlalchemy as sa

SQLITE_TIMEOUT = 30  # seconds a connection waits for SQLite's write lock
P = ParamSpec("P")
R = TypeVar("R")


def reconnecting(method: Callable[P, R]) -> Callable[P, R]:
    """Run once more when the database dropped the connection (a restart, a failover, an idle timeout)."""

    @functools.wraps(method)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except sa.exc.DBAPIError as exc:
            if not exc.connection_invalidated:
                raise
            return method(*args, **kwargs)

    return call


def engine_url(url: str) -> str:
    """postgresql:// and postgres:// (what PaaS and docs hand out) mean the psycopg 3 driver this package ships."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL lets the webhook threads read while the worker writes; synchronous=NORMAL keeps every committed
    # delivery across a process crash (a power cut may lose the last few), at a fraction of FULL's fsyncs.
    # secure_delete: a cleared payload's bytes are zeroed, not left in the file's free space (bot/service/scrub.py).
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA secure_delete=ON")
    cursor.close()


def engine_options(url: str) -> dict[str, Any]:
    if url.startswith("sqlite"):
        # One file shared by the web threads and the worker thread: wait for the lock instead of failing.
        return {"connect_args": {"timeout": SQLITE_TIMEOUT, "check_same_thread": False}}
    # No pre-ping (a round trip per checkout, on the webhook's path): a connection the server dropped fails its
    # first statement, SQLAlchemy discards the whole pool, and `reconnecting` tries once more.
    return {"pool_size": 10, "max_overflow": 20, "pool_recycle": 1800}
