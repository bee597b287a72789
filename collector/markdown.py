"""The report as GitHub Markdown with its JSON twin embedded, and the reader that gets the twin back.

The twin sits in an HTML comment, which GitHub keeps in the issue body but does not display. JSON can only hold
"--" inside strings, so writing it as "-\\u002d" keeps the comment from ending early; json.loads restores it.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from collector import templating
from collector.report.model import Fact, Missing, Report, ReportFormatError, from_json_obj, to_json_obj
from collector.report.schema import GPUS, TOPOLOGY, Gpu

TWIN_OPEN = "<!-- envtriage:report "
TWIN_CLOSE = " -->"
# GitHub refuses bodies over 65,536 characters; the issue form around the report needs room too.
MAX_CHARS = 40_000
# The order in which facts give up their detail when the report is too long.
TRIM_ORDER = ("packages", "library_copies", "env", "cpu", "topology", "libraries", "gpus")


@dataclasses.dataclass(frozen=True)
class Verdict:
    """One line of the summary: `level` is ok/warning/error, `text` is already rendered."""

    level: str
    text: str


def prepare() -> None:
    """Load the template ahead of its use (its compiled module; from source, 70 ms, where that is stale)."""
    templating.environment().get_template("report.md.j2")


def twin(report: Report) -> str:
    data = json.dumps(to_json_obj(report), ensure_ascii=False, separators=(",", ":"))
    return TWIN_OPEN + data.replace("--", "-\\u002d") + TWIN_CLOSE


def render(report: Report, verdicts: list[Verdict] | None = None, limit: int = MAX_CHARS) -> str:
    """Markdown under `limit` characters: detail is dropped fact by fact, and the report says so."""
    text = _render_once(report, verdicts or [])
    for name in TRIM_ORDER:
        if len(text) <= limit:
            break
        report = _trimmed(report, name)
        text = _render_once(report, verdicts or [])
    if len(text) > limit:
        raise ValueError(f"the report is {len(text)} characters even after trimming; limit {limit}")
    return text


def _trimmed(report: Report, name: str) -> Report:
    if name not in report.facts:
        return report
    meta = dataclasses.replace(report.meta, truncated=[*report.meta.truncated, name])
    facts = {**report.facts, name: Missing("left out to keep the report under GitHub's size limit", "skipped")}
    return Report(meta=meta, facts=facts)


def _render_once(report: Report, verdicts: list[Verdict]) -> str:
    return templating.render(
        "report.md.j2",
        r=report,
        f=_values(report),
        missing=_missing(report),
        gpu_rows=gpu_rows(report),
        verdicts=verdicts,
        topology_rows=topology_rows(report),
        twin=twin(report),
    )


def _values(report: Report) -> dict[str, Any]:
    return {name: result.value for name, result in report.facts.items() if isinstance(result, Fact)}


def _missing(report: Report) -> dict[str, Missing]:
    return {name: result for name, result in report.facts.items() if isinstance(result, Missing)}


def gpu_rows(report: Report) -> list[dict[str, Any]]:
    """Identical GPUs folded into one row ("0-7 | 8x NVIDIA H200"), in NVML order."""
    gpus: list[Gpu] = report.get(GPUS) or []
    rows: list[dict[str, Any]] = []
    for gpu in gpus:
        signature = (
            gpu.name,
            gpu.cc,
            gpu.memory_mib,
            gpu.mig_mode,
            gpu.ecc,
            gpu.ecc_volatile_uncorrected,
            gpu.pcie_gen,
            gpu.pcie_width,
            gpu.persistence,
            gpu.driver_model,
        )
        if rows and rows[-1]["signature"] == signature and rows[-1]["last"] == gpu.index - 1:
            rows[-1]["last"] = gpu.index
            rows[-1]["count"] += 1
        else:
            rows.append({"signature": signature, "first": gpu.index, "last": gpu.index, "count": 1, "gpu": gpu})
    return rows


def topology_rows(report: Report) -> list[dict[str, Any]]:
    """Matrix rows with their labels and affinities, tolerant of a twin whose lists disagree in length."""
    topo = report.get(TOPOLOGY)
    if topo is None:
        return []

    def at(items: list[str] | None, index: int) -> str:
        return items[index] if items and index < len(items) else ""

    return [
        {
            "label": at(topo.gpus, i) or f"GPU{i}",
            "cells": row,
            "cpu": at(topo.cpu_affinity, i),
            "numa": at(topo.numa_affinity, i),
        }
        for i, row in enumerate(topo.matrix)
    ]


def twins(text: str) -> list[str]:
    """The JSON of every twin in `text`, in order.

    Found with str.find rather than a lazy regex: a regex restarts at each opening and scans to the end when no
    closing follows, which is quadratic on a body of a few thousand unclosed openings.
    """
    found: list[str] = []
    opening = TWIN_OPEN + "{"
    at = text.find(opening)
    while at >= 0:
        end = text.find("}" + TWIN_CLOSE, at + len(opening))
        if end < 0:
            break  # no later opening has a closing either
        found.append(text[at + len(TWIN_OPEN) : end + 1])
        at = text.find(opening, end + 1 + len(TWIN_CLOSE))
    return found


def parse(text: str) -> Report:
    """The report embedded in `text` (a pasted report, an issue body); the last one wins if there are several.

    Raises ReportFormatError, and nothing else, when there is none or it cannot be read.
    """
    found = twins(text)
    if not found:
        raise ReportFormatError("no envtriage report twin (<!-- envtriage:report {...} -->) in the text")
    try:
        data = json.loads(found[-1])
    except (ValueError, RecursionError) as exc:  # ValueError: also an integer longer than Python reads
        raise ReportFormatError(f"the report twin is damaged: {exc}") from exc
    return from_json_obj(data)
