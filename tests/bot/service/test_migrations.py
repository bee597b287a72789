"""Schema migrations: alembic brings SQLite and PostgreSQL to exactly the schema bot/service/tables.py declares."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from bot.service.migrate import SCRIPTS, config
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
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == "0004"


def test_postgresql_is_migrated_to_the_declared_schema(postgres_url: str) -> None:  # noqa: F811
    store = Store(postgres_url)
    store.create()
    store.create()
    assert differences(store.engine) == []
    store.engine.dispose()


def test_a_start_logs_only_what_changed_the_schema(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Alembic's own INFO lines (plugins, DDL mode, each step) printed a dozen lines at every serve/action start."""
    caplog.set_level(logging.INFO)
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        command.upgrade(config(connection), "0002")
    caplog.clear()
    Store(url).create()
    migrated = [record.getMessage() for record in caplog.records]
    assert len(migrated) == len(versions()) - 2, migrated  # one line for each migration after 0002
    assert all(line.startswith("database migrated to revision ") for line in migrated), migrated
    assert migrated[0].startswith("database migrated to revision 0003: deliveries: due_at"), migrated
    caplog.clear()
    Store(url).create()  # at head already
    Store("sqlite://").create()  # in memory (the action's): a new schema at every run, nothing to tell
    assert caplog.records == []
    Store(f"sqlite:///{tmp_path / 'new.db'}").create()
    assert [record.getMessage() for record in caplog.records] == [
        f"database schema created at revision {versions()[-1]}"
    ]


def versions() -> list[str]:
    return sorted(path.name.split("_")[0] for path in (SCRIPTS / "versions").glob("0*.py"))
