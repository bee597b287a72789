"""Failures injected into the fake GitHub, as PyGithub and its default retry see them."""

from __future__ import annotations

import time

import github
import pytest
import requests

from tests.fakegithub import FakeGitHub
from tests.fakegithub.client import REPO, client, gh_fixture  # noqa: F401 - gh_fixture provides gh


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
    assert exc.value.status == 403 and exc.value.headers is not None
    assert exc.value.headers["retry-after"] == "1"
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
    assert exc.value.headers is not None and exc.value.headers["x-ratelimit-remaining"] == "0"
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


def test_a_post_that_commits_then_hangs_times_out_yet_happened(fake_github: FakeGitHub) -> None:
    fake_github.add_issue(REPO, number=1)
    fake_github.hang_next(1, seconds=3.0, method="POST", path_regex=r"/comments$")
    with client(fake_github, timeout=1) as g:
        issue = g.get_repo(REPO).get_issue(1)
        start = time.monotonic()
        with pytest.raises(requests.exceptions.ReadTimeout):
            issue.create_comment("sent once")
        assert time.monotonic() - start < 2.5, "the client gave up at its own timeout"
        assert [c["body"] for c in fake_github.comments_on(REPO, 1)] == ["sent once"], "committed at once"
        assert fake_github.calls[-1].method == "POST" and fake_github.calls[-1].status == 201
        issue.create_comment("the next one is answered")  # one use only
    assert len(fake_github.comments_on(REPO, 1)) == 2


def test_a_post_that_hangs_then_commits_lands_after_the_timeout(fake_github: FakeGitHub) -> None:
    fake_github.add_issue(REPO, number=1)
    fake_github.hang_next(1, seconds=1.5, method="POST", commit_late=True)
    with client(fake_github, timeout=1) as g:
        issue = g.get_repo(REPO).get_issue(1)
        with pytest.raises(requests.exceptions.ReadTimeout):
            issue.create_comment("late")
        assert fake_github.comments_on(REPO, 1) == [], "not yet carried out when the client gave up"
        deadline = time.monotonic() + 5
        while not fake_github.comments_on(REPO, 1) and time.monotonic() < deadline:
            time.sleep(0.05)
    assert [c["body"] for c in fake_github.comments_on(REPO, 1)] == ["late"]
