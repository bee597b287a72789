"""The schema's guarantees on both databases: no text column of any table is ever handed a NUL character."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from bot.service.store import Store
from bot.service.tables import metadata
from tests.servers import postgres_url  # noqa: F401 - fixture

WITH_NUL = "a\x00b\x00"


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[sa.Engine]:
    url = f"sqlite:///{tmp_path / 'bot.db'}" if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    store = Store(url)
    store.create()
    yield store.engine
    store.engine.dispose()


def value_for(column: sa.Column[Any], text: str) -> object:
    python_type = column.type.python_type
    if python_type is str:
        return text
    if python_type is bool:
        return False
    if python_type is datetime.datetime:
        return datetime.datetime(2025, 1, 2, tzinfo=datetime.timezone.utc)
    return python_type(1)


def text_columns(table: sa.Table) -> list[str]:
    return [column.name for column in table.columns if column.type.python_type is str]


@pytest.mark.parametrize("table", metadata.sorted_tables, ids=lambda table: table.name)
def test_nul_is_dropped_from_every_text_column(engine: sa.Engine, table: sa.Table) -> None:
    """PostgreSQL text cannot hold NUL, and a title, a body or a payload's field may carry one: written as is,
    the insert fails on every attempt and the issue ends as a dead letter."""
    assert text_columns(table), "every table keeps some text"
    row = {column.name: value_for(column, WITH_NUL) for column in table.columns if column.autoincrement is not True}
    with engine.begin() as conn:
        conn.execute(table.insert().values(**row))
    changed = {name: "\x00c" for name in text_columns(table) if not table.c[name].primary_key}
    with engine.begin() as conn:
        if changed:
            conn.execute(table.update().values(**changed))
        kept = conn.execute(sa.select(table)).mappings().one()
    assert {name: kept[name] for name in text_columns(table)} == {
        name: "c" if name in changed else "ab" for name in text_columns(table)
    }
    with engine.connect() as conn:  # and a lookup by the text as received finds the row
        key = [table.c[name] == WITH_NUL for name in text_columns(table) if table.c[name].primary_key]
        assert not key or conn.execute(sa.select(sa.func.count()).select_from(table).where(*key)).scalar() == 1
