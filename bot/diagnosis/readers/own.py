"""envtriage's own report: the twin inside the Markdown, or the JSON that `--json` prints."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Any

from bot.diagnosis.matrix import Index
from bot.diagnosis.readers.base import MAX_GPUS, Partial, Quote, Section
from collector import markdown
from collector.report.model import Fact, Missing, Report, ReportFormatError, from_json_obj
from collector.report.schema import GPUS, SmokeResult, TorchInfo

NAME = "envtriage report"
JSON_START = re.compile(r'\{\s*"schema"\s*:\s*"envtriage\.report/')


# What one twin may make us decode, redact and diagnose: MAX_GPUS of its GPUs (the GPUs fact says when there were
# more), and MAX_ITEMS of any other list.
MAX_ITEMS = 256  # of any other list in a twin (packages, libraries, copies): a real report holds a few dozen
GPU_FACTS = ("gpus", "topology", "torch")  # their lists are indexed by GPU (devices, topology rows and columns)


class Damaged(Exception):
    """A twin is there but cannot be read; the message says what is wrong (shown to the user)."""


@dataclass(frozen=True)
class Found:
    report: Report
    gpus: int  # how many GPUs the twin listed (MAX_GPUS at most were read)


def find(text: str) -> Report | None:
    """The report in `text`, None if there is none; Damaged if there is one that cannot be read."""
    found = _found(text)
    return found.report if found else None


@functools.lru_cache(maxsize=4)  # the dispatcher asks again for each section, to say why a twin is damaged
def _found(text: str) -> Found | None:
    if markdown.TWIN_OPEN.strip() in text:
        twins = markdown.twins(text)
        if not twins:
            raise Damaged("the report's machine-readable part is cut off (its closing '-->' is missing)")
        try:
            return _decoded(json.loads(twins[-1]))  # the last one wins, as in markdown.parse
        except (ValueError, RecursionError) as exc:  # ValueError: also an integer longer than Python reads
            raise Damaged(f"the report twin is damaged: {exc}") from exc
        except ReportFormatError as exc:
            raise Damaged(str(exc)) from exc
    match = JSON_START.search(text)
    if match is None:
        return None
    try:
        data, _ = json.JSONDecoder().raw_decode(text[match.start() :])
        return _decoded(data)
    except (ValueError, ReportFormatError, RecursionError) as exc:
        raise Damaged(f"the pasted JSON report cannot be read: {exc}") from exc


def _decoded(data: Any) -> Found:
    facts = data.get("facts") if isinstance(data, dict) else None
    if not isinstance(facts, dict):
        return Found(from_json_obj(data), 0)
    gpus = facts.get("gpus")
    listed = gpus.get("value") if isinstance(gpus, dict) else None
    capped = {name: _capped(fact, MAX_GPUS if name in GPU_FACTS else MAX_ITEMS) for name, fact in facts.items()}
    return Found(from_json_obj({**data, "facts": capped}), len(listed) if isinstance(listed, list) else 0)


def _capped(value: Any, limit: int) -> Any:
    """`value` (decoded JSON) with every list cut to `limit` items, at any depth."""
    if isinstance(value, list):
        return [_capped(item, limit) for item in value[:limit]]
    if isinstance(value, dict):
        return {key: _capped(item, limit) for key, item in value.items()}
    return value


def read(section: Section, matrix: Index) -> Partial:
    partial = Partial(NAME)
    try:
        found = _found(section.raw)
    except Damaged:
        return partial  # reported separately by the dispatcher, which asks for a fresh copy
    if found is None:
        return partial
    report = found.report
    line = next((i for i, text in enumerate(section.lines) if "envtriage" in text), 0)
    for name, result in report.facts.items():
        if isinstance(result, Fact):
            cut = (
                f"; the first {MAX_GPUS} of {found.gpus} GPUs read"
                if name == GPUS.name and found.gpus > MAX_GPUS
                else ""
            )
            partial.facts[name] = Fact(
                result.value,
                source=f"envtriage report: {result.source} ({section.where(line)}){cut}",
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
