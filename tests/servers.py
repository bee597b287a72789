"""The PostgreSQL and Redis the scale-out tests use, when they are there (skipped with the reason otherwise).

ENVTRIAGE_TEST_POSTGRES (default postgresql://postgres@127.0.0.1:5432/test) is an account that may create
databases: each test gets a fresh database, dropped afterwards. ENVTRIAGE_TEST_REDIS (default
redis://127.0.0.1:6379/15) is a Redis database the tests may flush. `.ci/run` starts both when it can.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

POSTGRES = os.environ.get("ENVTRIAGE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("ENVTRIAGE_TEST_REDIS", "redis://127.0.0.1:6379/15")


def _postgres_admin():  # type: ignore[no-untyped-def]
    try:
        import psycopg

        return psycopg.connect(POSTGRES, autocommit=True, connect_timeout=2)
    except Exception as exc:  # no driver, no server, no permission: all mean "skip"
        pytest.skip(f"PostgreSQL not available at {POSTGRES}: {exc}")


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test."""
    admin = _postgres_admin()
    name = f"envtriage_test_{uuid.uuid4().hex[:12]}"
    admin.execute(f'CREATE DATABASE "{name}"')
    base = POSTGRES.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@pytest.fixture
def redis_url() -> str:
    """An emptied Redis database."""
    try:
        import redis

        client = redis.Redis.from_url(REDIS, socket_connect_timeout=2)
        client.flushdb()
    except Exception as exc:
        pytest.skip(f"Redis not available at {REDIS}: {exc}")
    return REDIS
