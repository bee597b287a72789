"""Duplicate suggestions from what identifies a problem: title, error signature, environment, diagnosis, words.

`features.extract` reads an issue, `index.DuplicateIndex` stores and retrieves, `pair.signals` compares two
issues and `score.model` (weights fitted on real pairs) weighs the comparison.
Nothing here talks to GitHub or closes anything; the worker shows the suggestions in its comment.
"""

from __future__ import annotations

from bot.diagnosis.plan import Duplicate
from bot.insights.dedupe.features import Features, extract
from bot.insights.dedupe.index import Candidate, DuplicateIndex
from bot.insights.dedupe.pair import Match
from collector import templating

__all__ = ["Candidate", "DuplicateIndex", "Features", "duplicates", "evidence", "extract"]


def evidence(matches: list[Match]) -> list[str]:
    text = templating.render("dedupe/evidence.txt.j2", matches=matches)
    return [line for line in text.splitlines() if line.strip()]


def duplicates(candidates: list[Candidate]) -> list[Duplicate]:
    return [
        Duplicate(c.number, round(c.similarity.score, 3), evidence(c.similarity.matches), c.title, c.state)
        for c in candidates
    ]
