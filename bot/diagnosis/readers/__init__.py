"""Turn an issue (title, body, comments) into one Case: environment facts with evidence, and the errors quoted.

Every reader looks at every section; the facts they find are merged by precedence (our own report, then
collect_env, nvidia-smi, package lists, torch's messages, and plain text last). Adding a format is one module
with a `read(section, matrix) -> Partial` function and one line in `readers()`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.diagnosis.matrix import Index
from bot.diagnosis.readers import sections
from bot.diagnosis.readers.base import MAX_ERRORS, Partial, Quote, Reader, Section
from bot.diagnosis.readers.merge import merge
from collector.report.model import Meta, Report


@functools.lru_cache(maxsize=None)  # functools.cache is 3.9+; collector/bundle.py runs on 3.8
def readers() -> list[tuple[str, Reader]]:
    """The readers, in order of precedence: a structured report beats a sentence about the same fact.

    Imported on first use: the collector diagnoses its own report with the rules alone, and the readers'
    patterns cost a tenth of its run when no torch is installed.
    """
    from bot.diagnosis.readers import collect_env, freeform, nvidia_smi, own, packages, torch_messages

    return [
        (own.NAME, own.read),  # type: ignore[list-item]
        (collect_env.NAME, collect_env.read),  # type: ignore[list-item]
        (nvidia_smi.NAME, nvidia_smi.read),  # type: ignore[list-item]
        (packages.NAME, packages.read),  # type: ignore[list-item]
        (torch_messages.NAME, torch_messages.read),  # type: ignore[list-item]
        (freeform.NAME, freeform.read),  # type: ignore[list-item]
    ]


@dataclass(frozen=True)
class Case:
    """What the engine diagnoses: facts (a partial Report), quoted errors, and how the issue was written."""

    report: Report
    errors: list[Quote] = field(default_factory=list)
    topics: dict[str, Quote] = field(default_factory=dict)  # subjects named in the text, with the first mention
    cues: dict[str, Quote] = field(default_factory=dict)  # what the prose says about the setup (matrix cue id)
    formats: list[str] = field(default_factory=list)  # the readers that recognised something
    fields: list[sections.FormField] = field(default_factory=list)
    title: str = ""
    damaged_report: str | None = None  # our twin was pasted but cannot be read: why


def read_case(matrix: Index, body: str | None, title: str = "", comments: Sequence[str] = ()) -> Case:
    whole, fields = sections.split(body or "")
    parts = [whole]
    for number, comment in enumerate(comments, start=1):
        parts.append(Section.of(f"comment {number}", comment))
    if title:
        parts.append(Section.of("title", title))
    partials: list[Partial] = []
    for _, reader in readers():
        for part in parts:
            found = reader(part, matrix)
            if found:
                partials.append(found)
    return Case(
        report=Report(meta=Meta(generator="pasted text"), facts=merge(partials)),
        errors=_errors(partials),
        topics=_first_quotes(p.topics for p in partials),
        cues=_first_quotes(p.cues for p in partials),
        formats=list(dict.fromkeys(p.reader for p in partials if p.facts or p.missing)),
        fields=fields,
        title=title,
        damaged_report=_damaged(parts),
    )


def _errors(partials: list[Partial]) -> list[Quote]:
    seen: dict[str, Quote] = {}
    for partial in partials:
        for quote in partial.errors:
            seen.setdefault(quote.text, quote)
    return list(seen.values())[:MAX_ERRORS]


def _first_quotes(named: Iterable[dict[str, Quote]]) -> dict[str, Quote]:
    """Each name's first quote, in reader precedence (the partials' topics, or their cues)."""
    first: dict[str, Quote] = {}
    for quotes in named:
        for name, quote in quotes.items():
            first.setdefault(name, quote)
    return first


def _damaged(parts: list[Section]) -> str | None:
    from bot.diagnosis.readers import own

    for part in parts:
        try:
            own.find(part.raw)
        except own.Damaged as exc:
            return str(exc)
    return None
