"""How alike two issues are, and why: a probability that they report one problem, with the evidence.

The pair's signals (`pair.py`) are combined by a logistic regression whose weights and threshold were fitted on
the `tune` split of real duplicate and near-miss pairs (tests/fixtures/duplicates/) and are shipped in
`weights.json`, rebuilt by `python -m tests.bot.dedupe_fit`. Nothing here is set by hand.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from importlib import resources

from bot.insights.dedupe.features import Features
from bot.insights.dedupe.pair import SIGNALS, Match, Query, signals

__all__ = ["Match", "Model", "Similarity", "model", "similarity"]


@dataclass(frozen=True)
class Model:
    weights: dict[str, float]
    bias: float
    threshold: float  # the probability from which a candidate is suggested

    def probability(self, values: dict[str, float]) -> float:
        z = self.bias + sum(self.weights.get(name, 0.0) * value for name, value in values.items())
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


@dataclass(frozen=True)
class Similarity:
    score: float
    matches: list[Match]


def load(text: str) -> Model:
    data = json.loads(text)
    weights = {name: float(data["weights"][name]) for name in SIGNALS}  # a missing signal is an error, not a 0
    return Model(weights, float(data["bias"]), float(data["threshold"]))


@functools.cache
def model() -> Model:
    """The shipped model, read once (on first use, not at import)."""
    return load(resources.files(__package__).joinpath("weights.json").read_text(encoding="utf-8"))


def similarity(query: Query, doc: Features, doc_title: str, doc_norm: float, fitted: Model | None = None
               ) -> Similarity:  # fmt: skip
    values, matches = signals(query, doc, doc_title, doc_norm)
    return Similarity((fitted or model()).probability(values), matches)
