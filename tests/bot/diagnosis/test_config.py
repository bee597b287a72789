"""The per-repository config: defaults, strict keys, validated label names."""

from __future__ import annotations

import json
import re

import pytest

from bot.diagnosis import config
from bot.diagnosis.config import ConfigError, RepoConfig, parse


def test_empty_file_gives_defaults() -> None:
    assert parse("") == RepoConfig() and parse("# nothing\n") == RepoConfig()
    assert RepoConfig().label_for("driver_too_old") == "env: driver-too-old"


def test_labels_can_be_renamed_or_turned_off() -> None:
    config = parse("labels:\n  driver_too_old: 'driver: too old'\n  oom_or_memory: ''\ncomment: false\n")
    assert config.label_for("driver_too_old") == "driver: too old" and config.label_for("oom_or_memory") is None
    assert config.comment is False


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("colour: red\n", "unknown key"),
        ("labels:\n  not_a_category: x\n", "unknown categories"),
        ("labels:\n  driver_too_old: 'a,b'\n", "labels.driver_too_old: invalid label name 'a,b': a comma"),
        ("comment: maybe\n", "expected bool"),
        ("max_duplicates: 50\n", "between 0 and 10"),
        ("labels: [\n", "not valid YAML"),
    ],
)
def test_bad_config_is_a_clear_error(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse(text)


@pytest.mark.parametrize(
    ("char", "kind"),
    [
        ("\n", "control character"),
        ("\r", "control character"),
        ("\t", "control character"),
        ("\x00", "control character"),
        ("\x7f", "control character"),  # DEL
        ("\x85", "control character"),  # NEL
        ("\u2028", "line separator"),
        ("\u2029", "paragraph separator"),
        ("\u202e", "invisible format character"),  # right-to-left override
        ("\u2066", "invisible format character"),
        ("\u200b", "invisible format character"),  # zero-width space
        ("\u200d", "invisible format character"),  # zero-width joiner
        ("\u2060", "invisible format character"),
        ("\ufeff", "invisible format character"),
    ],
)
@pytest.mark.parametrize(
    ("key", "yaml"),
    [
        ("labels.driver_too_old", "labels:\n  driver_too_old: {}\n"),
        ("needs_env_label", "needs_env_label: {}\n"),
        ("duplicate_label", "duplicate_label: {}\n"),
        ("exempt_labels[1]", "exempt_labels:\n  - ok\n  - {}\n"),
    ],
)
def test_invisible_and_control_characters_in_a_label_are_refused_naming_the_key(
    char: str, kind: str, key: str, yaml: str
) -> None:
    for name in (f"needs-env{char}", f"needs{char}env", f"{char}needs-env"):
        text = yaml.format(json.dumps(name))  # a JSON string is a YAML double-quoted scalar
        with pytest.raises(ConfigError, match=re.escape(f"{key}: invalid label name")) as refused:
            parse(text)
        assert kind in str(refused.value) and f"U+{ord(char):04X}" in str(refused.value)


@pytest.mark.parametrize(
    ("name", "problem"), [("x" * 51, "1-50 characters"), (" needs-env", "blanks"), ("needs-env ", "blanks")]
)
def test_label_length_and_blanks(name: str, problem: str) -> None:
    with pytest.raises(ConfigError, match=problem):
        parse(f"needs_env_label: {json.dumps(name)}\n")


def test_ordinary_label_names_pass() -> None:
    config = parse("labels:\n  driver_too_old: 'env: driver ⚠️ too old'\nexempt_labels: ['wontfix', 'needs triage']\n")
    assert config.label_for("driver_too_old") == "env: driver ⚠️ too old"
    assert parse("duplicate_label: " + "x" * 50 + "\n").duplicate_label == "x" * 50


def test_the_command_reporters_are_told_to_run_defaults_to_one_that_exists() -> None:
    """Without a public home for envtriage no command names a download URL: collect_env is what anyone with torch
    has. Once HOME_REPOSITORY names one, the default downloads its one-file collector and runs it."""
    assert RepoConfig().collector_command == config.default_command(config.HOME_REPOSITORY)
    assert config.default_command(None) == config.FALLBACK_COMMAND == "python -m torch.utils.collect_env"
    assert config.default_command("acme/envtriage") == (
        "curl -LO https://github.com/acme/envtriage/releases/latest/download/envtriage-collect.pyz"
        " && python envtriage-collect.pyz > env.md"
    )
    command = "curl -LO https://example.org/envtriage-collect.pyz && python envtriage-collect.pyz > env.md"
    assert parse(f"collector_command: {json.dumps(command)}\n").collector_command == command
    assert parse(f"collector_command: '{'x' * config.MAX_COMMAND}'\n").collector_command == "x" * config.MAX_COMMAND


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("", "1-300 characters, not 0"),
        ("x" * 301, "1-300 characters, not 301"),
        ("curl -LO https://x.example/c.pyz\npython c.pyz", "a control character (U+000A)"),
        ("python c.pyz\r", "a control character (U+000D)"),
        ("python c.pyz\x1b[2K", "a control character (U+001B)"),  # an escape sequence that rewrites the line
        ("python \u202ezyp.c", "an invisible format character (U+202E)"),  # reads reversed, runs as written
        ("python\u200b c.pyz", "an invisible format character (U+200B)"),
        ("python c.pyz\u2028rm -rf ~", "a line separator (U+2028)"),
        (" python c.pyz", "blanks at its start or end"),
    ],
)
def test_a_command_that_is_not_one_plain_line_is_refused(value: str, problem: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(problem)) as refused:
        parse(f"collector_command: {json.dumps(value)}\n")
    assert str(refused.value).startswith("collector_command: ")


def test_a_command_must_be_a_string() -> None:
    with pytest.raises(ConfigError, match="collector_command"):
        parse("collector_command: [curl, python]\n")


def test_the_duplicate_threshold_is_a_probability() -> None:
    assert parse("").duplicate_threshold is None, "absent: the fitted model's own threshold"
    assert parse("duplicate_threshold: 0.8\n").duplicate_threshold == 0.8
    for value in ("0", "1", "1.5", "-0.2"):
        with pytest.raises(ConfigError, match="duplicate_threshold must be between 0 and 1"):
            parse(f"duplicate_threshold: {value}\n")
    with pytest.raises(ConfigError, match="duplicate_threshold"):
        parse("duplicate_threshold: high\n")
