"""Duplicate suggestions end to end: deliveries in, the index kept current, the comment naming the earlier issue."""

from __future__ import annotations

import sqlalchemy as sa

from bot.insights.dedupe import DuplicateIndex, Features
from bot.insights.dedupe.index import stored
from bot.service.tables import dup_issues
from bot.service.webhook import decide
from tests.bot.harness import REPO, Running, bot_comments, opened, payload
from tests.conftest import fixture_text
from tests.fakegithub import FakeGitHub

FIRST_TITLE = "torch.cuda.is_available() is False inside my container"
SECOND_TITLE = "No CUDA GPUs are available although nvidia-smi shows the H200"
PLAIN_TITLE = "Training job fails in our cluster"  # names no error, version or GPU


def hidden_gpus_report() -> str:
    return fixture_text("h200-1gpu", "broken-cvd-empty.md")


def second_report() -> str:
    """The same problem told differently: the error and torch's own output, pasted by another user."""
    return (
        "Same machine type, other container.\n\n```\n"
        + fixture_text("h200-1gpu", "broken-cvd-empty-torch.txt")
        + "```\n"
    )


def send_issue(bot: Running, fake: FakeGitHub, number: int, title: str, body: str) -> None:
    fake.add_issue(REPO, number=number, title=title, body=body)
    bot.send("issues", opened(body, number, title))
    bot.settle()


# A tracker of two issues cannot say how rare their shared error is, so the model is less sure of them than
# of the same pair among a real tracker's issues (tests/bot/dedupe_eval.py); these tests of the service's
# plumbing lower the threshold as a repository may.
LOWER = "duplicate_threshold: 0.4\n"


def test_the_second_issue_with_the_same_problem_names_the_first(bot: Running, fake: FakeGitHub) -> None:
    fake.set_file(REPO, ".github/envtriage.yml", LOWER)
    send_issue(bot, fake, 1, FIRST_TITLE, hidden_gpus_report())
    send_issue(bot, fake, 2, SECOND_TITLE, second_report())
    [first] = bot_comments(fake, 1)
    [second] = bot_comments(fake, 2)
    assert "Possibly the same problem" not in first["body"]
    assert "#1" in second["body"] and "same error signature" in second["body"]
    assert "possible-duplicate" in fake.labels_on(REPO, 2) and fake.issue(REPO, 2)["state"] == "open"


def test_a_different_problem_on_the_same_machine_is_not_a_duplicate(bot: Running, fake: FakeGitHub) -> None:
    send_issue(bot, fake, 1, FIRST_TITLE, hidden_gpus_report())
    send_issue(bot, fake, 2, "cuDNN version mismatch", fixture_text("h200-1gpu", "broken-ld-cudnn.md"))
    [second] = bot_comments(fake, 2)
    assert "Possibly the same problem" not in second["body"]
    assert "possible-duplicate" not in fake.labels_on(REPO, 2)


def test_closed_issues_stay_suggestable_and_deleted_ones_leave_the_index(bot: Running, fake: FakeGitHub) -> None:
    fake.set_file(REPO, ".github/envtriage.yml", LOWER)
    send_issue(bot, fake, 1, FIRST_TITLE, hidden_gpus_report())
    # The example payloads have no issues.closed; it has the shape of issues.reopened with another action.
    closed = payload("issues.reopened", **{"action": "closed", "issue.number": 1, "issue.title": FIRST_TITLE,
                                           "issue.body": hidden_gpus_report(), "issue.state": "closed"})  # fmt: skip
    fake.edit_issue(REPO, 1, state="closed")
    calls = len(fake.calls)
    bot.send("issues", closed)
    bot.settle()
    assert len(fake.calls) == calls, "the index is kept from the payload, without asking GitHub"
    send_issue(bot, fake, 2, SECOND_TITLE, second_report())
    assert "#1 (closed)" in bot_comments(fake, 2)[0]["body"]
    bot.send("issues", payload("issues.deleted", **{"issue.number": 1}))
    bot.settle()
    index = DuplicateIndex(bot.store.engine)
    assert index.count(REPO) == 1


def test_duplicate_detection_can_be_turned_off(bot: Running, fake: FakeGitHub) -> None:
    fake.set_file(REPO, ".github/envtriage.yml", "duplicates: false\n")
    send_issue(bot, fake, 1, FIRST_TITLE, hidden_gpus_report())
    send_issue(bot, fake, 2, SECOND_TITLE, second_report())
    assert "Possibly the same problem" not in bot_comments(fake, 2)[0]["body"]


def test_a_retitled_issue_is_indexed_under_its_new_title(bot: Running, fake: FakeGitHub) -> None:
    """A title edit changes no diagnosis (no new comment), but the index must know the new title."""
    send_issue(bot, fake, 1, FIRST_TITLE, hidden_gpus_report())
    comment = bot_comments(fake, 1)
    fake.edit_issue(REPO, 1, title=PLAIN_TITLE)
    edit = {"issue.number": 1, "issue.title": PLAIN_TITLE, "issue.body": hidden_gpus_report()}
    bot.send("issues", payload("issues.edited", **edit, changes={"title": {"from": FIRST_TITLE}}))
    bot.settle()
    with bot.store.engine.connect() as db:
        titles = db.execute(sa.select(dup_issues.c.title).where(dup_issues.c.repo == REPO)).scalars().all()
    assert titles == [PLAIN_TITLE]
    assert [c["body"] for c in bot_comments(fake, 1)] == [c["body"] for c in comment], "no new comment, no edit"


