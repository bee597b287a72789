"""Per-repository settings (.github/envtriage.yml in the target repository), strictly validated.

Every key is optional; what is absent takes the default below. Unknown keys are errors, so a typo is reported
instead of silently ignored.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

from bot.diagnosis.findings import CATEGORIES
from collector.report import codec

MAX_LABEL = 50  # GitHub's limit on a label name
MAX_COMMAND = 300  # a command reporters are told to run: one line of a comment, short enough to read before running
# What a label name may not hold: commas (they split label lists), any control character (C0 with "\n" and "\t",
# DEL, C1 with U+0085), line and paragraph separators, and every invisible format character (zero-width spaces and
# joiners, bidi marks, overrides and isolates, the BOM, soft hyphens), which would make two labels look alike.
FORBIDDEN = {"Cc": "a control character", "Cf": "an invisible format character", "Cs": "a lone surrogate",
             "Zl": "a line separator", "Zp": "a paragraph separator"}  # fmt: skip


# This project's GitHub repository (OWNER/NAME), named here and nowhere else: each of its releases carries
# envtriage-collect.pyz, which the default command downloads. None while the project has no public home: a
# placeholder owner would send strangers to download and run a file from an account nobody here controls.
HOME_REPOSITORY: str | None = None
ASSET = "envtriage-collect.pyz"
FALLBACK_COMMAND = "python -m torch.utils.collect_env"  # what anyone with torch can run, whatever else fails


def default_label(category: str) -> str:
    return "env: " + category.replace("_", "-")


def release_command(repository: str) -> str:
    """Download `repository`'s latest release of the one-file collector and run it (any CPython 3.8+, no install)."""
    url = f"https://github.com/{repository}/releases/latest/download/{ASSET}"
    return f"curl -LO {url} && python {ASSET} > env.md"


def default_command(home: str | None = HOME_REPOSITORY) -> str:
    return release_command(home) if home else FALLBACK_COMMAND


@dataclass(frozen=True)
class RepoConfig:
    comment: bool = True  # post the sticky comment (False: labels only)
    labels: dict[str, str] = field(default_factory=dict)  # category -> label name ("" turns a label off)
    needs_env_label: str = "needs-env"
    duplicates: bool = True
    duplicate_label: str = "possible-duplicate"
    exempt_labels: list[str] = field(default_factory=list)  # issues carrying one of these are left alone
    max_duplicates: int = 3
    # Probability from which an earlier issue is suggested (None: the threshold fitted with the model,
    # bot/insights/dedupe/weights.json); higher means fewer, surer suggestions.
    duplicate_threshold: float | None = None
    # What reporters are told to run; the comment offers FALLBACK_COMMAND where it cannot run.
    collector_command: str = field(default_factory=default_command)

    def label_for(self, category: str) -> str | None:
        name = self.labels.get(category, default_label(category))
        return name or None


class ConfigError(ValueError):
    """The repository's envtriage.yml is invalid; the message says where."""


def parse(text: str) -> RepoConfig:
    try:
        data: Any = yaml.safe_load(text) if text.strip() else {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"not valid YAML: {exc}") from exc
    if data is None:
        data = {}
    try:
        config = codec.decode_as(RepoConfig, data)
    except codec.DecodeError as exc:
        raise ConfigError(str(exc)) from exc
    unknown = sorted(set(config.labels) - set(CATEGORIES))
    if unknown:
        raise ConfigError(f"labels: unknown categories {', '.join(unknown)} (known: {', '.join(CATEGORIES)})")
    for key, name in _label_names(config):
        if problem := label_problem(name):
            raise ConfigError(f"{key}: invalid label name {name!r}: {problem}")
    if not 0 <= config.max_duplicates <= 10:
        raise ConfigError("max_duplicates must be between 0 and 10")
    if config.duplicate_threshold is not None and not 0 < config.duplicate_threshold < 1:
        raise ConfigError("duplicate_threshold must be between 0 and 1 (exclusive)")
    if problem := command_problem(config.collector_command):
        raise ConfigError(f"collector_command: {problem}")
    return config


def _label_names(config: RepoConfig) -> Iterator[tuple[str, str]]:
    """Each label name with the key it was read from; "" (a label turned off) only where that is allowed."""
    yield from ((f"labels.{category}", name) for category, name in config.labels.items() if name)
    yield "needs_env_label", config.needs_env_label
    yield "duplicate_label", config.duplicate_label
    yield from ((f"exempt_labels[{index}]", name) for index, name in enumerate(config.exempt_labels))


def label_problem(name: str) -> str | None:
    """Why `name` cannot be a label, or None."""
    if not 1 <= len(name) <= MAX_LABEL:
        return f"1-{MAX_LABEL} characters, not {len(name)}"
    if "," in name:
        return "a comma (commas split label lists)"
    return _text_problem(name)


def command_problem(command: str) -> str | None:
    """Why `command` cannot be what reporters are told to run, or None: it is shown as one line of code in the
    comment, and pasted into a terminal, where an invisible character would run as something else than it reads."""
    if not 1 <= len(command) <= MAX_COMMAND:
        return f"1-{MAX_COMMAND} characters, not {len(command)}"
    if problem := _text_problem(command):
        return f"invalid command {command[:60]!r}: {problem}"
    return None


def _text_problem(text: str) -> str | None:
    for char in text:
        if kind := FORBIDDEN.get(unicodedata.category(char)):
            return f"{kind} (U+{ord(char):04X})"
    return "blanks at its start or end" if text != text.strip() else None
