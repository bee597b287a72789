"""What a handled delivery leaves on disk: no byte of a pasted secret, in any file of the SQLite database.

The rows were clean already (tests/bot/test_render_secrets.py); this reads the files themselves, where the
delivery's payload (GitHub's copy of the issue, secrets and all) stays after its row is cleared: in the
write-ahead log's frames, and in the main file's freed space.
"""

from __future__ import annotations

import time
from pathlib import Path

import sqlalchemy as sa

from bot.store import Delivery, Store
from tests.bot.service import REPO, Running, opened, wait_until
from tests.bot.test_render_secrets import TITLE, body, one_line
from tests.fakegithub import FakeGitHub
from tests.planted import SECRETS

WINDOW = 12  # any 12 characters of a secret in a row count: none is a coincidence


def on_disk(database: Path) -> dict[str, list[str]]:
    """Planted kinds found in each file of the database (main file, -wal, -shm, -journal), read as bytes."""
    found = {}
    for path in sorted(database.parent.glob(database.name + "*")):
        data = path.read_bytes()
        kinds = [plant.kind for plant in SECRETS if any(window in data for window in windows(plant.secrets))]
        if kinds:
            found[path.name] = kinds
    return found


def windows(secrets: tuple[str, ...]) -> list[bytes]:
    return [s[i : i + WINDOW].encode() for s in secrets for i in range(0, max(1, len(s) - WINDOW + 1), WINDOW)]


def test_no_pasted_secret_is_left_in_any_database_file(bot: Running, fake: FakeGitHub, tmp_path: Path) -> None:
    issue = body(" ".join(one_line(plant) for plant in SECRETS))
    title = f"{TITLE} {one_line(SECRETS[0])}"
    fake.add_issue(REPO, number=1, body=issue, title=title)
    fake.delay = 1.0  # the worker waits for GitHub while the inbox is looked at
    assert bot.send("issues", opened(issue, title=title)).status_code == 202
    database = tmp_path / "bot.db"
    assert len(on_disk(database).get("bot.db-wal", [])) == len(SECRETS), "the inbox held every secret"
    fake.delay = 0.0
    bot.settle()
    assert bot.store.counts() == {"done": 1}
    left, deadline = on_disk(database), time.monotonic() + 10
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = on_disk(database)
    assert left == {}


def test_the_log_is_emptied_once_payloads_are_dropped_and_not_more_often_than_asked(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    store = Store(f"sqlite:///{database}", scrub_seconds=1.5)
    store.create()
    plants = SECRETS[:3]
    seqs = [
        store.record(Delivery(f"d{i}", "issues", "opened", REPO, i, None, {"body": plant.secrets[0] * 200}))
        for i, plant in enumerate(plants)  # longer than a page: its overflow pages are freed when it is dropped
    ]
    assert all(seqs) and on_disk(database) == {"bot.db-wal": [plant.kind for plant in plants]}
    started = time.monotonic()
    store.finish([seqs[0] or 0])  # dropped: the log is emptied now, the others' payloads are in the main file
    assert (tmp_path / "bot.db-wal").stat().st_size == 0
    assert on_disk(database) == {"bot.db": [plants[1].kind, plants[2].kind]}
    store.finish([seqs[1] or 0])  # within the interval: emptied at its end, not at once
    assert (tmp_path / "bot.db-wal").stat().st_size > 0
    wait_until(lambda: (tmp_path / "bot.db-wal").stat().st_size == 0, timeout=5)
    assert time.monotonic() - started >= 1.5
    assert on_disk(database) == {"bot.db": [plants[2].kind]}, "the main file's copy is zeroed too"
    store.finish([seqs[2] or 0], "dead", "kept for `revive`")  # a dead letter keeps its payload
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM deliveries WHERE payload != '{}'")).scalar() == 1
        # Debian builds SQLite with SECURE_DELETE on; python.org's and others do not: each connection says so.
        assert conn.exec_driver_sql("PRAGMA secure_delete").scalar() == 1