def test_a_strict_repository_threshold_holds_the_same_pair_back(bot: Running, fake: FakeGitHub) -> None:
    """The pair the first test suggests at 0.4, below a strict repository's threshold."""
    fake.set_file(REPO, ".github/envtriage.yml", "duplicate_threshold: 0.99\n")
    send_issue(bot, fake, 1, FIRST_TITLE, hidden_gpus_report())
    send_issue(bot, fake, 2, SECOND_TITLE, second_report())
    assert "Possibly the same problem" not in bot_comments(fake, 2)[0]["body"]


def unlabel(bot: Running, number: int, label: str, action: str = "unlabeled") -> None:
    bot.send("issues", payload(f"issues.{action}", **{"issue.number": number, "label.name": label}))
    bot.settle()


def test_a_removed_duplicate_label_is_remembered(bot: Running, fake: FakeGitHub) -> None:
    """A maintainer takes `possible-duplicate` off #2: #1 is never suggested for #2 again, though it still is for
    another issue with the same problem; an unrelated label change rejects nothing."""
    fake.set_file(REPO, ".github/envtriage.yml", LOWER)
    send_issue(bot, fake, 1, FIRST_TITLE, hidden_gpus_report())
    send_issue(bot, fake, 2, SECOND_TITLE, second_report())
    assert "#1" in bot_comments(fake, 2)[0]["body"]
    index = DuplicateIndex(bot.store.engine)
    unlabel(bot, 2, "bug")
    assert [c.number for c in index.similar(REPO, _features(bot, 2), before=2, exclude=2, threshold=0.4)] == [1]
    unlabel(bot, 2, "possible-duplicate")
    assert index.similar(REPO, _features(bot, 2), before=2, exclude=2, threshold=0.4) == []
    send_issue(bot, fake, 3, SECOND_TITLE, second_report())
    assert "#1" in bot_comments(fake, 3)[0]["body"]


def test_a_not_duplicate_label_is_remembered_and_the_comment_drops_it(bot: Running, fake: FakeGitHub) -> None:
    fake.set_file(REPO, ".github/envtriage.yml", LOWER)
    send_issue(bot, fake, 1, FIRST_TITLE, hidden_gpus_report())
    send_issue(bot, fake, 2, SECOND_TITLE, second_report())
    assert "#1" in bot_comments(fake, 2)[0]["body"] and "possible-duplicate" in fake.labels_on(REPO, 2)
    unlabel(bot, 2, "not-duplicate", action="labeled")
    [comment] = bot_comments(fake, 2)
    assert "#1" not in comment["body"] and "Possibly the same problem" not in comment["body"]
    unlabel(bot, 2, "not-duplicate", action="labeled")  # again: nothing new to remember, nothing re-triaged
    assert bot_comments(fake, 2) == [comment]


def _features(bot: Running, number: int) -> Features:
    with bot.store.engine.connect() as db:
        raw = db.execute(sa.select(dup_issues.c.features).where(dup_issues.c.number == number)).scalar_one()
    return stored(raw)


def test_only_label_changes_that_can_reject_a_suggestion_are_queued() -> None:
    def action(name: str, label: str) -> str:
        return decide("issues", "d", payload(f"issues.{name}", **{"label.name": label}), None).outcome

    assert action("unlabeled", "possible-duplicate") == "queue"  # the repository may name it otherwise
    assert action("unlabeled", "bug") == "queue"
    assert action("labeled", "not-duplicate") == "queue"
    assert action("labeled", "bug") == "ignore"


def comment(bot: Running, fake: FakeGitHub, number: int, body: str, user: str, association: str = "NONE") -> None:
    fake.add_comment(REPO, number, body, user=user, author_association=association)
    bot.send("issue_comment", payload("issue_comment.created", **{"issue.number": number, "comment.body": body}))
    bot.settle()


def test_the_reporter_saying_not_a_duplicate_is_remembered(bot: Running, fake: FakeGitHub) -> None:
    """GitHub sends no webhook for a reaction; the reporter says so in a comment (a bystander's word does not
    count), and the comment is re-made without #1."""
    fake.set_file(REPO, ".github/envtriage.yml", LOWER)
    send_issue(bot, fake, 1, FIRST_TITLE, hidden_gpus_report())
    send_issue(bot, fake, 2, SECOND_TITLE, second_report())
    comment(bot, fake, 2, "This is not a duplicate of #1: my container sets the variable itself.", user="mallory")
    assert "#1" in bot_comments(fake, 2)[0]["body"], "a bystander cannot reject"
    comment(bot, fake, 2, "Not a dup, see above.", user="alice")  # the reporter (fake.add_issue's default)
    [remade] = bot_comments(fake, 2)
    assert "#1" not in remade["body"] and "Possibly the same problem" not in remade["body"]


def test_a_maintainer_saying_not_duplicate_is_remembered(bot: Running, fake: FakeGitHub) -> None:
    fake.set_file(REPO, ".github/envtriage.yml", LOWER)
    send_issue(bot, fake, 1, FIRST_TITLE, hidden_gpus_report())
    send_issue(bot, fake, 2, SECOND_TITLE, second_report())
    comment(bot, fake, 2, "/not-duplicate", user="maintainer", association="MEMBER")
    assert "#1" not in bot_comments(fake, 2)[0]["body"]
    index = DuplicateIndex(bot.store.engine)
    assert index.similar(REPO, _features(bot, 1), exclude=1, threshold=0.4) == [], "nor #2 for #1"
