"""No secret in any log line, and no traceback for what a client sends: the service as a real process (uvicorn's
own access log), and the redaction of log records in-process."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from uvicorn.logging import AccessFormatter

from bot.service.log_redaction import REDACTED, Redaction, install
from tests.bot.harness import SECRET, broken_report, opened, payload, signed
from tests.bot.processes import bot_env, free_port, serving
from tests.fakegithub import FakeGitHub

TOKEN = "dashboard-token-7f3a9c"
GUESS = "guessed-token-0b1d2e"
GITHUB_TOKEN = "ghs_" + "A1b2C3d4" * 5


def test_the_service_logs_no_token_and_no_traceback(fake: FakeGitHub, tmp_path: Path) -> None:
    """uvicorn's access log printed `GET /dashboard?token=...`; a non-ASCII signature (which Starlette's
    TestClient will not send as text), a number past the INTEGER column and an object for `action` were 500s
    with a traceback each."""
    log, port = tmp_path / "serve.log", free_port()
    env = bot_env(fake, f"sqlite:///{tmp_path / 'bot.db'}", ENVTRIAGE_DASHBOARD_TOKEN=TOKEN, PYTHONUNBUFFERED="1")
    with serving(env, port, log):
        url = f"http://127.0.0.1:{port}"
        assert httpx.get(f"{url}/dashboard?token={TOKEN}", timeout=10).status_code == 200
        assert httpx.get(f"{url}/dashboard.json?repo=a/b&token={GUESS}", timeout=10).status_code == 401
        assert httpx.get(f"{url}/dashboard.csv?access_token={TOKEN}&since=2024-01-01", timeout=10).status_code == 401
        raw, headers = signed("issues", opened(broken_report()))
        deliveries = [
            (raw, {**headers, "X-Hub-Signature-256": "sha256=é"}),
            (raw, {**headers, "X-Hub-Signature-256": "sha256=" + "é" * 32}),
            signed("issues", payload("issues.opened", **{"issue.number": 10**30})),
            signed("issues", payload("issues.opened", action={"an": "object"})),
        ]
        refused = [httpx.post(f"{url}/webhook", content=body, headers=as_bytes(sent), timeout=10)
                   for body, sent in deliveries]  # fmt: skip
    assert [answer.status_code for answer in refused] == [401, 401, 400, 400]
    assert all(set(answer.json()) == {"error"} for answer in refused)
    text = log.read_text(errors="replace")
    assert "GET /dashboard?token=<redacted> HTTP/1.1" in text, "the access log is written, with the token redacted"
    assert "access_token=<redacted>&since=2024-01-01" in text
    assert TOKEN not in text and GUESS not in text and SECRET not in text
    assert "Traceback" not in text and " 500" not in text


def as_bytes(headers: dict[str, str]) -> dict[bytes, bytes]:
    """Header values as UTF-8 bytes, which httpx sends as they are (text it must encode as ASCII)."""
    return {name.encode(): value.encode() for name, value in headers.items()}


@pytest.fixture
def redacting() -> Iterator[None]:
    uninstall = install([TOKEN, SECRET])
    yield
    uninstall()


def test_every_record_is_redacted_as_it_is_made(redacting: None, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    logging.getLogger("bot.anything").info("dashboard asked with %s", TOKEN)
    logging.getLogger("elsewhere").warning("headers: %r", {"Authorization": f"token {GITHUB_TOKEN}"})
    try:
        raise RuntimeError(f"GET https://api.github.com/?access_token={GUESS} failed")
    except RuntimeError:
        logging.getLogger("bot.service.worker").exception("giving up")
    logging.getLogger("bot.service.app").info("100%% of %d", 3)  # nothing to redact: left as it was
    assert [r.getMessage() for r in caplog.records] == [
        f"dashboard asked with {REDACTED}", f"headers: {{'Authorization': '{REDACTED}'}}", "giving up", "100% of 3",
    ]  # fmt: skip
    for secret in (TOKEN, GITHUB_TOKEN, GUESS):
        assert secret not in caplog.text
    assert f"access_token={REDACTED} failed" in caplog.text, "the traceback is kept, redacted"


def test_uvicorns_access_record_keeps_the_arguments_its_formatter_reads(redacting: None) -> None:
    access = logging.getLogger("uvicorn.access.test")
    args = ("127.0.0.1:5000", "GET", f"/dashboard?repo=a/b&token={TOKEN}", "1.1", 200)
    record = access.makeRecord(access.name, logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d', args, None)
    line = AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s', use_colors=False).format(record)
    assert line == f'127.0.0.1:5000 - "GET /dashboard?repo=a/b&token={REDACTED} HTTP/1.1" 200 OK'


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/dashboard?token=abc&repo=a/b", f"/dashboard?token={REDACTED}&repo=a/b"),
        ("/x?api_key=k1;session=s2#top", f"/x?api_key={REDACTED};session={REDACTED}#top"),
        ("password='hunter2', user=bob", f"password='{REDACTED}', user=bob"),
        ("X-Hub-Signature-256: sha256=" + "ab" * 32, f"X-Hub-Signature-256: {REDACTED}"),
        ("signed sha256=" + "cd" * 32 + " here", f"signed {REDACTED} here"),
        ("Authorization: Bearer abcdefgh123", f"Authorization: {REDACTED}"),
        ("sent Bearer eyJhbGciOi.eyJpc3MiOi.c2lnbmF0dXJl", f"sent {REDACTED}"),
        (f"cloning with {GITHUB_TOKEN}@github.com", f"cloning with {REDACTED}@github.com"),
        ("-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----!", f"{REDACTED}!"),
        ("It%27s%20a%20Secret%20to%20Everybody", REDACTED),  # a configured secret, URL-encoded
        ("issue=5 repo=acme/gpu since=2024-01-01", "issue=5 repo=acme/gpu since=2024-01-01"),
        ('"POST /webhook HTTP/1.1" 202', '"POST /webhook HTTP/1.1" 202'),
    ],
)
def test_secret_looking_values_are_redacted(text: str, expected: str) -> None:
    assert Redaction([SECRET, "short"]).text(text) == expected
