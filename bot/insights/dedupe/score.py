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

from bot.insights.dedupe.features import Features

THRESHOLD = 0.5
WEIGHTS = {"error": 0.35, "frames": 0.1, "words": 0.3, "title": 0.2, "categories": 0.15}
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


@dataclass(frozen=True)
class Vector:
    """An issue's words as log-tf x idf weights, with their norm (and each word's idf, for the other side)."""

    weights: dict[str, float]
    idf: dict[str, float]
    norm: float

    @classmethod
    def of(cls, terms: dict[str, int], idf: IdfOf) -> Vector:
        idfs = {term: idf(term) for term in terms}
        weights = {term: (1 + math.log(count)) * idfs[term] for term, count in terms.items()}
        return cls(weights, idfs, math.sqrt(sum(w * w for w in weights.values())))


def similarity(query: Features, words_of_query: Vector, doc: Features, doc_norm: float, idf: IdfOf) -> Similarity:
    """`words_of_query` is computed once per query; `doc_norm` was stored when the document was indexed."""
    matches: list[Match] = []
    error, shared_error = _error_similarity(query.errors, doc.errors)
    if shared_error:
        matches.append(Match("error", shared_error))
    shared_frames = [frame for frame in query.frames if frame in doc.frames]
    frames = len(shared_frames) / min(len(query.frames), len(doc.frames)) if shared_frames else 0.0
    if shared_frames:
        matches.append(Match("frames", ", ".join(shared_frames)))
    words = _cosine(words_of_query, doc.terms, doc_norm)
    title = _title(query.title_terms, doc.title_terms, idf)
    if title >= 0.5:
        matches.append(Match("title", ", ".join(sorted(set(query.title_terms) & set(doc.title_terms)))))
    categories, conflict = _categories(query.categories, doc.categories)
    if categories:
        matches.append(Match("finding", ", ".join(sorted(set(query.categories) & set(doc.categories)))))
    score = (
        WEIGHTS["error"] * error
        + WEIGHTS["frames"] * frames
        + WEIGHTS["words"] * words
        + WEIGHTS["title"] * title
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


def _cosine(query: Vector, doc: dict[str, int], doc_norm: float) -> float:
    """Cosine of log-tf x idf vectors: the query's idf is today's, the document's norm is from when it was
    indexed; the drift is clamped (refresh() recomputes stored norms)."""
    if not doc or doc_norm <= 0 or query.norm <= 0:
        return 0.0
    dot = sum(query.weights[t] * (1 + math.log(n)) * query.idf[t] for t, n in doc.items() if t in query.weights)
    return min(1.0, dot / (query.norm * doc_norm))


def _title(ours: list[str], theirs: list[str], idf: IdfOf) -> float:
    """Cosine of the titles' word sets, each word weighted by its idf."""
    if not ours or not theirs:
        return 0.0
    weight = {term: idf(term) ** 2 for term in {*ours, *theirs}}
    shared = sum(weight[t] for t in set(ours) & set(theirs))
    return shared / math.sqrt(sum(weight[t] for t in set(ours)) * sum(weight[t] for t in set(theirs)))


def norm(terms: dict[str, int], idf: IdfOf) -> float:
    return Vector.of(terms, idf).norm


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
