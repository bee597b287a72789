"""Shared bits for the bot's tests: the packaged matrix and a triage shortcut."""

from __future__ import annotations

import pytest

from bot.matrix import Index
from bot.matrix import default as default_matrix
from bot.triage import Plan, triage


@pytest.fixture(scope="session")
def matrix() -> Index:
    return default_matrix()


@pytest.fixture
def run(matrix: Index):  # type: ignore[no-untyped-def]
    def go(body: str, title: str = "", comments: tuple[str, ...] = ()) -> Plan:
        return triage(matrix, body, title, comments)

    return go
