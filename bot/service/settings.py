"""The service's settings, read once from the environment at the entry point and passed down."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

PUBLIC_API = "https://api.github.com"
DEFAULT_DATABASE = "sqlite:///envtriage.db"
# A repository as GitHub spells `repository.full_name`: an owner (1-39 letters, digits and hyphens, not starting with
# a hyphen), one slash, and a name (1-100 letters, digits, ".", "-", "_"; never "." or ".."). In the allow-list the
# name may be "*": every repository of that owner.
OWNER = r"[A-Za-z0-9][A-Za-z0-9-]{0,38}"
NAME = r"(?!\.{1,2}$)[A-Za-z0-9._-]{1,100}"
FULL_NAME = re.compile(rf"({OWNER})/({NAME})")
PATTERN = re.compile(rf"({OWNER})/(\*|{NAME})")


class SettingsError(ValueError):
    """A setting is missing or malformed; the message names the variable and what to do."""


@dataclass(frozen=True)
class Settings:
    webhook_secrets: tuple[str, ...] = ()
    token: str | None = None
    app_id: int | None = None
    app_private_key: str | None = None
    api_url: str = PUBLIC_API
    database_url: str = DEFAULT_DATABASE
    queue_url: str | None = None  # redis://... for workers on several machines; default: beside the database
    dry_run: bool = False
    bot_login: str | None = None  # who the bot posts as; asked from GitHub when not given
    seconds_between_writes: float = 1.0  # GitHub's advice against secondary rate limits
    max_payload_bytes: int = 4 * 1024 * 1024
    max_attempts: int = 6
    retry_base_seconds: float = 2.0  # backoff after the n-th failure: base**n seconds, capped at 10 minutes
    embedded_worker: bool = True
    dashboard_token: str | None = None  # GET /dashboard is off without one
    repositories: tuple[str, ...] = ()  # "owner/repo" or "owner/*" this bot serves (see `serves`); empty: every one
    # Slow or idle clients (bot/service/http_limits.py): GitHub gives up on an answer after 10 s.
    keep_alive_seconds: int = 5  # a kept-alive connection idle this long is closed
    read_timeout_seconds: float = 10.0  # a request's headers, then its body, must each arrive within this
    max_connections: int = 1000  # open connections beyond this get 503

    @property
    def app_auth(self) -> bool:
        return self.app_id is not None

    @property
    def web_url(self) -> str:
        return web_url_of(self.api_url)


def web_url_of(api_url: str) -> str:
    """Where people read the issues, from the API's base: github.com for api.github.com; a GitHub Enterprise Server's
    host for its https://HOST/api/v3; https://SUB.ghe.com for GitHub Enterprise Cloud's https://api.SUB.ghe.com."""
    url = api_url.rstrip("/")
    if url.endswith("/api/v3"):
        return url.removesuffix("/api/v3")
    return url.replace("://api.", "://", 1)


def from_env(env: Mapping[str, str], *, dry_run: bool = False, need_secret: bool = True) -> Settings:
    secrets = tuple(part.strip() for part in env.get("GITHUB_WEBHOOK_SECRET", "").split(",") if part.strip())
    if need_secret and not secrets:
        raise SettingsError(
            "GITHUB_WEBHOOK_SECRET is not set: the server refuses to accept unsigned webhooks. Set it to the "
            "secret configured for the webhook or GitHub App (several, comma-separated, while rotating)."
        )
    token = env.get("GITHUB_TOKEN") or None
    app_id, key = _app(env)
    if not (token or app_id or dry_run):
        raise SettingsError("set GITHUB_TOKEN, or GITHUB_APP_ID with GITHUB_APP_PRIVATE_KEY(_FILE), to talk to GitHub")
    return Settings(
        webhook_secrets=secrets,
        token=token,
        app_id=app_id,
        app_private_key=key,
        api_url=(env.get("GITHUB_API_URL") or PUBLIC_API).rstrip("/"),
        database_url=env.get("DATABASE_URL") or DEFAULT_DATABASE,
        queue_url=env.get("QUEUE_URL") or None,
        dry_run=dry_run,
        bot_login=env.get("ENVTRIAGE_BOT_LOGIN") or None,
        seconds_between_writes=_number(env, "ENVTRIAGE_WRITE_SPACING", 1.0),
        embedded_worker=env.get("ENVTRIAGE_EMBEDDED_WORKER", "1") != "0",
        dashboard_token=env.get("ENVTRIAGE_DASHBOARD_TOKEN") or None,
        repositories=_repositories(env.get("ENVTRIAGE_REPOSITORIES", "")),
        keep_alive_seconds=max(1, int(_positive(env, "ENVTRIAGE_KEEP_ALIVE_TIMEOUT", 5))),
        read_timeout_seconds=_positive(env, "ENVTRIAGE_READ_TIMEOUT", 10.0),
        max_connections=int(_positive(env, "ENVTRIAGE_MAX_CONNECTIONS", 1000)),
    )


def _repositories(raw: str) -> tuple[str, ...]:
    patterns = tuple(part.strip() for part in raw.split(",") if part.strip())
    for pattern in patterns:
        if not PATTERN.fullmatch(pattern):
            raise SettingsError(
                f"ENVTRIAGE_REPOSITORIES: {pattern!r} is not OWNER/REPO or OWNER/* (an owner of 1-39 letters, digits "
                "and hyphens; a repository name of 1-100 letters, digits, '.', '-' and '_'), spelled as GitHub does"
            )
    return patterns


def serves(patterns: tuple[str, ...], full_name: str) -> bool:
    """Whether `full_name` (a delivery's `repository.full_name`) is one of `patterns`, "OWNER/REPO" or "OWNER/*",
    compared exactly as GitHub spells it: "ACME/GPU" is not "acme/gpu", and "other/*" is no "other/x/y"."""
    shape = FULL_NAME.fullmatch(full_name)
    if shape is None:
        return False
    owner = shape.group(1)
    return any(pattern == full_name or pattern == f"{owner}/*" for pattern in patterns)


def _app(env: Mapping[str, str]) -> tuple[int | None, str | None]:
    raw_id = env.get("GITHUB_APP_ID")
    if not raw_id:
        return None, None
    if not raw_id.strip().isdigit():
        raise SettingsError(f"GITHUB_APP_ID must be the App's numeric id, not {raw_id!r}")
    key = env.get("GITHUB_APP_PRIVATE_KEY")
    key_file = env.get("GITHUB_APP_PRIVATE_KEY_FILE")
    if not key and key_file:
        try:
            key = Path(key_file).read_text()
        except OSError as exc:
            raise SettingsError(f"GITHUB_APP_PRIVATE_KEY_FILE {key_file}: {exc.strerror}") from exc
    if not key or "PRIVATE KEY" not in key:
        raise SettingsError("GITHUB_APP_ID is set but no PEM private key in GITHUB_APP_PRIVATE_KEY(_FILE)")
    return int(raw_id), key


def _number(env: Mapping[str, str], name: str, default: float) -> float:
    try:
        return float(env.get(name, default))
    except ValueError as exc:
        raise SettingsError(f"{name} must be a number of seconds") from exc


def _positive(env: Mapping[str, str], name: str, default: float) -> float:
    value = _number(env, name, default)
    if not 0 < value < float("inf"):
        raise SettingsError(f"{name} must be a positive number, not {env.get(name)!r}")
    return value
