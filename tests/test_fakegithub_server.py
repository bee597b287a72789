"""The fake GitHub as a server: the user, the App, unknown routes, ETags, rate-limit headers, delay and stop."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import github
import jwt
import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from tests.fakegithub import FakeGitHub
from tests.fakegithub.client import REPO, gh_fixture  # noqa: F401 - gh_fixture provides gh


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
