"""What a handled delivery leaves on disk: no byte of a pasted secret, in any file of the SQLite database.

The rows were clean already (tests/bot/diagnosis/test_render_secrets.py); this reads the files themselves, where the
delivery's payload (GitHub's copy of the issue, secrets and all) stays after its row is cleared: in the
write-ahead log's frames, and in the main file's freed space.
"""

from __future__ import annotations

import time
from pathlib import Path

import sqlalchemy as sa

from bot.service.store import Delivery, Store
from tests.bot.diagnosis.test_render_secrets import TITLE, body, one_line
from tests.bot.harness import REPO, Running, opened, wait_until
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


def test_the_log_is_emptied_when_the_drops_pause_and_at_least_every_longest(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    store = Store(f"sqlite:///{database}", scrub_seconds=1.5)
    store.create()
    plants = SECRETS[:3]
    seqs = [
        store.record(Delivery(f"d{i}", "issues", "opened", REPO, i, None, {"body": plant.secrets[0] * 200}))
        for i, plant in enumerate(plants)  # longer than a page: its overflow pages are freed when it is dropped
    ]
    assert all(seqs) and on_disk(database) == {"bot.db-wal": [plant.kind for plant in plants]}
    store.finish([seqs[0] or 0])  # dropped, then nothing: emptied once the work has paused (QUIET_SECONDS)
    assert (tmp_path / "bot.db-wal").stat().st_size > 0
    wait_until(lambda: (tmp_path / "bot.db-wal").stat().st_size == 0, timeout=5)
    assert on_disk(database) == {"bot.db": [plants[1].kind, plants[2].kind]}
    store.finish([seqs[1] or 0])
    wait_until(lambda: (tmp_path / "bot.db-wal").stat().st_size == 0, timeout=5)
    assert on_disk(database) == {"bot.db": [plants[2].kind]}, "the main file's copy is zeroed too"
    store.finish([seqs[2] or 0], "dead", "kept for `revive`")  # a dead letter keeps its payload
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM deliveries WHERE payload != '{}'")).scalar() == 1
        # Debian builds SQLite with SECURE_DELETE on; python.org's and others do not: each connection says so.
        assert conn.exec_driver_sql("PRAGMA secure_delete").scalar() == 1


def test_a_steady_stream_of_drops_is_checkpointed_every_longest_not_at_each_drop(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'bot.db'}", scrub_seconds=1.0)
    store.create()
    scrubber = store._scrubber
    assert scrubber is not None
    times: list[float] = []
    real = scrubber.checkpoint

    def timed() -> bool:
        times.append(time.monotonic())
        return real()

    scrubber.checkpoint = timed  # type: ignore[method-assign]
    started = time.monotonic()
    while time.monotonic() - started < 2.6:  # drops every 0.1 s: the work never pauses
        scrubber.dropped()
        time.sleep(0.1)
    assert 2 <= len(times) <= 3, [round(t - started, 2) for t in times]
    assert times[0] - started >= 0.9, "not at the first drop: the webhook's writes would wait for it"
