"""`python -m bot jobs`: what operators see of the queue, and putting dead letters back."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot.service.store import Delivery, Store
from tests.bot.harness import REPO, payload

ROOT = Path(__file__).resolve().parents[3]


def jobs(database: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    return subprocess.run([sys.executable, "-m", "bot", "jobs", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)  # fmt: skip


def seeded(database: Path) -> Store:
    store = Store(f"sqlite:///{database}")
    store.create()
    for n, delivery_id in enumerate(["d-ok", "d-dead"], start=1):
        store.record(Delivery(delivery_id, "issues", "opened", REPO, n, None, payload("issues.opened")))
    [ok, dead] = store.pending(REPO, 1) + store.pending(REPO, 2)
    store.finish([ok.seq])
    store.attempt([dead.seq], "Transient: GitHub answered 502")
    store.finish([dead.seq], "dead", "Transient: GitHub answered 502")
    return store


def test_lists_states_and_dead_letters_with_their_error(tmp_path: Path) -> None:
    seeded(tmp_path / "bot.db")
    result = jobs(tmp_path / "bot.db")
    assert result.returncode == 0, result.stderr
    assert "1 dead, 1 done" in result.stdout
    assert f"d-dead  issues.opened  {REPO}#2  attempts 1" in result.stdout and "answered 502" in result.stdout


def test_retry_puts_a_dead_letter_back_and_says_which_ids_were_not(tmp_path: Path) -> None:
    store = seeded(tmp_path / "bot.db")
    result = jobs(tmp_path / "bot.db", "--retry", "d-dead", "d-ok")
    assert result.returncode == 1
    assert "1 dead letter put back" in result.stdout and "1 of the given ids is not a dead letter" in result.stdout
    assert store.counts() == {"done": 1, "pending": 1} and store.pending(REPO, 2)[0].attempts == 0


def test_an_empty_database_says_so(tmp_path: Path) -> None:
    result = jobs(tmp_path / "new.db")
    assert result.returncode == 0 and "none yet" in result.stdout and "No dead letters." in result.stdout
