"""envtriage's own report: the twin inside the Markdown, or the JSON that `--json` prints."""

from __future__ import annotations

import json
import re

from bot.matrix import Index
from bot.readers.base import Partial, Quote, Section
from collector import markdown
from collector.report import Fact, Missing, Report, ReportFormatError, from_json_obj
from collector.schema import SmokeResult, TorchInfo

NAME = "envtriage report"
JSON_START = re.compile(r'\{\s*"schema"\s*:\s*"envtriage\.report/')


class Damaged(Exception):
    """A twin is there but cannot be read; the message says what is wrong (shown to the user)."""


def find(text: str) -> Report | None:
    """The report in `text`, None if there is none; Damaged if there is one that cannot be read."""
    if markdown.TWIN_OPEN.strip() in text:
        if not markdown.twins(text):
            raise Damaged("the report's machine-readable part is cut off (its closing '-->' is missing)")
        try:
            return markdown.parse(text)
        except ReportFormatError as exc:
            raise Damaged(str(exc)) from exc
    match = JSON_START.search(text)
    if match is None:
        return None
    try:
        data, _ = json.JSONDecoder().raw_decode(text[match.start() :])
        return from_json_obj(data)
    except (ValueError, ReportFormatError, RecursionError) as exc:
        raise Damaged(f"the pasted JSON report cannot be read: {exc}") from exc


def read(section: Section, matrix: Index) -> Partial:
    partial = Partial(NAME)
    try:
        report = find(section.raw)
    except Damaged:
        return partial  # reported separately by the dispatcher, which asks for a fresh copy
    if report is None:
        return partial
    line = next((i for i, text in enumerate(section.lines) if "envtriage" in text), 0)
    for name, result in report.facts.items():
        if isinstance(result, Fact):
            partial.facts[name] = Fact(
                result.value,
                source=f"envtriage report: {result.source} ({section.where(line)})",
                evidence=result.evidence,
            )
        else:
            partial.missing[name] = result
    partial.errors.extend(quotes_of(report, section.where(line)))
    return partial


def quotes_of(report: Report, where: str) -> list[Quote]:
    """The error texts a report carries: why a fact is missing, torch's CUDA and cuDNN errors, failed smoke tests.

    They are what the user would otherwise have pasted as "the error", so the error signatures apply to them.
    """
    texts: list[tuple[str, str]] = []
    for name, result in report.facts.items():
        if isinstance(result, Missing) and result.status in ("error", "timeout"):
            texts.append((name, result.reason))
            texts.extend((name, line) for line in (result.detail or "").splitlines()[-6:])
        elif isinstance(result, Fact) and isinstance(result.value, TorchInfo):
            texts.extend((name, text) for text in (result.value.init_error, result.value.cudnn_error) if text)
        elif isinstance(result, Fact) and isinstance(result.value, SmokeResult) and not result.value.passed:
            texts.append((name, result.value.detail or "failed"))
    return [Quote(text=text.strip()[:500], where=f"{where}, {name}") for name, text in texts if text.strip()]
