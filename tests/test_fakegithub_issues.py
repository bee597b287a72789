"""The fake GitHub's issues, comments, labels and contents, exercised through the real PyGithub client."""

from __future__ import annotations

from datetime import datetime, timezone

import github
import pytest
import requests

from tests.fakegithub import FakeGitHub
from tests.fakegithub.client import REPO, client, gh_fixture  # noqa: F401 - gh_fixture provides gh


def test_issue_shape_and_listing(fake_github: FakeGitHub, gh: github.Github) -> None:
    fake_github.add_issue(REPO, title="old", labels=["bug"], created_at="2024-01-01T00:00:00Z")
    fake_github.add_issue(REPO, title="new", body="hello", user="carol", created_at="2024-02-01T00:00:00Z")
    fake_github.add_issue(REPO, title="done", state="closed")
    repo = gh.get_repo(REPO)
    assert repo.default_branch == "main"
    assert [i.title for i in repo.get_issues()] == ["new", "old"]
    assert [i.title for i in repo.get_issues(state="all", direction="asc")] == ["old", "new", "done"]
    assert [i.title for i in repo.get_issues(labels=["bug"])] == ["old"]
    issue = repo.get_issue(2)
    assert (issue.number, issue.body, issue.user.login, issue.user.type) == (2, "hello", "carol", "User")
    assert issue.pull_request is None
    assert issue.comments == 0 and issue.state == "open"
    assert [lab.name for lab in repo.get_issue(1).labels] == ["bug"]


def test_issue_filters_and_seed_return(fake_github: FakeGitHub, gh: github.Github) -> None:
    first = fake_github.add_issue(REPO, title="a", created_at="2024-01-01T00:00:00Z")
    fake_github.add_issue(REPO, title="b", created_at="2024-03-01T00:00:00Z")
    fake_github.add_comment(REPO, 1, "bump", created_at="2024-04-01T00:00:00Z")
    assert first["url"] == f"{fake_github.url}/repos/{REPO}/issues/1"
    assert fake_github.issue(REPO, 1)["comments"] == 1
    repo = gh.get_repo(REPO)
    since = datetime(2024, 3, 15, tzinfo=timezone.utc)
    assert [i.title for i in repo.get_issues(since=since)] == ["a"]
    assert [i.title for i in repo.get_issues(sort="updated")] == ["a", "b"]
    assert [i.title for i in repo.get_issues(sort="created")] == ["b", "a"]
    assert fake_github.calls[-1].query == {"sort": "created"}
    assert fake_github.calls[-1].headers["Authorization"] == "token t"


def test_comments_create_list_paginate_edit_delete(fake_github: FakeGitHub, gh: github.Github) -> None:
    fake_github.add_issue(REPO, number=7)
    for i in range(34):
        fake_github.add_comment(REPO, 7, f"seeded {i}")
    issue = gh.get_repo(REPO).get_issue(7)
    created = issue.create_comment("from the bot")
    assert created.user.login == "envtriage[bot]"
    fake_github.reset_calls()

    bodies = [c.body for c in issue.get_comments()]
    assert bodies == [f"seeded {i}" for i in range(34)] + ["from the bot"]
    pages = [(c.path, c.query) for c in fake_github.calls]
    assert pages == [
        ("/repos/octo-org/octo-repo/issues/7/comments", {}),
        ("/repos/octo-org/octo-repo/issues/7/comments", {"page": "2"}),
    ]

    created.edit("edited")
    assert fake_github.comments_on(REPO, 7)[-1]["body"] == "edited"
    assert gh.get_repo(REPO).get_issue(7).get_comment(created.id).body == "edited"
    created.delete()
    assert len(fake_github.comments_on(REPO, 7)) == 34
    with pytest.raises(github.UnknownObjectException):
        issue.get_comment(created.id)
    assert [(c.method, c.status) for c in fake_github.write_calls()] == [("PATCH", 200), ("DELETE", 204)]
    assert fake_github.write_calls()[0].body == {"body": "edited"}


def test_link_header_pagination(fake_github: FakeGitHub) -> None:
    fake_github.add_issue(REPO, number=1)
    for i in range(5):
        fake_github.add_comment(REPO, 1, str(i))
    resp = requests.get(f"{fake_github.url}/repos/{REPO}/issues/1/comments?per_page=2&page=2", timeout=5)
    assert [c["body"] for c in resp.json()] == ["2", "3"]
    links = resp.headers["Link"]
    assert 'page=3>; rel="next"' in links and 'page=3>; rel="last"' in links and 'rel="prev"' in links
    with client(fake_github, per_page=2) as g:
        assert g.get_repo(REPO).get_issue(1).get_comments().totalCount == 5


