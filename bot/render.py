"""The bot's comment: rendered from templates/comment.md.j2, made inert, kept under GitHub's size limit.

Everything quoted from an issue is untrusted. Templates put it in code spans or pass it through the `u`
filter; as a last guard, `inert` rewrites the finished Markdown outside code so no @mention, HTML tag or copy
of our own marker can survive, whatever a template forgot.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from bot.findings import Finding
from bot.matrix import Index
from bot.readers import Case
from collector import templating
from collector.redact import Redactor
from collector.schema import DRIVER, GPUS, OS, PYTHON, RUNTIME, TORCH

if TYPE_CHECKING:
    from bot.triage import Duplicate

MARKER = "<!-- envtriage:comment -->"
MAX_COMMENT = 60_000
ALLOWED_TAGS = re.compile(r"</?(details|summary|sub|sup|br|b)>", re.I)
CODE = re.compile(r"(`{3,}[\s\S]*?`{3,}|``[^`\n][\s\S]*?``|`[^`\n]+`)")
MENTION = re.compile(r"@(?=[A-Za-z0-9_-])")
LINK = re.compile(r"\]\(")
SHOWN_FINDINGS = 6


def comment(case: Case, findings: list[Finding], duplicates: list[Duplicate], matrix: Index) -> str:
    shown = findings[:SHOWN_FINDINGS]
    text = ""
    for evidence_lines in (8, 3, 1):
        text = templating.render(
            "comment.md.j2", findings=shown, more=len(findings) - len(shown), facts=fact_rows(case, matrix),
            duplicates=duplicates, evidence_lines=evidence_lines, reviewed=matrix.matrix.reviewed,
            formats=case.formats,
        )  # fmt: skip
        text = inert(Redactor().secrets(text))  # a token pasted in an issue is not repeated by the bot
        if len(text) <= MAX_COMMENT - len(MARKER) - 1:
            break
    if len(text) > MAX_COMMENT - len(MARKER) - 1:
        text = text[: MAX_COMMENT - len(MARKER) - 80] + "\n\n…(cut to fit GitHub's comment size limit)\n"
    return f"{MARKER}\n{text}"


def inert(markdown: str) -> str:
    """Outside code: no @mentions, no HTML but a few layout tags, no envtriage marker."""
    parts = CODE.split(markdown)
    for index in range(0, len(parts), 2):  # even parts are outside code spans and fences
        parts[index] = _inert_text(parts[index])
    return "".join(parts)


def _inert_text(text: str) -> str:
    text = MENTION.sub("@\u200b", text)
    text = LINK.sub("]\\(", text)  # [text](url) and ![image](url): a backslash makes them plain text

    def tag(match: re.Match[str]) -> str:
        return match.group(0) if ALLOWED_TAGS.fullmatch(match.group(0)) else match.group(0).replace("<", "&lt;")

    return re.sub(r"<[^>\n]*>?", tag, text)


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
    return {"label": label, "value": value, "where": getattr(fact, "source", "")}
