"""The floor under duplicate suggestions on real pairs (the figures: `python -m tests.bot.dedupe_eval`)."""

from __future__ import annotations

from bot.dedupe.score import THRESHOLD
from bot.matrix import Index
from tests.bot.dedupe_eval import build, load_pairs, measure, suggestions


def test_precision_and_recall_per_repository_at_the_chosen_threshold(matrix: Index) -> None:
    index, issues, features = build(matrix)
    found = suggestions(index, issues, features)
    outcome = measure(found, {issue.stem: issue.cause for issue in issues}, THRESHOLD)
    duplicates, near = load_pairs()
    assert len(duplicates) >= 15 and len(near) >= 40, "the real pairs are the measure; keep them"
    assert outcome.precision >= 0.9, outcome
    assert outcome.recall >= 0.15, outcome
