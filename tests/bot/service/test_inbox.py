"""The inbox writer: deliveries from many threads committed together, each answered with its own sequence number."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa

from bot.service import inbox
from bot.service.store import Delivery, Store

REPO = "acme/gpu"


def delivery(n: int) -> Delivery:
    return Delivery(f"d{n}", "issues", "opened", REPO, n, None, {"n": n})


def test_many_threads_at_once_each_get_their_own_sequence_number(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'bot.db'}")
    store.create()
    seqs: dict[int, int | None] = {}
    threads = [threading.Thread(target=lambda n=n: seqs.__setitem__(n, store.record(delivery(n)))) for n in range(200)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(seqs.values())) == 200 and None not in seqs.values()
    assert store.counts() == {"pending": 200}
    assert store.record(delivery(7)) is None, "a redelivery (same X-GitHub-Delivery) is recognised"


def test_the_writer_waits_for_another_process_s_lock_and_then_writes(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    store = Store(f"sqlite:///{database}")
    store.create()
    other = sqlite3.connect(database, isolation_level=None)  # another process's writer holding the lock
    other.execute("BEGIN IMMEDIATE")
    answer: list[int | None] = []
    writer = threading.Thread(target=lambda: answer.append(store.record(delivery(1))))
    writer.start()
    writer.join(0.3)
    assert writer.is_alive() and answer == [], "it waits for the lock"
    other.execute("COMMIT")
    writer.join(5)
    assert answer and answer[0] is not None


def test_a_failed_batch_fails_each_waiting_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(f"sqlite:///{tmp_path / 'bot.db'}")
    store.create()
    monkeypatch.setattr(inbox, "INSERT", sa.text("INSERT INTO no_such_table VALUES (1)"))
    with pytest.raises(sa.exc.OperationalError, match="no_such_table"):
        store.record(delivery(1))
    monkeypatch.undo()
    assert store.record(delivery(2)) is not None, "the writer goes on after a failed batch"
