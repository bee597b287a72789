"""Decide: from an issue's text to a Plan (findings, labels, the comment to post). Pure; GitHub I/O is elsewhere."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from bot.diagnosis import learned, policy, render
from bot.diagnosis.config import RepoConfig
from bot.diagnosis.findings import Finding
from bot.diagnosis.matrix import Index
from bot.diagnosis.readers import Case, read_case
from bot.diagnosis.readers.own import NAME as TWIN_FORMAT
from bot.diagnosis.rules import diagnose
from collector.redact import Redactor


@dataclass(frozen=True)
class Duplicate:
    number: int
    score: float
    evidence: list[str]
    title: str = ""
    state: str = "open"


@dataclass(frozen=True)
class LabelIntent:
    """Why a label is wanted: a category's (its description and colour follow from the category), the ask for a
    report, or a likely duplicate. Carried with the name, since a repository may rename any label."""

    kind: Literal["category", "needs_env", "duplicate"]
    category: str | None = None


@dataclass(frozen=True)
class Plan:
    case: Case
    findings: list[Finding]
    intents: dict[str, LabelIntent]  # label name -> why it is wanted, in the order wanted
    needs_env: bool
    comment: str | None  # None: nothing applies, and the bot's comment (if any) goes away
    duplicates: list[Duplicate] = field(default_factory=list)

    @property
    def labels(self) -> list[str]:
        return list(self.intents)


def triage(
    matrix: Index,
    body: str | None,
    title: str = "",
    comments: Sequence[str] = (),
    config: RepoConfig | None = None,
    duplicates: Sequence[Duplicate] = (),
) -> Plan:
    clean = Redactor(secrets_only=True).secrets
    title, body = clean(title), clean(body or "")
    case = read_cleaned(matrix, body, title, [clean(comment) for comment in comments])
    findings = conclude(case, matrix, title, body)
    return plan_for(case, findings, config or RepoConfig(), list(duplicates), matrix)


def conclude(case: Case, matrix: Index, title: str, body: str) -> list[Finding]:
    """The rules' findings and, where none names a cause, the learned fallback's likely one (bot/diagnosis/learned).

    `title` and `body` are the issue's texts already cleaned of secrets: the fallback quotes the words it went by.
    The fallback is the bot's alone; the collector diagnoses its own report with the rules. Nor does it guess where
    the issue holds our own report: every fact the rules need is there and was checked, and the words it would go by
    are the report's listings (package names such as libcublas), which are never evidence of a cause.
    """
    if TWIN_FORMAT in case.formats:
        return diagnose(case, matrix)
    return diagnose(case, matrix, lambda found: learned.fallback_finding(title, body, found, matrix))


def read_clean(matrix: Index, body: str | None, title: str = "", comments: Sequence[str] = ()) -> Case:
    """The issue read with its secrets gone, for the CLI and the worker alike.

    Secrets go before the issue is read, so no fact's evidence, quoted error or finding carries one into
    `python -m bot triage` output, the duplicate index or the history (the comment is redacted again as it is
    rendered).
    """
    clean = Redactor(secrets_only=True).secrets
    return read_cleaned(matrix, clean(body or ""), clean(title), [clean(comment) for comment in comments])


def read_cleaned(matrix: Index, body: str, title: str = "", comments: Sequence[str] = ()) -> Case:
    """`read_clean` of texts already cleaned of secrets (the worker keeps the clean title and body too).

    A pasted report's twin is JSON and may spell a secret with escapes ("-\u002d-BEGIN"), so the facts decoded
    from one are cleaned again; facts read from the clean text need nothing more.
    """
    case = read_case(matrix, body, title, comments)
    if TWIN_FORMAT not in case.formats:
        return case
    return replace(case, report=Redactor(secrets_only=True).report(case.report))


def plan_for(
    case: Case, findings: list[Finding], config: RepoConfig, duplicates: list[Duplicate], matrix: Index
) -> Plan:
    needs_env = any(f.category == "missing_env_report" for f in findings)
    intents: dict[str, LabelIntent] = {}
    for finding in findings:
        if finding.category and policy.earns_label(finding):
            label = config.label_for(finding.category)
            if label:
                intents.setdefault(label, LabelIntent("category", finding.category))
    if needs_env and config.needs_env_label:
        intents.setdefault(config.needs_env_label, LabelIntent("needs_env"))
    shown = duplicates[: config.max_duplicates] if config.duplicates else []
    if shown and config.duplicate_label:
        intents.setdefault(config.duplicate_label, LabelIntent("duplicate"))
    worth_saying = any(f.severity != "info" for f in findings) or shown
    comment = None
    if config.comment and worth_saying:
        comment = render.comment(case, findings, shown, matrix, config.collector_command)
    return Plan(case, findings, intents, needs_env, comment, shown)
