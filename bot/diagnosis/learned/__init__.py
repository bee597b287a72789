"""A learned fallback: the likely category of an issue from its words, for issues no rule decides.

A multinomial logistic regression over the masked words of title and body (words.py), fitted on the corpus's
`tune` split only by `python -m tests.bot.learned_fit`, which writes model.json: the classes (the categories seen
in tune, with "fine"), a bias and a sparse weight list per word, and the abstain threshold that grouped
cross-validation on tune chose for high precision. Inference is plain Python over that file, loaded on first use.

It only ever speaks as a warning with no label: words learned from a few hundred issues are not proof, and a wrong
warning costs more than a missed one. At or above `threshold` (right 9 times in 10 in cross-validation) it names
the category's usual fix; between `hint` (right at least 2 times in 3 on the issues the rules leave undecided) and
`threshold` it says "possibly" and gives only a read-only check that confirms or rules the cause out
(templates/checks/<category>.md.j2), never a command that changes anything. Below `hint`, or where the best guess
is "fine" or the lack of a report, it says nothing.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.diagnosis.findings import CATEGORIES, Finding, ranked, templated
from bot.diagnosis.learned.words import features
from bot.diagnosis.matrix import Index
from collector import templating

MODEL_PATH = Path(__file__).resolve().parent / "model.json"
FORMAT = 1
RULE_ID = "learned_fallback"
# Classes it may learn but never reports: a healthy environment, and an issue whose thread never found a cause.
NOT_A_GUESS = frozenset({"fine", "missing_env_report"})
# Below a prose cue (0.4) and above the ask for a report (0.3): a guess from words the rules did not recognise.
CONFIDENCE = 0.35
HINT_CONFIDENCE = 0.32  # a "possibly": still above the ask, which it does not replace
# A guess needs this many distinct words the model weighs: "help" alone would otherwise get the commonest
# category's prior back as a guess.
MIN_KNOWN_WORDS = 3
EVIDENCE_WORDS = 6


@dataclass(frozen=True)
class Model:
    classes: tuple[str, ...]
    bias: tuple[float, ...]
    weights: dict[str, tuple[tuple[int, float], ...]]  # word -> (class index, weight) for the classes it moves
    threshold: float  # the least probability of a "likely", with the category's fix
    hint: float = 1.0  # the least probability of a "possibly", with a check only (1.0: none below `threshold`)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Model:
        if data.get("format") != FORMAT:
            raise ValueError(f"model format {data.get('format')!r}, expected {FORMAT}")
        classes = tuple(data["classes"])
        unknown = [name for name in classes if name != "fine" and name not in CATEGORIES]
        if unknown or len(data["bias"]) != len(classes):
            raise ValueError(f"model classes do not match the categories: {unknown or 'bias length'}")
        weights = {word: tuple((int(c), float(w)) for c, w in pairs) for word, pairs in data["weights"].items()}
        threshold = float(data["threshold"])
        hint = min(float(data.get("hint", threshold)), threshold)
        return cls(classes, tuple(float(b) for b in data["bias"]), weights, threshold, hint)

    def scores(self, words: Iterable[str]) -> list[float]:
        """Each class's score: its bias plus its weights of the issue's words, scaled by 1/sqrt(word count)."""
        words = list(words)
        scale = 1 / math.sqrt(len(words)) if words else 0.0
        totals = [0.0] * len(self.classes)
        for word in words:
            for index, weight in self.weights.get(word, ()):
                totals[index] += weight
        return [bias + scale * total for bias, total in zip(self.bias, totals, strict=True)]

    def probabilities(self, words: Iterable[str]) -> list[tuple[str, float]]:
        """(class, probability), most likely first; ties in class order."""
        scores = self.scores(words)
        top = max(scores)
        exps = [math.exp(score - top) for score in scores]
        total = sum(exps)
        return sorted(zip(self.classes, (e / total for e in exps), strict=True), key=lambda pair: -pair[1])

    def knows_enough(self, words: Iterable[str]) -> bool:
        """Whether the issue has MIN_KNOWN_WORDS distinct words (title or body) the model weighs."""
        return len({word.removeprefix("t:") for word in words if word in self.weights}) >= MIN_KNOWN_WORDS

    def guess(self, words: frozenset[str], at: float | None = None) -> tuple[str, float] | None:
        """The best class and its probability where it is at least `at` (the "likely" threshold unless given) and
        the issue has words enough to go by."""
        if not self.knows_enough(words):
            return None
        category, probability = self.probabilities(words)[0]
        if category in NOT_A_GUESS or probability < (self.threshold if at is None else at):
            return None
        return category, probability

    def pointing(self, words: Iterable[str], category: str, count: int = EVIDENCE_WORDS) -> list[str]:
        """The issue's words that push most toward `category`, strongest first."""
        index = self.classes.index(category)
        pushes = [(dict(self.weights.get(word, ())).get(index, 0.0), word) for word in words]
        return [word for weight, word in sorted(pushes, key=lambda p: (-p[0], p[1]))[:count] if weight > 0]


@functools.cache
def model() -> Model:
    """The shipped model, read on first use."""
    return Model.from_json(json.loads(MODEL_PATH.read_text(encoding="utf-8")))


def predict(title: str, body: str, using: Model | None = None) -> list[tuple[str, float]]:
    """Every class with its probability, most likely first (including "fine" and "missing_env_report")."""
    return (using or model()).probabilities(features(title, body))


def guess(title: str, body: str, using: Model | None = None) -> tuple[str, float] | None:
    """The likely category and its probability, or None where the model abstains."""
    return (using or model()).guess(features(title, body))


def decided(findings: Sequence[Finding]) -> bool:
    """Whether a rule already names a cause: the first finding that is not a note, unless it only asks for a report."""
    # The rules hand their findings over unranked: the first is the policy's first.
    top = next((f for f in ranked(list(findings)) if f.severity != "info"), None)
    return top is not None and top.category != "missing_env_report"


def fallback_finding(
    title: str, body: str, existing: Sequence[Finding], matrix: Index, using: Model | None = None
) -> Finding | None:
    """A "likely" warning where no rule decides and the model is confident enough; None otherwise."""
    if decided(existing):
        return None
    chosen = using or model()
    words = features(title, body)
    found = chosen.guess(words, at=min(chosen.hint, chosen.threshold))
    if found is None:
        return None
    category, probability = found
    likely = probability >= chosen.threshold
    params = {"summary": CATEGORIES[category], "families": matrix.matrix.families, "likely": likely}
    name = f"findings/{RULE_ID}.md.j2"
    pointing = list(dict.fromkeys(word.removeprefix("t:") for word in chosen.pointing(words, category)))
    evidence = templating.render_block(name, "evidence", words=pointing, percent=round(probability * 100))
    confidence = CONFIDENCE if likely else HINT_CONFIDENCE
    return templated(RULE_ID, category, "warning", [evidence], confidence=confidence, **params)
