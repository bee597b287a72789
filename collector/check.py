"""The diagnosis of the collector's own report, by the bot's engine: summary verdicts and `--check` output.

The engine lives in `bot`; it is loaded while the probe process works, and any failure there leaves the report
itself untouched.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from collector.markdown import Verdict
from collector.report.model import Report

if TYPE_CHECKING:
    from bot.diagnosis.findings import Finding

log = logging.getLogger(__name__)


class Engine:
    def __init__(self) -> None:
        self.matrix: Any = None

    def load(self) -> None:
        try:
            from bot.diagnosis import matrix, rules

            self.matrix = matrix.default()
            rules.all_rules()
        except Exception:  # a broken engine must never cost the user the report
            log.exception("the diagnosis engine could not be loaded; the report has no verdicts")

    def diagnose(self, report: Report) -> list[Finding]:
        if self.matrix is None:
            return []
        from bot.diagnosis.readers import Case
        from bot.diagnosis.readers.own import quotes_of
        from bot.diagnosis.rules import diagnose

        try:
            case = Case(report=report, errors=quotes_of(report, "this report"), formats=["envtriage report"])
            return diagnose(case, self.matrix)
        except Exception:
            log.exception("the diagnosis failed; the report has no verdicts")
            return []


def verdicts(findings: list[Finding]) -> list[Verdict]:
    return [Verdict(level=finding.severity, text=finding.title) for finding in findings]
