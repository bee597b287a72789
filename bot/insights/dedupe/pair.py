"""What two issues have in common, as numbers a model weighs and as evidence a maintainer can check.

Each signal is a number in [0, 1] (`SIGNALS`, in the order of the weights file): how alike the titles are (by
their rare words and by their characters, which is all a title-only comparison has), the error signature, the
exception type, the innermost frames, the words of the body, the diagnosis, and the environment fingerprint
(agreeing and contradicting). `score.py` combines them with weights fitted on real pairs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from bot.insights.dedupe.features import Features

SIGNALS = (
    "title_words", "title_chars", "error", "exception", "frames", "words", "categories", "category_conflict",
    "same_arch", "same_torch", "same_cuda", "env_conflict", "rare_words", "rare_error", "named", "lines",
)  # fmt: skip
NGRAM = 3
TITLE_CHAR = re.compile(r"[\W_]+")  # any script: a Chinese title has n-grams too
EVIDENCE_TITLE = 0.3  # title-word similarity from which the shared words are shown
EVIDENCE_WORDS = 0.3
RARE = math.log(4)  # a word within this of the rarest idf is in at most ~3 issues of the index
# Rarity needs a tracker to be measured against: an index of a few issues is taken as one of this many.
RARITY_FLOOR = math.log(1 + 100)
RARE_COUNT = 4  # shared rare words that make the signal 1: a project's own names (modules, scripts, models)
IdfOf = Callable[[str], float]
EVIDENCE_ORDER = ("named", "error", "frames", "lines", "title", "arch", "torch", "cuda", "finding", "rare", "words")
LINES_COUNT = 3  # shared uncommon lines that make the signal 1


@dataclass(frozen=True)
class Match:
    """One reason two issues look alike: kind ("title", "error", "frames", "environment", ...) and what matched."""

    kind: str
    detail: str


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


@dataclass(frozen=True)
class Query:
    """The new issue, with what every comparison reuses: its words' vector and its title's character n-grams."""

    features: Features
    words: Vector
    grams: frozenset[str]
    idf: IdfOf
    rarest: float  # the idf of a word (or an error) no other issue has
    error_idf: dict[str, float]  # each of the query's masked errors: how rare it is in the index
    named: frozenset[int] = frozenset()  # the issues the query's text names ("Duplicate of #40")
    lines: frozenset[str] = frozenset()  # the query's lines that few candidates share (not a template's)

    @classmethod
    def of(cls, features: Features, idf: IdfOf, rarest: float, error_idf: dict[str, float]) -> Query:
        rarest = max(rarest, RARITY_FLOOR)
        return cls(features, Vector.of(features.terms, idf), grams(features.title), idf, rarest, error_idf)


def signals(query: Query, doc: Features, doc_title: str, doc_norm: float, doc_number: int | None = None
            ) -> tuple[dict[str, float], list[Match]]:  # fmt: skip
    """The pair's signals by name, and the evidence for the ones that hold."""
    ours, matches = query.features, []
    # Only the new issue naming an earlier one: an earlier text that holds the new number ("code #101") was written
    # before that issue existed.
    named = doc_number in query.named
    if named:
        matches.append(Match("named", f"#{doc_number}"))
    shared_lines = [line for line in doc.lines if line in query.lines]
    if shared_lines:
        matches.append(Match("lines", shared_lines[0]))
    title_words = _title(ours.title_terms, doc.title_terms, query.idf)
    shared_title = sorted(set(ours.title_terms) & set(doc.title_terms), key=lambda t: (-query.idf(t), t))
    if title_words >= EVIDENCE_TITLE and shared_title:
        matches.append(Match("title", ", ".join(shared_title[:6])))
    error, shown, mine = _error_similarity(ours.errors, doc.errors)
    # The same error is weak evidence when half the tracker has it ("CUDA out of memory"), strong when rare.
    rare_error = error * query.error_idf.get(mine, 0.0) / query.rarest if mine else 0.0
    if shown:
        matches.append(Match("error", shown))
    shared_frames = [frame for frame in ours.frames if frame in doc.frames]
    if shared_frames:
        matches.append(Match("frames", ", ".join(shared_frames)))
    words = _cosine(query.words, doc.terms, doc_norm)
    if words >= EVIDENCE_WORDS:
        matches.append(Match("words", f"{words:.2f}"))
    categories = _jaccard(set(ours.categories), set(doc.categories))
    if categories:
        matches.append(Match("finding", ", ".join(sorted(set(ours.categories) & set(doc.categories)))))
    rare = sorted(t for t in ours.terms.keys() & doc.terms.keys() if query.words.idf[t] >= query.rarest - RARE)
    if rare:
        matches.append(Match("rare", ", ".join(rare[:6])))
    same, conflicts = _environment(ours, doc)
    matches += [Match(kind, value) for kind, value in same]
    found = {
        "title_words": title_words,
        "title_chars": _jaccard(query.grams, grams(doc_title.lower())),
        "error": error,
        "exception": 1.0 if set(ours.exceptions) & set(doc.exceptions) else 0.0,
        "frames": len(shared_frames) / min(len(ours.frames), len(doc.frames)) if shared_frames else 0.0,
        "words": words,
        "categories": categories,
        "category_conflict": 1.0 if ours.categories and doc.categories and not categories else 0.0,
        "same_arch": 1.0 if any(kind == "arch" for kind, _ in same) else 0.0,
        "same_torch": 1.0 if any(kind == "torch" for kind, _ in same) else 0.0,
        "same_cuda": 1.0 if any(kind == "cuda" for kind, _ in same) else 0.0,
        "env_conflict": min(1.0, conflicts / 2),
        "rare_words": min(1.0, len(rare) / RARE_COUNT),
        "rare_error": min(1.0, rare_error),
        "named": 1.0 if named else 0.0,
        "lines": min(1.0, len(shared_lines) / LINES_COUNT),
    }
    return found, sorted(matches, key=lambda m: EVIDENCE_ORDER.index(m.kind))


