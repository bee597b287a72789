"""envtriage's own report: the twin inside the Markdown, or the JSON that `--json` prints."""

from __future__ import annotations

import json
import re

from bot.matrix import Index
from bot.readers.base import Partial, Section
from collector import markdown
from collector.report import Fact, Report, ReportFormatError, from_json_obj

NAME = "envtriage report"
JSON_START = re.compile(r'\{\s*"schema"\s*:\s*"envtriage\.report/')


class Damaged(Exception):
    """A twin is there but cannot be read; the message says what is wrong (shown to the user)."""


def find(text: str) -> Report | None:
    """The report in `text`, None if there is none; Damaged if there is one that cannot be read."""
    if markdown.TWIN_OPEN.strip() in text:
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
    except (ValueError, ReportFormatError) as exc:
        raise Damaged(f"the pasted JSON report cannot be read: {exc}") from exc


def read(section: Section, matrix: Index) -> Partial:
    partial = Partial(NAME)
    try:
        report = find(section.text)
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
    return partial
