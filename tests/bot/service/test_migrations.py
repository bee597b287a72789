"""Schema migrations: alembic brings SQLite and PostgreSQL to exactly the schema bot/service/tables.py declares."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from bot.service.store import Store
from bot.service.tables import metadata
from tests.servers import postgres_url  # noqa: F401 - fixture


def differences(engine: sa.Engine) -> list[object]:
    with engine.connect() as conn:
        return list(compare_metadata(MigrationContext.configure(conn), metadata))


def test_sqlite_is_migrated_to_the_declared_schema_and_again_is_a_no_op(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'bot.db'}")
    store.create()
    store.create()
    assert differences(store.engine) == []
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == "0003"


def test_postgresql_is_migrated_to_the_declared_schema(postgres_url: str) -> None:  # noqa: F811
    store = Store(postgres_url)
    store.create()
    store.create()
    assert differences(store.engine) == []
    store.engine.dispose()