def grams(title: str) -> frozenset[str]:
    text = " " + TITLE_CHAR.sub(" ", title.lower()).strip() + " "
    return frozenset(text[i : i + NGRAM] for i in range(len(text) - NGRAM + 1)) if text.strip() else frozenset()


def _error_similarity(ours: list[str], theirs: list[str]) -> tuple[float, str | None, str | None]:
    """1 for the same masked message, else the best share of words two messages have in common; the message
    shown as evidence (when alike enough), and the query's message that matched."""
    best, shown, matched = 0.0, None, None
    for mine in ours:
        for other in theirs:
            if mine == other:
                return 1.0, mine, mine
            alike = _jaccard(set(mine.split()), set(other.split()))
            if alike > best:
                best, shown, matched = alike, (mine if alike >= 0.6 else None), mine
    return best, shown, matched


def _jaccard(a: set[str] | frozenset[str], b: set[str] | frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _cosine(query: Vector, doc: dict[str, int], doc_norm: float) -> float:
    """Cosine of log-tf x idf vectors: the query's idf is today's, the document's norm is from when it was
    indexed; the drift is clamped (refresh() recomputes stored norms)."""
    if not doc or doc_norm <= 0 or query.norm <= 0:
        return 0.0
    weights, idf = query.weights, query.idf
    dot = sum(weights[t] * (1 + math.log(doc[t])) * idf[t] for t in doc.keys() & weights.keys())
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


def _environment(query: Features, doc: Features) -> tuple[list[tuple[str, str]], int]:
    """What both issues report alike ("arch", "torch" minor, "cuda"), and how many of those they report unalike."""
    same, conflicts = [], 0
    if query.archs and doc.archs:
        shared = sorted(set(query.archs) & set(doc.archs))
        if shared:
            same.append(("arch", ", ".join(shared)))
        else:
            conflicts += 1
    for kind, ours, theirs in (("torch", query.torch, doc.torch), ("cuda", query.cuda, doc.cuda)):
        if ours and theirs:
            if ours.split("+")[0] == theirs.split("+")[0]:
                same.append((kind, ours.split("+")[0]))
            else:
                conflicts += 1
    return same, conflicts