def test_labels_add_autocreate_remove_and_events(fake_github: FakeGitHub, gh: github.Github) -> None:
    fake_github.add_label(REPO, "bug", color="d73a4a")
    fake_github.add_issue(REPO, number=3)
    issue = gh.get_repo(REPO).get_issue(3)
    fake_github.reset_calls()
    issue.add_to_labels("bug", "needs info", "area: cuda")
    call = fake_github.calls[-1]
    assert (call.method, call.path, call.body) == (
        "POST",
        f"/repos/{REPO}/issues/3/labels",
        ["bug", "needs info", "area: cuda"],
    )
    assert fake_github.labels_on(REPO, 3) == ["bug", "needs info", "area: cuda"]
    colors = {lab["name"]: lab["color"] for lab in fake_github.repo_labels(REPO)}
    assert colors == {"bug": "d73a4a", "needs info": "ededed", "area: cuda": "ededed"}

    issue.remove_from_labels("needs info")
    issue.remove_from_labels("area: cuda")
    assert [c.path for c in fake_github.calls[-2:]] == [
        f"/repos/{REPO}/issues/3/labels/needs%20info",
        f"/repos/{REPO}/issues/3/labels/area%3A%20cuda",
    ]
    assert [lab.name for lab in issue.get_labels()] == ["bug"]
    with pytest.raises(github.GithubException) as exc:
        issue.remove_from_labels("needs info")
    assert exc.value.status == 404

    fake_github.human_unlabel(REPO, 3, "bug", actor="maintainer")
    events = [(e.event, e.actor.login, e.actor.type, e.label.name) for e in issue.get_events()]
    assert events == [
        ("labeled", "envtriage[bot]", "Bot", "bug"),
        ("labeled", "envtriage[bot]", "Bot", "needs info"),
        ("labeled", "envtriage[bot]", "Bot", "area: cuda"),
        ("unlabeled", "envtriage[bot]", "Bot", "needs info"),
        ("unlabeled", "envtriage[bot]", "Bot", "area: cuda"),
        ("unlabeled", "maintainer", "User", "bug"),
    ]
    issue.create_comment("hi")
    timeline = [(t.event, t.actor.login) for t in issue.get_timeline()]
    assert timeline[-2:] == [("unlabeled", "maintainer"), ("commented", "envtriage[bot]")]


def test_human_label_in_events_and_timeline(fake_github: FakeGitHub, gh: github.Github) -> None:
    fake_github.add_issue(REPO, number=5)
    fake_github.human_label(REPO, 5, "triage: done", actor="maintainer")
    event = fake_github.events_on(REPO, 5)[0]
    assert (event["event"], event["actor"]["login"]) == ("labeled", "maintainer")
    assert event["label"] == {"name": "triage: done", "color": "ededed"}
    assert fake_github.labels_on(REPO, 5) == ["triage: done"]
    assert [t.event for t in gh.get_repo(REPO).get_issue(5).get_timeline()] == ["labeled"]
    assert fake_github.write_calls() == []


def test_repo_labels_get_create(fake_github: FakeGitHub, gh: github.Github) -> None:
    repo = gh.get_repo(REPO)
    with pytest.raises(github.UnknownObjectException):
        repo.get_label("no such label")
    label = repo.create_label("env: torch", "ff0000", "torch problems")
    assert (label.name, label.color, label.description) == ("env: torch", "ff0000", "torch problems")
    assert repo.get_label("env: torch").color == "ff0000"
    with pytest.raises(github.GithubException) as exc:
        repo.create_label("ENV: torch", "00ff00")
    assert exc.value.status == 422
    assert exc.value.data["errors"][0]["code"] == "already_exists"
    assert [lab.name for lab in repo.get_labels()] == ["env: torch"]


def test_contents(fake_github: FakeGitHub, gh: github.Github) -> None:
    fake_github.set_file(REPO, ".github/envtriage.yml", "enabled: true\nnöte: ✓\n")
    fake_github.set_file(REPO, ".github/envtriage.yml", "enabled: false\n", ref="dev")
    repo = gh.get_repo(REPO)
    content = repo.get_contents(".github/envtriage.yml")
    assert not isinstance(content, list)
    assert content.decoded_content.decode() == "enabled: true\nnöte: ✓\n"
    assert content.encoding == "base64" and content.path == ".github/envtriage.yml"
    dev = repo.get_contents(".github/envtriage.yml", ref="dev")
    assert not isinstance(dev, list) and dev.decoded_content == b"enabled: false\n"
    with pytest.raises(github.UnknownObjectException):
        repo.get_contents("missing.yml")
