"""How alike two issues are, and why: a score in [0, 1] with the evidence a maintainer can check.

The error signature carries most weight; the words of title and body tell the same error in different settings
apart (a "no kernel image" from a too-new GPU vs from an extension built without its arch); the diagnosis and
the environment confirm or contradict. Weights and THRESHOLD are calibrated on real duplicate and near-miss
pairs (`python -m tests.bot.dedupe_eval`); the evidence is what the comment shows.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from bot.dedupe.features import Features

THRESHOLD = 0.5
WEIGHTS = {"error": 0.35, "frames": 0.1, "words": 0.4, "categories": 0.15}
ENVIRONMENT_BONUS = {"archs": 0.03, "torch": 0.03, "cuda": 0.02, "driver": 0.02}
CONFLICT_PENALTY = 0.15  # both diagnosed, and with nothing in common
PARTIAL_ERROR = 0.6  # masked messages sharing this share of their words count as alike


@dataclass(frozen=True)
class Match:
    """One reason two issues look alike: kind ("error", "frames", "arch", "finding", ...) and what matched."""

    kind: str
    detail: str


@dataclass(frozen=True)
class Similarity:
    score: float
    matches: list[Match]


IdfOf = Callable[[str], float]


def similarity(query: Features, doc: Features, idf: IdfOf, doc_norm: float) -> Similarity:
    matches: list[Match] = []
    error, shared_error = _error_similarity(query.errors, doc.errors)
    if shared_error:
        matches.append(Match("error", shared_error))
    shared_frames = [frame for frame in query.frames if frame in doc.frames]
    frames = len(shared_frames) / min(len(query.frames), len(doc.frames)) if shared_frames else 0.0
    if shared_frames:
        matches.append(Match("frames", ", ".join(shared_frames)))
    words = _cosine(query.terms, doc.terms, idf, doc_norm)
    categories, conflict = _categories(query.categories, doc.categories)
    if categories:
        matches.append(Match("finding", ", ".join(sorted(set(query.categories) & set(doc.categories)))))
    score = (
        WEIGHTS["error"] * error
        + WEIGHTS["frames"] * frames
        + WEIGHTS["words"] * words
        + WEIGHTS["categories"] * categories
        - (CONFLICT_PENALTY if conflict else 0.0)
    )
    for kind, same in _environment(query, doc):
        score += ENVIRONMENT_BONUS[kind]
        matches.append(Match(kind, same))
    if words >= 0.3:
        matches.append(Match("words", f"{words:.2f}"))
    return Similarity(max(0.0, min(1.0, score)), matches)


def _error_similarity(ours: list[str], theirs: list[str]) -> tuple[float, str | None]:
    best, shown = 0.0, None
    for mine in ours:
        for other in theirs:
            if mine == other:
                return 1.0, mine
            alike = _jaccard(set(mine.split()), set(other.split()))
            if alike >= PARTIAL_ERROR and alike > best:
                best, shown = alike, mine
    return best, shown


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _cosine(query: dict[str, int], doc: dict[str, int], idf: IdfOf, doc_norm: float) -> float:
    """Cosine of log-tf x idf vectors; the document's norm was computed when it was indexed."""
    if not query or not doc or doc_norm <= 0:
        return 0.0
    dot, query_norm = 0.0, 0.0
    for term, count in query.items():
        weight = (1 + math.log(count)) * idf(term)
        query_norm += weight * weight
        if term in doc:
            dot += weight * (1 + math.log(doc[term])) * idf(term)
    # The stored norm used the frequencies of its day; clamp what drift remains (refresh() recomputes norms).
    return min(1.0, dot / (math.sqrt(query_norm) * doc_norm)) if query_norm else 0.0


def norm(terms: dict[str, int], idf: IdfOf) -> float:
    return math.sqrt(sum(((1 + math.log(count)) * idf(term)) ** 2 for term, count in terms.items()))


def _categories(ours: list[str], theirs: list[str]) -> tuple[float, bool]:
    if not ours or not theirs:
        return 0.0, False
    alike = _jaccard(set(ours), set(theirs))
    return alike, alike == 0.0


def _environment(query: Features, doc: Features) -> list[tuple[str, str]]:
    same = []
    shared_archs = sorted(set(query.archs) & set(doc.archs))
    if shared_archs:
        same.append(("archs", ", ".join(shared_archs)))
    for kind in ("torch", "cuda", "driver"):
        value = getattr(query, kind)
        if value and value == getattr(doc, kind):
            same.append((kind, value))
    return same
