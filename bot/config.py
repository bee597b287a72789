"""Per-repository settings (.github/envtriage.yml in the target repository), strictly validated.

Every key is optional; what is absent takes the default below. Unknown keys are errors, so a typo is reported
instead of silently ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from bot.findings import CATEGORIES
from collector import codec

LABEL = re.compile(r"^[^\x00-\x1f,]{1,50}$")  # GitHub: at most 50 characters; commas split label lists


def default_label(category: str) -> str:
    return "env: " + category.replace("_", "-")


@dataclass(frozen=True)
class RepoConfig:
    comment: bool = True  # post the sticky comment (False: labels only)
    labels: dict[str, str] = field(default_factory=dict)  # category -> label name ("" turns a label off)
    needs_env_label: str = "needs-env"
    duplicates: bool = True
    duplicate_label: str = "possible-duplicate"
    exempt_labels: list[str] = field(default_factory=list)  # issues carrying one of these are left alone
    max_duplicates: int = 3

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
    names = [*config.labels.values(), config.needs_env_label, config.duplicate_label, *config.exempt_labels]
    bad = [name for name in names if name and not LABEL.match(name)]
    if bad:
        raise ConfigError(f"invalid label names (1-50 characters, no commas or control characters): {bad}")
    if not 0 <= config.max_duplicates <= 10:
        raise ConfigError("max_duplicates must be between 0 and 10")
    return config
