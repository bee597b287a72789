"""Refit the duplicate model on the `tune` split only: `python -m tests.bot.dedupe_fit` rewrites
bot/insights/dedupe/weights.json (deterministic: the same fixtures give the same file).

Examples come from tune pairs judged in an index of the tune background issues alone (nothing of `test` is
read): a duplicate pair's earlier issue is a positive; a near miss's earlier issue is a negative; every
background issue retrieved for the later issue is a negative too (no tracker is that full of duplicates). A
logistic regression with an L2 penalty is fitted by Newton's method, the classes weighted equally. The threshold
is then chosen on the same tune pairs (top 3): the best F0.5 averaged over bootstrap draws of the pairs, placed in
the middle (in log-odds) of the gap below it, so that a small shift of scores does not cross it. (The target,
precision >= 0.9 at recall >= 0.7, is not a rule that picks a threshold on a few dozen pairs: one right suggestion is
precision 1.0 alone.)
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from pathlib import Path

from bot.diagnosis.matrix import default as default_matrix
from bot.insights.dedupe.pair import SIGNALS
from bot.insights.dedupe.score import Model
from tests.bot.dedupe_eval import Judged, Pair, background_index, judge, load_pairs, measure, suggested

WEIGHTS = Path(__file__).resolve().parents[2] / "bot" / "insights" / "dedupe" / "weights.json"
PENALTY = 0.01  # L2 on the weights (not the bias); the examples' weights sum to 1
ITERATIONS = 50
# What each kind of example weighs in all: the duplicates as much as every negative; among those, the near misses
# (what precision is measured on) four times the background. Chosen on tune among (.5/.25/.25), (.4/.2/.4),
# (.34/.33/.33), (.3/.1/.6) and this one: the best F0.5 on tune (1.00 / 0.29 against 0.64 / 0.41 with .25/.25),
# and the fewest background issues suggested.
SHARES = {"duplicate": 0.5, "near": 0.4, "background": 0.1}
RESAMPLES = 1000  # bootstrap draws of the tune pairs for the threshold
SEED = 18
SIGN = {"category_conflict": -1.0, "env_conflict": -1.0}  # every other signal is agreement: weight >= 0


def examples(judged: list[Judged]) -> list[tuple[list[float], int, str]]:
    """(signals, label, kind): kind "duplicate", "near" (a near miss's earlier issue) or "background"."""
    found = []
    for j in judged:
        for c in j.candidates:
            kind = "background" if c.number != j.a_number else "duplicate" if j.pair.duplicate else "near"
            found.append(([c.signals[name] for name in SIGNALS], int(kind == "duplicate"), kind))
    return found


def fit(data: list[tuple[list[float], int, str]]) -> tuple[list[float], float]:
    """Weights and bias of an L2-penalised logistic regression whose signals keep their sign: agreement never
    counts against a pair, a conflict never for it (a weight that would cross zero is held at zero and the
    rest refitted, one at a time, the worst first)."""
    free = set(range(len(SIGNALS)))
    while True:
        weights, bias = newton(data, free)
        signed = [w * SIGN.get(name, 1.0) for name, w in zip(SIGNALS, weights, strict=True)]
        wrong = [(-value, i) for i, value in enumerate(signed) if value < 0]
        if not wrong:
            return weights, bias
        free.discard(max(wrong)[1])


def newton(data: list[tuple[list[float], int, str]], free: set[int]) -> tuple[list[float], float]:
    """Newton's method over the free signals (the others' weights are 0), the examples weighted by SHARES."""
    kinds = Counter(kind for _, _, kind in data)
    share = SHARES if kinds["near"] else {"duplicate": 0.5, "background": 0.5}
    columns = [*sorted(free), len(SIGNALS)]  # the last is the bias
    data = [([([*x, 1.0])[c] for c in columns], y, kind) for x, y, kind in data]
    size = len(columns)
    beta = [0.0] * size
    for _ in range(ITERATIONS):
        gradient = [0.0] * size
        hessian = [[0.0] * size for _ in range(size)]
        for row, y, kind in data:
            p = 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, sum(b * v for b, v in zip(beta, row, strict=True))))))
            w = share[kind] / kinds[kind]
            for i in range(size):
                gradient[i] += w * (p - y) * row[i]
                for k in range(size):
                    hessian[i][k] += w * p * (1 - p) * row[i] * row[k]
        for i in range(size - 1):
            gradient[i] += PENALTY * beta[i]
            hessian[i][i] += PENALTY
        step = solve(hessian, gradient)
        beta = [b - s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-10:
            break
    weights = [0.0] * len(SIGNALS)
    for column, b in zip(columns[:-1], beta, strict=False):
        weights[column] = b
    return weights, beta[-1]


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the Hessian is small and positive definite)."""
    n = len(vector)
    a = [[*row, v] for row, v in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    out = [0.0] * n
    for r in range(n - 1, -1, -1):
        out[r] = (a[r][n] - sum(a[r][k] * out[k] for k in range(r + 1, n))) / a[r][r]
    return out


def choose_threshold(judged: list[Judged], fitted: Model) -> float:
    """The threshold with the best F0.5 (precision weighs twice recall: a wrong suggestion costs a maintainer more
    than a missed one) averaged over RESAMPLES bootstrap draws of the tune pairs, placed in the middle (in log-odds)
    of the gap below it, so that a small shift of scores does not cross it. On tune's full curve the best F0.5 can
    rest on one or two near misses at the edge; the averaged curve asks how the threshold does on tune-like sets."""
    reached = [reach(j, fitted) for j in judged]
    cuts = sorted({score for score, _ in reached if score > 0.0})
    if not cuts:
        return 0.5
    rng = random.Random(SEED)
    mean = [0.0] * len(cuts)
    for _ in range(RESAMPLES):
        drawn = [reached[rng.randrange(len(reached))] for _ in reached]
        for i, value in enumerate(f05_curve(drawn, cuts)):
            mean[i] += value / RESAMPLES
    best = max(range(len(cuts)), key=lambda i: (round(mean[i], 9), cuts[i]))
    below = cuts[best - 1] if best else cuts[best] / 2
    return round(1.0 / (1.0 + math.exp(-(logit(below) + logit(cuts[best])) / 2)), 4)


def reach(j: Judged, fitted: Model) -> tuple[float, bool]:
    """The highest threshold at which the pair's earlier issue is suggested (0 if it is never among the best three),
    and whether the pair is a duplicate."""
    if j.a_number not in suggested(j.candidates, fitted, 0.0):
        return 0.0, j.pair.duplicate
    return next(fitted.probability(c.signals) for c in j.candidates if c.number == j.a_number), j.pair.duplicate


def f05_curve(reached: list[tuple[float, bool]], cuts: list[float]) -> list[float]:
    """F0.5 of the duplicates found against the near misses suggested, at each threshold in `cuts` (ascending)."""
    duplicates = sum(dup for _, dup in reached)
    hits = sorted((score, dup) for score, dup in reached if score > 0.0)
    found, wrong, below, curve = sum(dup for _, dup in hits), sum(not dup for _, dup in hits), 0, []
    for cut in cuts:
        while below < len(hits) and hits[below][0] < cut:  # no longer suggested from this threshold up
            found, wrong, below = found - hits[below][1], wrong - (not hits[below][1]), below + 1
        p, r = (found / (found + wrong), found / duplicates) if found else (0.0, 0.0)
        curve.append(1.25 * p * r / (0.25 * p + r) if found else 0.0)
    return curve


def fitted_on(tune: list[Pair], data: list[tuple[list[float], int, str]]) -> dict[str, int]:
    """What the weights were fitted on (tests/bot/insights/test_dedupe_eval.py compares it with the fixtures)."""
    return {"duplicate_pairs": sum(p.duplicate for p in tune), "near_misses": sum(not p.duplicate for p in tune),
            "examples": len(data), "positives": sum(y for _, y, _ in data)}  # fmt: skip


def logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def main() -> int:
    matrix = default_matrix()
    tune = [pair for pair in load_pairs() if pair.split == "tune"]
    judged = judge(matrix, background_index(matrix, ["tune"]), tune)
    data = examples(judged)
    weights, bias = fit(data)
    provisional = Model(dict(zip(SIGNALS, weights, strict=True)), bias, 0.5)
    threshold = choose_threshold(judged, provisional)
    fitted = Model(provisional.weights, bias, threshold)
    o = measure(judged, lambda j: suggested(j.candidates, fitted, threshold))
    document = {
        "about": "Duplicate model: logistic regression over bot/insights/dedupe/pair.py SIGNALS, fitted on the tune "
        "split only by `python -m tests.bot.dedupe_fit`; do not edit by hand.",
        "weights": {name: round(w, 6) for name, w in zip(SIGNALS, weights, strict=True)},
        "bias": round(bias, 6),
        "threshold": threshold,
        "fitted_on": fitted_on(tune, data),
        "tune": {
            "precision": round(o.precision, 3),
            "recall": round(o.recall, 3),
            "found": o.found,
            "duplicates": o.duplicates,
            "wrong": o.wrong,
            "near_misses": o.near_misses,
        },
    }
    WEIGHTS.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(document, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
