"""The per-repository config: defaults, strict keys, validated label names."""

from __future__ import annotations

import json
import re

import pytest

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
