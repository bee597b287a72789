"""The fake GitHub server, exercised through the real PyGithub client."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from typing import Any

import github
import jwt
import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from tests import fakegithub
from tests.fakegithub import FakeGitHub

REPO = "octo-org/octo-repo"
fake_github = fakegithub.fake_github  # the fixture, also importable by conftest.py


def client(fake: FakeGitHub, **kwargs: Any) -> github.Github:
    """A PyGithub client on the fake; no retries and no client-side throttling unless asked for."""
    kwargs.setdefault("retry", None)
    return github.Github(
        auth=github.Auth.Token("t"),
        base_url=fake.url,
        seconds_between_requests=None,
        seconds_between_writes=None,
        **kwargs,
    )


@pytest.fixture
def gh(fake_github: FakeGitHub) -> Iterator[github.Github]:
    with client(fake_github) as g:
        yield g


@pytest.fixture(scope="module")
def private_key_pem() -> str:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


def test_get_user_is_the_bot(fake_github: FakeGitHub, gh: github.Github) -> None:
    user = gh.get_user()
    assert user.login == "envtriage[bot]"
    assert user.type == "Bot"
    assert [(c.method, c.path, c.status) for c in fake_github.calls] == [("GET", "/user", 200)]


def test_unknown_route_is_404_json(fake_github: FakeGitHub) -> None:
    resp = requests.get(f"{fake_github.url}/nope/nothing", timeout=5)
    assert resp.status_code == 404
    assert resp.headers["Content-Type"] == "application/json; charset=utf-8"
    assert resp.json()["message"] == "Not Found"
    assert "documentation_url" in resp.json()


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
    assert repo.get_contents(".github/envtriage.yml", ref="dev").decoded_content == b"enabled: false\n"
    with pytest.raises(github.UnknownObjectException):
        repo.get_contents("missing.yml")


def test_app_installation_token(fake_github: FakeGitHub, private_key_pem: str) -> None:
    auth = github.Auth.AppAuth(4242, private_key_pem)
    with github.GithubIntegration(
        auth=auth, base_url=fake_github.url, seconds_between_requests=None, seconds_between_writes=None
    ) as gi:
        assert gi.get_repo_installation("octo-org", "octo-repo").id == 42
        token = gi.get_access_token(42)
        assert token.token == "ghs_fake" + "1".zfill(32)
        assert 3500 < (token.expires_at.timestamp() - time.time()) <= 3600
        assert fake_github.token_mints == 1
        assert jwt.decode(fake_github.jwts[-1], options={"verify_signature": False})["iss"] == "4242"
        with gi.get_github_for_installation(42) as g:
            assert g.get_repo(REPO).full_name == REPO
    assert fake_github.token_mints == 2
    assert fake_github.calls[-1].headers["Authorization"] == f"token {fake_github.minted_tokens[-1]}"
    with pytest.raises(github.GithubException):
        github.GithubIntegration(auth=auth, base_url=fake_github.url).get_access_token(99)


def test_etag_304(fake_github: FakeGitHub, gh: github.Github) -> None:
    fake_github.add_issue(REPO, number=1, title="a")
    issue = gh.get_repo(REPO).get_issue(1)
    etag = fake_github.calls[-1]
    remaining = fake_github.rate_remaining
    assert issue.etag
    assert issue.update() is False
    assert fake_github.calls[-1].status == 304
    assert fake_github.rate_remaining == remaining
    fake_github.add_comment(REPO, 1, "changes the issue")
    assert issue.update() is True and issue.comments == 1
    assert etag.status == 200
    resp = requests.get(f"{fake_github.url}/repos/{REPO}/issues/1", headers={"If-None-Match": issue.etag}, timeout=5)
    assert resp.status_code == 304 and resp.content == b""
    assert resp.headers["X-RateLimit-Remaining"] == str(fake_github.rate_remaining)


def test_headers_and_rate_limit(fake_github: FakeGitHub, gh: github.Github) -> None:
    resp = requests.get(f"{fake_github.url}/repos/{REPO}", timeout=5)
    for name in (
        "ETag",
        "X-RateLimit-Limit",
        "X-RateLimit-Remaining",
        "X-RateLimit-Reset",
        "X-RateLimit-Used",
        "X-RateLimit-Resource",
    ):
        assert name in resp.headers
    assert resp.headers["X-RateLimit-Used"] == "1"
    assert gh.get_rate_limit().resources.core.remaining == 4999
    assert gh.rate_limiting == (4999, 5000)


def test_fail_next_500(fake_github: FakeGitHub, gh: github.Github) -> None:
    fake_github.fail_next(1, status=500, method="GET", path_regex=r"/repos/")
    with pytest.raises(github.GithubException) as exc:
        gh.get_repo(REPO)
    assert exc.value.status == 500
    assert gh.get_repo(REPO).full_name == REPO
    assert [c.status for c in fake_github.calls] == [500, 200]


def test_default_retry_retries_500_at_once(fake_github: FakeGitHub) -> None:
    fake_github.add_issue(REPO, number=1)
    fake_github.fail_next(2, status=502)
    with client(fake_github, retry=github.GithubRetry()) as g:
        g.get_repo(REPO).get_issue(1).create_comment("once")  # POST is retried too
    assert [(c.method, c.status) for c in fake_github.calls] == [
        ("GET", 502),
        ("GET", 502),
        ("GET", 200),
        ("GET", 200),
        ("POST", 201),
    ]
    comment = fake_github.add_comment(REPO, 1, "x")
    fake_github.fail_next(1, status=500, method="PATCH")
    with client(fake_github, retry=github.GithubRetry()) as g, pytest.raises(github.GithubException):
        g.get_repo(REPO).get_issue(1).get_comment(comment["id"]).edit("PATCH is not retried")
    assert fake_github.calls[-1].status == 500


def test_default_retry_exhausted_raises_requests_error(fake_github: FakeGitHub) -> None:
    fake_github.fail_next(20, status=500)
    with client(fake_github, retry=github.GithubRetry()) as g, pytest.raises(requests.exceptions.RetryError):
        g.get_repo(REPO)
    assert len(fake_github.calls) == 11


def test_secondary_rate_limit(fake_github: FakeGitHub) -> None:
    fake_github.secondary_rate_limit_next(1, retry_after=1)
    with client(fake_github) as g, pytest.raises(github.RateLimitExceededException) as exc:
        g.get_repo(REPO)
    assert exc.value.status == 403 and exc.value.headers["retry-after"] == "1"
    fake_github.secondary_rate_limit_next(1, retry_after=1)
    start = time.monotonic()
    with client(fake_github, retry=github.GithubRetry()) as g:
        assert g.get_repo(REPO).full_name == REPO
    assert time.monotonic() - start >= 0.9
    assert [c.status for c in fake_github.calls] == [403, 403, 200]


def test_primary_rate_limit(fake_github: FakeGitHub) -> None:
    fake_github.rate_limited_next(1, reset_in=60)
    with client(fake_github) as g, pytest.raises(github.RateLimitExceededException) as exc:
        g.get_repo(REPO)
    assert exc.value.headers["x-ratelimit-remaining"] == "0"
    fake_github.rate_limited_next(1, reset_in=0)
    with client(fake_github, retry=github.GithubRetry()) as g:
        assert g.get_repo(REPO).full_name == REPO
    assert [c.status for c in fake_github.calls] == [403, 403, 200]


def test_too_many_requests(fake_github: FakeGitHub) -> None:
    fake_github.too_many_requests_next(1, retry_after=1)
    with client(fake_github) as g, pytest.raises(github.GithubException) as exc:
        g.get_repo(REPO)
    assert exc.value.status == 429
    fake_github.too_many_requests_next(1, retry_after=1)
    with client(fake_github, retry=github.GithubRetry()) as g:
        assert g.get_repo(REPO).full_name == REPO
    assert [c.status for c in fake_github.calls] == [429, 429, 200]


def test_delay_and_concurrency(fake_github: FakeGitHub) -> None:
    fake_github.delay = 0.3
    start = time.monotonic()
    assert requests.get(f"{fake_github.url}/user", timeout=5).status_code == 200
    assert time.monotonic() - start >= 0.3


def test_delay_does_not_serialise_requests(fake_github: FakeGitHub) -> None:
    fake_github.delay = 0.5
    start = time.monotonic()
    with ThreadPoolExecutor(4) as pool:
        codes = list(pool.map(lambda _: requests.get(f"{fake_github.url}/user", timeout=5).status_code, range(4)))
    assert codes == [200] * 4
    assert time.monotonic() - start < 1.5
    assert len(fake_github.calls) == 4


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


def test_human_label_in_events_and_timeline(fake_github: FakeGitHub, gh: github.Github) -> None:
    fake_github.add_issue(REPO, number=5)
    fake_github.human_label(REPO, 5, "triage: done", actor="maintainer")
    event = fake_github.events_on(REPO, 5)[0]
    assert (event["event"], event["actor"]["login"]) == ("labeled", "maintainer")
    assert event["label"] == {"name": "triage: done", "color": "ededed"}
    assert fake_github.labels_on(REPO, 5) == ["triage: done"]
    assert [t.event for t in gh.get_repo(REPO).get_issue(5).get_timeline()] == ["labeled"]
    assert fake_github.write_calls() == []


def test_stop_is_prompt_with_a_delayed_request_in_flight(capsys: pytest.CaptureFixture[str]) -> None:
    fake = FakeGitHub().start()
    fake.delay = 30
    with ThreadPoolExecutor(1) as pool:
        pending = pool.submit(requests.get, f"{fake.url}/user", timeout=10)
        time.sleep(0.3)
        start = time.monotonic()
        fake.stop()
        assert pending.result().status_code == 200  # woken by stop(), still answered
        assert time.monotonic() - start < 2
    assert [c.path for c in fake.calls] == ["/user"]
    assert capsys.readouterr().err == ""
