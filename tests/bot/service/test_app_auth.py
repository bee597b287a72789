"""Authenticating as a GitHub App: a JWT signed with the App's key, installation tokens minted once and reused."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from bot.diagnosis.render import MARKER
from tests.bot.harness import REPO, Running, broken_report, payload, running, settings_for
from tests.fakegithub import FakeGitHub


@pytest.fixture(scope="module")
def private_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture
def app_bot(fake_github: FakeGitHub, tmp_path: Path, private_key: rsa.RSAPrivateKey) -> Iterator[Running]:
    pem = private_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    fake_github.add_repo(REPO)
    settings = replace(settings_for(fake_github, tmp_path / "app.db"), token=None, app_id=fake_github.app_id,
                       app_private_key=pem)  # fmt: skip
    yield from running(settings, fake_github)


def opened(number: int, installation: int) -> dict[str, object]:
    return payload("issues.opened", **{"issue.number": number, "issue.body": broken_report(),
                                       "installation": {"id": installation}})  # fmt: skip


def test_installation_token_is_minted_once_and_reused(
    app_bot: Running, fake_github: FakeGitHub, private_key: rsa.RSAPrivateKey
) -> None:
    for number in (1, 2):
        fake_github.add_issue(REPO, number=number, body=broken_report())
        app_bot.send("issues", opened(number, fake_github.installation_id))
    app_bot.settle()
    assert len(fake_github.minted_tokens) == 1
    for number in (1, 2):
        [comment] = [c for c in fake_github.comments_on(REPO, number) if MARKER in str(c["body"])]
        assert comment["user"]["login"] == "envtriage[bot]"
    # Every App call carried a JWT signed with the App's key, issued for the App's id.
    public = private_key.public_key()
    claims = [jwt.decode(token, public, algorithms=["RS256"]) for token in fake_github.jwts]
    assert claims and all(claim["iss"] == str(fake_github.app_id) for claim in claims)
    # After minting, the API saw the installation token, never the JWT.
    tokens = {call.headers.get("Authorization") for call in fake_github.calls if "/issues" in call.path}
    assert tokens == {f"token {fake_github.minted_tokens[0]}"}


def test_an_event_from_an_unknown_installation_is_not_retried_forever(app_bot: Running, fake_github: FakeGitHub
                                                                       ) -> None:  # fmt: skip
    fake_github.add_issue(REPO, number=1, body=broken_report())
    app_bot.send("issues", opened(1, 999))
    app_bot.settle()
    assert app_bot.store.counts() == {"done": 1} and fake_github.comments_on(REPO, 1) == []


def test_a_deleted_installation_drops_its_token(app_bot: Running, fake_github: FakeGitHub) -> None:
    iid = fake_github.installation_id
    fake_github.add_issue(REPO, number=1, body=broken_report())
    app_bot.send("issues", opened(1, iid))
    app_bot.settle()
    app_bot.send("installation", payload("installation.deleted", **{"installation.id": iid}))
    app_bot.settle()
    # Reinstalled: the next event mints a fresh token instead of using the revoked one.
    fake_github.add_issue(REPO, number=2, body=broken_report())
    app_bot.send("issues", opened(2, iid))
    app_bot.settle()
    assert len(fake_github.minted_tokens) == 2 and app_bot.store.counts() == {"done": 3}
