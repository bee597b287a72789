"""Settings from the environment: read once, each malformed value refused with the variable's name."""

from __future__ import annotations

import pytest

from bot.settings import SettingsError, from_env

BASE = {"GITHUB_WEBHOOK_SECRET": "s", "GITHUB_TOKEN": "t"}


def test_repositories_are_read_as_patterns() -> None:
    settings = from_env(BASE | {"ENVTRIAGE_REPOSITORIES": " pytorch/vision, vllm-project/* ,"})
    assert settings.repositories == ("pytorch/vision", "vllm-project/*")
    assert from_env(BASE).repositories == ()


@pytest.mark.parametrize("value", ["pytorch", "*/*", "pytorch/vision/extra", "a b/c"])
def test_malformed_repositories_are_refused(value: str) -> None:
    with pytest.raises(SettingsError, match="ENVTRIAGE_REPOSITORIES"):
        from_env(BASE | {"ENVTRIAGE_REPOSITORIES": value})


def test_no_secret_no_server() -> None:
    with pytest.raises(SettingsError, match="GITHUB_WEBHOOK_SECRET"):
        from_env({"GITHUB_TOKEN": "t"})
