"""A bot reads a report pasted from a newer collector of the same schema major and diagnoses it."""

from __future__ import annotations

import json

from bot.diagnosis.matrix import Index
from bot.diagnosis.plan import triage
from collector import markdown
from collector.report.schema import GPUS
from tests.collector.report.test_evolution import future, real_twin
from tests.conftest import fixture_text


def test_a_future_report_pasted_in_an_issue_is_diagnosed_not_refused(matrix: Index) -> None:
    body = fixture_text("h200-1gpu", "collector.md")
    twin_json = json.dumps(future(real_twin()))
    start = body.index(markdown.TWIN_OPEN.strip())
    end = body.index("-->", start) + 3
    pasted = body[:start] + markdown.TWIN_OPEN.strip() + " " + twin_json + " -->" + body[end:]
    plan = triage(matrix, pasted, "H200 question")
    assert plan.case.damaged_report is None
    assert "needs-env" not in plan.labels
    assert plan.case.report.get(GPUS) is not None
