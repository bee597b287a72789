"""Settings from the environment: read once, each malformed value refused with the variable's name."""

from __future__ import annotations

import pytest

from bot.service.settings import SettingsError, from_env, serves

BASE = {"GITHUB_WEBHOOK_SECRET": "s", "GITHUB_TOKEN": "t"}


def test_repositories_are_read_as_patterns() -> None:
    settings = from_env(BASE | {"ENVTRIAGE_REPOSITORIES": " pytorch/vision, vllm-project/* ,"})
    assert settings.repositories == ("pytorch/vision", "vllm-project/*")
    assert from_env(BASE).repositories == ()


@pytest.mark.parametrize(
    "value",
    [
        "pytorch", "*/*", "pytorch/vision/extra", "a b/c", "pytorch/*/x", "pytorch/vis*", "-pytorch/vision",
        "pytorch/..", "pytorch/.", "o" * 40 + "/x", "pytorch/" + "v" * 101, "pytorch/vision\u200b", "pytorch/visión",
        "pytorch/vision\x7f", "/vision", "pytorch/",
    ],
)  # fmt: skip
def test_malformed_repositories_are_refused_naming_the_entry(value: str) -> None:
    with pytest.raises(SettingsError, match="ENVTRIAGE_REPOSITORIES") as refused:
        from_env(BASE | {"ENVTRIAGE_REPOSITORIES": f"pytorch/vision, {value}"})
    assert repr(value) in str(refused.value)


@pytest.mark.parametrize(
    ("full_name", "served"),
    [
        ("acme/gpu", True),
        ("ACME/GPU", False),  # GitHub spells full_name one way; the allow-list must too
        ("Acme/gpu", False),
        ("other/x", True),
        ("other/x.y_z-1", True),
        ("other/x/y", False),  # "*" is one repository name, not a path
        ("other/", False),
        ("Other/x", False),
        ("otherx/y", False),
        ("acme/gpu2", False),
        ("acme/gpu\n", False),
    ],
)
def test_repositories_are_compared_exactly_as_github_spells_them(full_name: str, served: bool) -> None:
    patterns = from_env(BASE | {"ENVTRIAGE_REPOSITORIES": "acme/gpu, other/*"}).repositories
    assert serves(patterns, full_name) is served


def test_no_secret_no_server() -> None:
    with pytest.raises(SettingsError, match="GITHUB_WEBHOOK_SECRET"):
        from_env({"GITHUB_TOKEN": "t"})


@pytest.mark.parametrize(
    ("api_url", "web"),
    [
        (None, "https://github.com"),
        ("https://ghe.example.com/api/v3/", "https://ghe.example.com"),  # GitHub Enterprise Server
        ("https://api.octocorp.ghe.com", "https://octocorp.ghe.com"),  # GitHub Enterprise Cloud, data residency
    ],
)
def test_the_web_url_is_the_api_s_github(api_url: str | None, web: str) -> None:
    settings = from_env(BASE | ({"GITHUB_API_URL": api_url} if api_url else {}))
    assert settings.web_url == web
