"""The engine on real GitHub issues whose threads established the cause (tests/fixtures/issues/real)."""

from __future__ import annotations

from tests.bot.corpus import evaluate, report, summary


def test_floor_on_real_issues() -> None:
    results = evaluate()
    numbers = summary(results)
    assert numbers["environment_cases"] >= 40 and numbers["fine_cases"] >= 8
    assert numbers["top_correct"] >= 0.90, report(results)
    assert numbers["false_positive_rate"] <= 0.10, report(results)
