"""The webhook service end to end: signed real payloads in, the shared fake GitHub checked for what came out."""

from __future__ import annotations

import time
from pathlib import Path

from bot.diagnosis.config import RepoConfig
from tests.bot.harness import (
    REPO,
    Running,
    bot_comments,
    broken_report,
    healthy_report,
    opened,
    payload,
    running,
    settings_for,
    signed,
    wait_until,
)
from tests.fakegithub import FakeGitHub

NO_REPORT = "### Describe the bug\n\nIt crashes.\n\n### Versions\n\n_No response_\n"


def test_a_report_with_a_known_problem_gets_one_comment_and_the_label(bot: Running, fake: FakeGitHub) -> None:
    fake.add_issue(REPO, number=1, title="CUDA not available", body=broken_report())
    answer = bot.send("issues", opened(broken_report()))
    assert answer.status_code == 202 and answer.json()["outcome"] == "queue"
    bot.settle()
    comments = bot_comments(fake)
    assert len(comments) == 1 and "unset CUDA_VISIBLE_DEVICES" in str(comments[0]["body"])
    assert fake.labels_on(REPO, 1) == ["env: gpus-hidden-by-env"]
    label = next(lab for lab in fake.repo_labels(REPO) if lab["name"] == "env: gpus-hidden-by-env")
    assert label["color"] == "d73a4a" and "hide GPUs" in str(label["description"])


def test_replaying_a_delivery_changes_nothing(bot: Running, fake: FakeGitHub) -> None:
    fake.add_issue(REPO, number=1, body=broken_report())
    raw, headers = signed("issues", opened(broken_report()), delivery="replayed-guid")
    bot.client.post("/webhook", content=raw, headers=headers)
    bot.settle()
    writes = len(fake.write_calls())
    again = bot.client.post("/webhook", content=raw, headers=headers)
    assert again.status_code == 200 and again.json()["outcome"] == "duplicate"
    bot.settle()
    assert len(fake.write_calls()) == writes and len(bot_comments(fake)) == 1


def test_an_edit_that_adds_the_report_updates_the_same_comment(bot: Running, fake: FakeGitHub) -> None:
    fake.add_issue(REPO, number=1, body=NO_REPORT)
    bot.send("issues", opened(NO_REPORT))
    bot.settle()
    first = bot_comments(fake)
    assert len(first) == 1 and RepoConfig().collector_command in str(first[0]["body"])
    assert fake.labels_on(REPO, 1) == ["needs-env"]
    fake.edit_issue(REPO, 1, body=broken_report())
    edit = payload("issues.edited", **{"issue.body": broken_report(), "changes": {"body": {"from": NO_REPORT}}})
    bot.send("issues", edit)
    bot.settle()
    after = bot_comments(fake)
    assert [c["id"] for c in after] == [first[0]["id"]], "edited in place, not a second comment"
    assert "unset CUDA_VISIBLE_DEVICES" in str(after[0]["body"])
    assert fake.labels_on(REPO, 1) == ["env: gpus-hidden-by-env"], "needs-env cleared, diagnosis added"


def test_an_edit_to_a_healthy_report_removes_the_comment(bot: Running, fake: FakeGitHub) -> None:
    fake.add_issue(REPO, number=1, body=broken_report())
    bot.send("issues", opened(broken_report()))
    bot.settle()
    fake.edit_issue(REPO, 1, body=healthy_report())
    bot.send("issues", payload("issues.edited", **{"issue.body": healthy_report()}))  # "changes": {} as sent
    bot.settle()
    assert bot_comments(fake) == []
    assert fake.labels_on(REPO, 1) == ["env: gpus-hidden-by-env"], "add-only: the bot never fights its history"


