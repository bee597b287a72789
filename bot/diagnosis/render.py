"""The bot's comment: rendered from templates/comment.md.j2, made inert, kept under GitHub's size limit.

Everything quoted from an issue is untrusted. Each value is made one line (the facts, which go into code spans) or one
inert line (what a duplicate has in common, printed as prose) here, as findings make theirs (bot/diagnosis/findings.py);
templates put quotes in code spans (the `code` filter); as a last guard, bot/diagnosis/inert.py rewrites the finished
Markdown outside code so no @mention, link, HTML tag or copy of our own marker can survive, whatever a template forgot.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.diagnosis.config import FALLBACK_COMMAND
from bot.diagnosis.findings import Finding
from bot.diagnosis.inert import inert, inert_value, one_line
from bot.diagnosis.matrix import Index
from bot.diagnosis.readers import Case
from collector import templating
from collector.redact import Redactor
from collector.report.schema import DRIVER, GPUS, OS, PYTHON, RUNTIME, TORCH

if TYPE_CHECKING:
    from bot.diagnosis.plan import Duplicate

MARKER = "<!-- envtriage:comment -->"
MAX_COMMENT = 60_000
SHOWN_FINDINGS = 6


def comment(case: Case, findings: list[Finding], duplicates: list[Duplicate], matrix: Index, command: str) -> str:
    """`command`: what the repository tells reporters to run (its collector_command), asked for when a report is."""
    shown = findings[:SHOWN_FINDINGS]
    ask = any(f.category == "missing_env_report" for f in findings)
    duplicates = [replace(d, evidence=[inert_value(line, composed=True) for line in d.evidence]) for d in duplicates]
    limit = MAX_COMMENT - len(MARKER) - 1
    raw = text = ""
    for evidence_lines in (8, 3, 1):
        raw = templating.render(
            "comment.md.j2", findings=shown, more=len(findings) - len(shown), facts=fact_rows(case, matrix),
            duplicates=duplicates, evidence_lines=evidence_lines, reviewed=matrix.matrix.reviewed,
            formats=case.formats, command=command, fallback=FALLBACK_COMMAND, ask=ask,
        )  # fmt: skip
        raw = Redactor().secrets(raw)  # a token pasted in an issue is not repeated by the bot
        text = inert(raw)
        if len(text) <= limit:
            return f"{MARKER}\n{text}"
    return f"{MARKER}\n{_cut(raw, limit)}"


def _cut(raw: str, limit: int) -> str:
    """The rendered comment cut to fit, then made inert (inert text cut short could end inside a code span)."""
    notice = templating.render("comment_cut.md.j2")
    budget = limit - len(notice)
    while True:
        end = raw.rfind("\n", 0, budget)
        text = inert(raw[: end if end > 0 else budget]) + notice
        if len(text) <= limit:
            return text
        budget = max(0, budget - (len(text) - limit))  # escaping made it longer: cut that much more


def fact_rows(case: Case, matrix: Index) -> list[dict[str, Any]]:
    """What the bot read, one line per fact, with where it was read."""
    report = case.report
    rows = []
    torch = report.get(TORCH)
    if torch and torch.version:
        cuda = torch.cuda or (torch.tag if torch.tag and torch.tag.startswith("cu") else None)
        rows.append(
            _row(
                "PyTorch",
                f"{torch.version}" + (f" (CUDA {cuda})" if cuda and cuda != torch.tag else ""),
                report,
                TORCH.name,
            )
        )
    driver = report.get(DRIVER)
    if driver and (driver.version or driver.cuda_max):
        value = " ".join(filter(None, [driver.version, f"(CUDA ≤ {driver.cuda_max})" if driver.cuda_max else None]))
        rows.append(_row("Driver", value, report, DRIVER.name))
    gpus = report.get(GPUS)
    if gpus:
        names = []
        for gpu in gpus:
            cc = gpu.cc or (model.cc if (model := matrix.gpu(gpu.name)) else None)
            names.append(f"{gpu.name}" + (f" (sm_{cc.replace('.', '')})" if cc else ""))
        rows.append(_row("GPUs", ", ".join(dict.fromkeys(names)), report, GPUS.name))
    python, os_info, runtime = report.get(PYTHON), report.get(OS), report.get(RUNTIME)
    if python:
        rows.append(_row("Python", python.version, report, PYTHON.name))
    if os_info:
        rows.append(_row("OS", os_info.distro or os_info.system, report, OS.name))
    if runtime:
        parts = [runtime.container, f"WSL{runtime.wsl}" if runtime.wsl else None, runtime.jetson, runtime.hypervisor]
        rows.append(_row("Runs in", ", ".join(p for p in parts if p), report, RUNTIME.name))
    return [row for row in rows if row["value"]]


def _row(label: str, value: str, report: Any, name: str) -> dict[str, Any]:
    fact = report.facts.get(name)
    return {"label": label, "value": one_line(value), "where": one_line(getattr(fact, "source", ""))}
