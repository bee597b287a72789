"""The per-repository config: defaults, strict keys, validated label names."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, RepoConfig, parse


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
        ("labels:\n  driver_too_old: 'a,b'\n", "invalid label names"),
        ("comment: maybe\n", "expected bool"),
        ("max_duplicates: 50\n", "between 0 and 10"),
        ("labels: [\n", "not valid YAML"),
    ],
)
def test_bad_config_is_a_clear_error(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse(text)