def test_an_edit_that_changes_nothing_read_is_acknowledged_and_changes_nothing(bot: Running, fake: FakeGitHub
                                                                               ) -> None:  # fmt: skip
    """Whether an edit changes what the diagnosis reads is the worker's question (the edge reads no text)."""
    fake.add_issue(REPO, number=1, body=broken_report())
    bot.send("issues", opened(broken_report()))
    bot.settle()
    writes = len(fake.write_calls())
    ticked = broken_report() + "\n- [x] I searched existing issues\n"
    fake.edit_issue(REPO, 1, body=ticked)
    edit = payload("issues.edited", **{"issue.body": ticked, "changes": {"body": {"from": broken_report()}}})
    assert bot.send("issues", edit).status_code == 202
    bot.settle()
    assert len(fake.write_calls()) == writes and len(bot_comments(fake)) == 1
    same = payload("issues.edited", **{"issue.body": ticked, "changes": {"body": {"from": ticked}}})
    reason = "the edit changed neither the report nor the error text"
    assert bot.send("issues", same).json() == {"outcome": "ignore", "reason": reason}


def test_a_report_posted_in_a_comment_counts(bot: Running, fake: FakeGitHub) -> None:
    fake.add_issue(REPO, number=1, body=NO_REPORT)
    fake.add_comment(REPO, 1, broken_report(), user="alice")
    comment = payload("issue_comment.created", **{"issue.number": 1, "comment.body": broken_report()})
    bot.send("issue_comment", comment)
    bot.settle()
    assert fake.labels_on(REPO, 1) == ["env: gpus-hidden-by-env"]


def test_bad_or_missing_signature_is_refused_and_nothing_queued(bot: Running, fake: FakeGitHub) -> None:
    raw, headers = signed("issues", opened(broken_report()), secret="wrong")
    assert bot.client.post("/webhook", content=raw, headers=headers).status_code == 401
    del headers["X-Hub-Signature-256"]
    assert bot.client.post("/webhook", content=raw, headers=headers).status_code == 401
    assert bot.store.counts() == {} and fake.calls == []


def test_ping_bots_and_pull_requests(bot: Running) -> None:
    assert bot.send("ping", payload("ping")).json()["outcome"] == "pong"
    by_bot = opened(broken_report())
    by_bot["sender"] = {"login": "dependabot[bot]", "type": "Bot"}
    assert bot.send("issues", by_bot).json() == {"outcome": "ignore", "reason": "sent by a bot"}
    pr = opened(broken_report())
    pr["issue"]["pull_request"] = {"url": "x"}  # type: ignore[index]
    assert bot.send("issues", pr).json()["reason"] == "a pull request, not an issue"
    assert bot.store.counts() == {}


def test_a_label_a_human_removed_is_not_added_again(bot: Running, fake: FakeGitHub) -> None:
    fake.add_issue(REPO, number=1, body=broken_report())
    bot.send("issues", opened(broken_report()))
    bot.settle()
    fake.human_unlabel(REPO, 1, "env: gpus-hidden-by-env", actor="maintainer")
    fake.add_comment(REPO, 1, "still broken:\n```\nRuntimeError: No CUDA GPUs are available\n```", user="alice")
    bot.send("issue_comment", payload("issue_comment.created", **{"issue.number": 1}))
    bot.settle()
    assert "env: gpus-hidden-by-env" not in fake.labels_on(REPO, 1)


def test_acks_do_not_wait_for_a_slow_github(bot: Running, fake: FakeGitHub) -> None:
    fake.add_issue(REPO, number=1, body=broken_report())
    fake.delay = 5.0
    start = time.monotonic()
    answer = bot.send("issues", opened(broken_report()))
    assert answer.status_code == 202 and time.monotonic() - start < 1.0
    fake.delay = 0.0


def test_secondary_rate_limit_is_waited_out(bot: Running, fake: FakeGitHub) -> None:
    fake.add_issue(REPO, number=1, body=broken_report())
    fake.secondary_rate_limit_next(1, retry_after=1, method="POST")
    bot.send("issues", opened(broken_report()))
    bot.settle(timeout=20)
    statuses = [call.status for call in fake.write_calls()]
    assert statuses[0] == 403 and len(bot_comments(fake)) == 1


