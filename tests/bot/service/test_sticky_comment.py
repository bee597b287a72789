"""The sticky comment against an ambiguous GitHub, and what a long thread costs to read.

A POST that times out may have landed (or may land later): one comment is kept, none is posted blindly. A thread
of thousands of comments costs a few GETs per delivery, not one per page of it.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.diagnosis.config import RepoConfig
from bot.diagnosis.matrix import Index
from bot.diagnosis.render import MARKER
from bot.service.github_io import Clients
from bot.service.store import Delivery, Store, now
from bot.service.worker import Processor, Result, Retry
from tests.bot.harness import REPO, Running, bot_comments, broken_report, payload, settings_for, wait_until
from tests.fakegithub import FakeGitHub

TIMEOUT = 1  # the worker's GitHub client gives up after a second
HANG = 1.5  # the fake answers (or commits) a hanging POST this late
NO_REPORT = "### Describe the bug\n\nIt crashes.\n\n### Versions\n\n_No response_\n"
POST_COMMENT = r"/issues/1/comments$"


@pytest.fixture
def worker(fake: FakeGitHub, tmp_path: Path, matrix: Index) -> Iterator[Processor]:
    """The worker as the queue runs it, on a client with a short timeout."""
    settings = settings_for(fake, tmp_path / "bot.db")
    store = Store(settings.database_url)
    store.create()
    yield Processor(settings, store, matrix, Clients(settings, timeout=TIMEOUT), clock=Clock())
    store.engine.dispose()


class Clock:
    """The worker's clock, moved on by each retry's whole delay (the test sleeps only part of it)."""

    def __init__(self) -> None:
        self.ahead = timedelta(0)

    def __call__(self) -> datetime:
        return now() + self.ahead


def deliver(worker: Processor) -> None:
    body = payload("issue_comment.created", **{"issue.number": 1})
    worker.store.record(Delivery(str(uuid.uuid4()), "issue_comment", "created", REPO, 1, None, body))


def work(worker: Processor, delays: list[float]) -> Result:
    """Process issue 1's deliveries as the queue does: a Retry is taken up again after its delay, no sooner
    (waiting is capped: past the fake's hang, a longer wait changes nothing)."""
    for _ in range(6):
        try:
            return worker.process(REPO, 1)
        except Retry as retry:
            delays.append(retry.delay)
            time.sleep(min(retry.delay, HANG + 0.5))
            assert isinstance(worker.clock, Clock)
            worker.clock.ahead += timedelta(seconds=retry.delay)  # a retry is not taken before its time
    raise AssertionError(f"still retrying after {delays}")


def mine(fake: FakeGitHub) -> list[dict[str, Any]]:
    return [c for c in bot_comments(fake) if c["user"]["login"] == fake.bot_login]


def posts(fake: FakeGitHub) -> int:
    return sum(c.method == "POST" and c.path.endswith("/comments") for c in fake.calls)


def test_a_post_that_hangs_and_then_lands_is_not_posted_again(worker: Processor, fake: FakeGitHub) -> None:
    fake.add_issue(REPO, number=1, body=broken_report())
    fake.hang_next(1, seconds=HANG, method="POST", path_regex=POST_COMMENT, commit_late=True)
    deliver(worker)
    delays: list[float] = []
    assert work(worker, delays).outcome == "done"
    time.sleep(HANG)  # long enough for any post still hanging to land
    assert len(mine(fake)) == 1 and posts(fake) == 1
    assert delays and delays[0] >= HANG, "not posted again before GitHub could have carried out the first"
    assert worker.store.issue(REPO, 1).comment_id == mine(fake)[0]["id"]


def test_a_post_that_lands_and_then_hangs_is_kept(worker: Processor, fake: FakeGitHub) -> None:
    fake.add_issue(REPO, number=1, body=broken_report())
    fake.hang_next(1, seconds=HANG, method="POST", path_regex=POST_COMMENT)
    deliver(worker)
    delays: list[float] = []
    result = work(worker, delays)
    assert result.outcome == "done" and delays == [], "reconciled in the same pass, no retry"
    assert result.applied is not None and result.applied.comment == "created"
    assert len(mine(fake)) == 1 and posts(fake) == 1
    assert worker.store.issue(REPO, 1).comment_id == mine(fake)[0]["id"]
    assert "unset CUDA_VISIBLE_DEVICES" in str(mine(fake)[0]["body"])


def test_a_failed_post_that_did_not_land_is_posted_again_after_the_wait(worker: Processor, fake: FakeGitHub) -> None:
    fake.add_issue(REPO, number=1, body=broken_report())
    fake.fail_next(1, status=502, method="POST", path_regex=POST_COMMENT)
    deliver(worker)
    delays: list[float] = []
    assert work(worker, delays).outcome == "done"
    assert len(delays) == 1 and len(mine(fake)) == 1 and posts(fake) == 2, "nothing lost"


def test_posts_that_landed_twice_leave_the_oldest_saying_the_current_text(worker: Processor, fake: FakeGitHub) -> None:
    fake.add_issue(REPO, number=1, body=broken_report())
    first = fake.add_comment(REPO, 1, f"{MARKER}\nstale", user=fake.bot_login, user_type="Bot")
    fake.add_comment(REPO, 1, "me too", user="carol")
    fake.add_comment(REPO, 1, f"{MARKER}\nstale too", user=fake.bot_login, user_type="Bot")
    deliver(worker)
    assert work(worker, []).outcome == "done"
    assert [c["id"] for c in mine(fake)] == [first["id"]]
    assert "unset CUDA_VISIBLE_DEVICES" in str(mine(fake)[0]["body"])
    assert worker.store.issue(REPO, 1).comment_id == first["id"]


def test_a_lost_store_does_not_give_a_long_thread_a_second_comment(worker: Processor, fake: FakeGitHub) -> None:
    fake.add_issue(REPO, number=1, body=broken_report())
    add_comments(fake, 450)
    ours = fake.add_comment(REPO, 1, f"{MARKER}\nfrom before the store was lost", user=fake.bot_login,
                            user_type="Bot")  # fmt: skip
    add_comments(fake, 450)
    deliver(worker)
    assert work(worker, []).outcome == "done"
    assert [c["id"] for c in mine(fake)] == [ours["id"]] and posts(fake) == 0
    assert "unset CUDA_VISIBLE_DEVICES" in str(mine(fake)[0]["body"])


def add_comments(fake: FakeGitHub, n: int) -> None:
    for i in range(n):
        fake.add_comment(REPO, 1, f"Same here on my machine ({i}).", user=f"user{i % 7}")


def gets(fake: FakeGitHub) -> list[str]:
    return [c.path for c in fake.calls if c.method == "GET"]


def comment_delivery(bot: Running, fake: FakeGitHub, body: str) -> None:
    fake.add_comment(REPO, 1, body, user="alice")
    bot.send("issue_comment", payload("issue_comment.created", **{"issue.number": 1, "comment.body": body}))
    bot.settle()


def test_a_delivery_on_a_thread_of_2000_comments_costs_a_few_gets(bot: Running, fake: FakeGitHub) -> None:
    fake.add_issue(REPO, number=1, body=NO_REPORT)
    add_comments(fake, 1000)
    comment_delivery(bot, fake, "Any news?")  # the bot asks for a report: its comment lands mid-thread
    [asked] = bot_comments(fake)
    assert RepoConfig().collector_command in str(asked["body"])
    add_comments(fake, 1000)
    fake.reset_calls()
    comment_delivery(bot, fake, "Still broken.")  # the repository, the issue, the thread's first and last pages
    assert len(gets(fake)) <= 5, gets(fake)
    fake.reset_calls()
    comment_delivery(bot, fake, broken_report())  # the report: the comment (read by its id) is edited
    comment_gets = [path for path in gets(fake) if "/comments" in path]
    assert len(comment_gets) <= 4 and len(gets(fake)) <= 8, gets(fake)
    [answered] = bot_comments(fake)
    assert answered["id"] == asked["id"] and "unset CUDA_VISIBLE_DEVICES" in str(answered["body"])
    assert "env: gpus-hidden-by-env" in fake.labels_on(REPO, 1)
    wait_until(lambda: bot.store.counts() == {"done": 3})
