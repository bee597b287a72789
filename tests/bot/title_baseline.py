"""The title-only anchor of issue 18: wow-actions/potential-duplicates' comparison, re-implemented for the eval.

Its algorithm (src/algo.ts, src/dic.ts of that action; default threshold 0.6 in its action.yml): lower-case the
title, replace a few punctuation sequences with a space, map some synonyms, drop common words followed by a
space, split on single spaces; for each word of the shorter title take its best Damerau-Levenshtein similarity
(1 - distance / longer length) to a word of the other title, average, and subtract 0.15 per word the longer
title has more. Issues at or above the threshold are its suggestions; the eval keeps the best three.
"""

from __future__ import annotations

import functools
import re

THRESHOLD = 0.6
MISSING_WORD = 0.15
PUNCTUATION = ("! ", ", ", " - ", " – ", "... ", ".. ", ". ")
SYNONYMS = {
    "app": re.compile("aplication|application|client", re.I),
    "cli": re.compile("console|terminal|shell|command line interface", re.I),
    "null": re.compile("blank|empty|unfilled|nil", re.I),
    "module": re.compile("starter|package", re.I),
}
EXCLUDES = [
    re.compile(rf"\b{word}\s\b")
    for word in ("the", "and", "a", "an", "as", "at", "are", "by", "when", "well", "is", "it", "in", "to", "till",
                 "until", "or", "on", "into", "outo")
]  # fmt: skip


def prepare(title: str) -> list[str]:
    text = title.lower()
    for sequence in PUNCTUATION:
        text = text.replace(sequence, " ")
    for word, pattern in SYNONYMS.items():
        text = pattern.sub(word, text)
    for pattern in EXCLUDES:
        text = pattern.sub("", text)
    return text.split(" ")  # as JavaScript's split(' '): two spaces give an empty word


@functools.cache
def similarity(a: str, b: str) -> float:
    longest = max(len(a), len(b))
    return 1.0 if longest == 0 else (longest - distance(a, b)) / longest


def distance(a: str, b: str) -> int:
    """Damerau-Levenshtein (optimal string alignment), as the action computes it."""
    if a == b:
        return 0
    if not a or not b:
        return len(a) or len(b)
    rows = [[i] + [0] * len(b) for i in range(len(a) + 1)]
    rows[0] = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + cost)
    return rows[len(a)][len(b)]


def compare(first: list[str], second: list[str]) -> float:
    shorter, longer = (first, second) if len(first) <= len(second) else (second, first)
    total = sum(max(similarity(word, other) for other in longer) for word in shorter) / len(shorter)
    return total - (len(longer) - len(shorter)) * MISSING_WORD


def top(title: str, titles: dict[int, str], limit: int, threshold: float = THRESHOLD) -> list[int]:
    """The best `limit` issues (number -> title) whose titles compare at or above the threshold."""
    ours = prepare(title)
    scored = [(score, number) for number, other in titles.items()
              if (score := compare(ours, _prepared(other))) >= threshold]  # fmt: skip
    return [number for _, number in sorted(scored, key=lambda s: (-s[0], s[1]))[:limit]]


@functools.cache
def _prepared(title: str) -> list[str]:
    return prepare(title)
