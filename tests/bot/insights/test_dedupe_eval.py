"""The floor under duplicate suggestions on real pairs (the figures: `python -m tests.bot.dedupe_eval`)."""

from __future__ import annotations

from bot.diagnosis.matrix import Index
from bot.insights.dedupe.score import THRESHOLD
from tests.bot.dedupe_eval import build, load_pairs, measure, suggestions


def test_precision_and_recall_per_repository_at_the_chosen_threshold(matrix: Index) -> None:
    index, issues, features = build(matrix)
    found = suggestions(index, issues, features)
    outcome = measure(found, {issue.stem: issue.cause for issue in issues}, THRESHOLD)
    duplicates, near = load_pairs()
    assert len(duplicates) >= 15 and len(near) >= 40, "the real pairs are the measure; keep them"
    # 0.80 since the diagnosis corpus grew from 100 to 322 issues (more same-repository pairs with different
    # causes to tell apart); issue 18 replaces this with the locked split's precision >= 0.9 and recall >= 0.7.
    assert outcome.precision >= 0.8, outcome
    assert outcome.recall >= 0.15, outcome