def test_errors_are_retried_then_become_dead_letters(bot: Running, fake: FakeGitHub) -> None:
    fake.add_issue(REPO, number=1, body=broken_report())
    fake.fail_next(100, status=502)
    bot.send("issues", opened(broken_report()))
    wait_until(lambda: bot.store.counts().get("dead") == 1, timeout=20)
    dead = bot.store.dead()
    assert dead[0].attempts == 4 and "502" in (dead[0].last_error or "")


def test_repository_config_renames_labels_and_silences_comments(bot: Running, fake: FakeGitHub) -> None:
    fake.set_file(REPO, ".github/envtriage.yml", "comment: false\nlabels:\n  gpus_hidden_by_env: 'cuda: hidden'\n")
    fake.add_issue(REPO, number=1, body=broken_report())
    bot.send("issues", opened(broken_report()))
    bot.settle()
    assert fake.labels_on(REPO, 1) == ["cuda: hidden"] and bot_comments(fake) == []
    (label,) = [lab for lab in fake.repo_labels(REPO) if lab["name"] == "cuda: hidden"]
    # A renamed label keeps its category's look: the category travels with the label, not guessed from its name.
    assert label["color"] == "d73a4a"
    assert label["description"] == "envtriage: CUDA_VISIBLE_DEVICES / NVIDIA_VISIBLE_DEVICES hide GPUs the driver sees"


def test_no_permission_to_read_the_config_means_defaults(bot: Running, fake: FakeGitHub) -> None:
    fake.add_issue(REPO, number=1, body=broken_report())
    fake.fail_next(100, status=403, path_regex="/contents/", body={"message": "Resource not accessible by integration"})
    bot.send("issues", opened(broken_report()))
    bot.settle()
    assert fake.labels_on(REPO, 1) == ["env: gpus-hidden-by-env"] and len(bot_comments(fake)) == 1


def test_dry_run_writes_nothing(fake: FakeGitHub, tmp_path: Path) -> None:
    fake.add_issue(REPO, number=1, body=broken_report())
    for bot in running(settings_for(fake, tmp_path / "dry.db", dry_run=True), fake):
        bot.send("issues", opened(broken_report()))
        bot.settle()
    assert fake.write_calls() == [] and fake.calls, "read, never written"


def test_health_and_metrics(bot: Running, fake: FakeGitHub) -> None:
    fake.add_issue(REPO, number=1, body=broken_report())
    bot.send("issues", opened(broken_report()))
    bot.settle()
    assert bot.client.get("/healthz").json() == {"ok": True, "deliveries": {"done": 1}}
    assert bot.send("issues", opened(broken_report()), delivery="d-1").status_code == 202
    assert bot.send("issues", opened(broken_report()), delivery="d-1").status_code == 200  # a redelivery
    assert bot.send("issues", opened(broken_report()), secret="not-ours").status_code == 401
    bot.settle()
    metrics = bot.client.get("/metrics").text
    # Events by what happened to them, not by HTTP status; before the signature holds, no header names a label.
    assert 'envtriage_deliveries_total{event="issues",outcome="accepted"} 2.0' in metrics
    assert 'envtriage_deliveries_total{event="issues",outcome="duplicate"} 1.0' in metrics
    assert 'envtriage_deliveries_total{event="unknown",outcome="rejected_signature"} 1.0' in metrics
    assert 'event="401"' not in metrics and 'outcome="rejected"' not in metrics
    assert 'envtriage_deliveries_by_state{state="done"} 2.0' in metrics


def test_a_label_is_looked_up_once_not_before_every_issue_it_goes_on(bot: Running, fake: FakeGitHub) -> None:
    for number in (1, 2, 3):
        fake.add_issue(REPO, number=number, body=broken_report())
        bot.send("issues", opened(broken_report(), number=number))
        bot.settle()
    assert all("env: gpus-hidden-by-env" in fake.labels_on(REPO, number) for number in (1, 2, 3))
    label_path = "/labels/env%3A%20gpus-hidden-by-env"
    lookups = [c.path for c in fake.calls if c.method == "GET" and c.path.endswith(label_path)]
    assert len(lookups) == 1, lookups
