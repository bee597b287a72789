"""Duplicate suggestions measured on real issues: confirmed duplicate pairs, near misses, and everything else.

All fixture issues (tests/fixtures/duplicates/issues and the diagnosis corpus) go into ONE index, as if they
were one repository: near misses from different repositories then compete too, which is harder than real use.
Every issue is asked for its duplicates (at most 3, above the threshold), and the suggested pairs are judged on
the pairs whose truth is known: positives are the confirmed duplicate pairs (joined transitively into clusters);
negatives are the near-miss pairs (same error, different cause) and every pair of corpus issues whose threads
established different causes. Pairs of unknown truth (two issues with the same cause in different repositories)
are not counted either way; how many suggestions fell there is printed. Precision = suggested positives /
suggested known pairs; recall = suggested positives / positives.

`python -m tests.bot.dedupe_eval` prints precision and recall over a range of thresholds and at the chosen one;
tests/bot/insights/test_dedupe_eval.py holds the floor.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
import yaml

from bot.diagnosis.matrix import Index
from bot.diagnosis.matrix import default as default_matrix
from bot.diagnosis.readers import read_case
from bot.diagnosis.rules import diagnose
from bot.insights.dedupe import DuplicateIndex, Features, extract
from bot.insights.dedupe.index import Candidate
from bot.insights.dedupe.score import THRESHOLD

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DUPLICATES = FIXTURES / "duplicates"
CORPUS = FIXTURES / "issues" / "real"
POOL = "pool/all"


@dataclass(frozen=True)
class Issue:
    stem: str
    title: str
    body: str
    cause: str | None  # the diagnosis corpus's established cause; None for the duplicate fixtures


@dataclass(frozen=True)
class Outcome:
    threshold: float
    positives_suggested: int
    positives: int
    negatives_suggested: int
    near_misses_suggested: int
    unknown_suggested: int

    @property
    def precision(self) -> float:
        judged = self.positives_suggested + self.negatives_suggested
        return self.positives_suggested / judged if judged else 1.0

    @property
    def recall(self) -> float:
        return self.positives_suggested / self.positives if self.positives else 0.0


def load_issues() -> list[Issue]:
    found: dict[str, Issue] = {}
    for path in sorted(DUPLICATES.glob("issues/*.yaml")) + sorted(CORPUS.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        found.setdefault(path.stem, Issue(path.stem, str(data["title"]), str(data.get("body") or ""),
                                          data.get("category")))  # fmt: skip
    return list(found.values())


def load_pairs() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    data = yaml.safe_load((DUPLICATES / "pairs.yaml").read_text(encoding="utf-8"))
    duplicates = [(p["a"], p["b"]) for p in data.get("duplicates") or []]
    near = [(p["a"], p["b"]) for p in data.get("near_misses") or []]
    return duplicates, near


def clusters(pairs: list[tuple[str, str]]) -> dict[str, int]:
    """Union-find over the confirmed pairs: stem -> cluster id."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for a, b in pairs:
        parent[root(a)] = root(b)
    roots = {root(x) for x in parent}
    ids = {r: n for n, r in enumerate(sorted(roots))}
    return {x: ids[root(x)] for x in parent}


def features_of(issue: Issue, matrix: Index) -> Features:
    case = read_case(matrix, issue.body, issue.title, [])
    return extract(case, diagnose(case, matrix), matrix, issue.body)


def place(issue: Issue, serial: int, pooled: bool) -> tuple[str, int]:
    """Where an issue goes in the index: its own repository and number, or everything in one pool."""
    owner, repo, number = issue.stem.rsplit("__", 2)
    return (POOL, serial) if pooled else (f"{owner}/{repo}", int(number))


def build(matrix: Index, pooled: bool = False) -> tuple[DuplicateIndex, list[Issue], dict[str, Features]]:
    index = DuplicateIndex(sa.create_engine("sqlite://"))
    index.create()
    issues = load_issues()
    features = {issue.stem: features_of(issue, matrix) for issue in issues}
    for serial, issue in enumerate(issues, start=1):
        repo, number = place(issue, serial, pooled)
        index.record(repo, number, issue.title, "open", features[issue.stem])
    for repo in {place(issue, 0, pooled)[0] for issue in issues}:
        index.refresh(repo)
    return index, issues, features


def suggestions(index: DuplicateIndex, issues: list[Issue], features: dict[str, Features], pooled: bool = False
                ) -> dict[str, list[tuple[str, float]]]:  # fmt: skip
    """Every issue's candidates at threshold 0 (the sweep cuts them), best first. Per repository, as deployed:
    an issue is offered the earlier issues of its repository; pooled: every other issue."""
    stems = {place(issue, serial, pooled): issue.stem for serial, issue in enumerate(issues, start=1)}
    found: dict[str, list[tuple[str, float]]] = {}
    for serial, issue in enumerate(issues, start=1):
        repo, number = place(issue, serial, pooled)
        before, exclude = (None, number) if pooled else (number, None)
        candidates: list[Candidate] = index.similar(repo, features[issue.stem], before=before, exclude=exclude,
                                                    threshold=0.0, limit=50)  # fmt: skip
        ranked = sorted(candidates, key=lambda c: -c.similarity.score)
        found[issue.stem] = [(stems[repo, c.number], c.similarity.score) for c in ranked]
    return found


def measure(found: dict[str, list[tuple[str, float]]], causes: dict[str, str | None], threshold: float,
            limit: int = 3) -> Outcome:  # fmt: skip
    duplicates, near = load_pairs()
    cluster = clusters(duplicates)
    near_set = {frozenset(p) for p in near}
    suggested = {
        frozenset((query, stem))
        for query, candidates in found.items()
        for stem, _ in [(s, score) for s, score in candidates if score >= threshold][:limit]
    }
    members: dict[int, list[str]] = {}
    for stem, cid in cluster.items():
        members.setdefault(cid, []).append(stem)
    positives = {frozenset((x, y)) for group in members.values() for x in group for y in group if x < y}
    negatives, unknown = 0, 0
    for pair in suggested:
        a, b = sorted(pair)
        if pair in positives:
            continue  # right: listed, or joined through a third issue (A dup of B, C dup of B)
        if pair in near_set or (causes.get(a) and causes.get(b) and causes[a] != causes[b]):
            negatives += 1
        else:
            unknown += 1
    found_positives = len(positives & suggested)
    return Outcome(threshold, found_positives, len(positives), negatives, len(near_set & suggested), unknown)


def sweep(found: dict[str, list[tuple[str, float]]], causes: dict[str, str | None]) -> None:
    print("threshold  precision  recall  duplicates  wrong (near misses)  unjudged")
    for step in range(30, 95, 5):
        o = measure(found, causes, step / 100)
        mark = "  <- chosen" if abs(o.threshold - THRESHOLD) < 1e-9 else ""
        found_of = f"{o.positives_suggested:4d}/{o.positives:<5d}"
        wrong = f"{o.negatives_suggested:5d} ({o.near_misses_suggested:3d})"
        print(
            f"{o.threshold:9.2f}  {o.precision:9.2f}  {o.recall:6.2f}  {found_of}  {wrong}"
            f"        {o.unknown_suggested:8d}{mark}"
        )


def main() -> int:
    matrix = default_matrix()
    duplicates, near = load_pairs()
    for pooled in (False, True):
        index, issues, features = build(matrix, pooled)
        found = suggestions(index, issues, features, pooled)
        causes = {issue.stem: issue.cause for issue in issues}
        where = "all issues in ONE index (harder than use)" if pooled else "each repository's own index (as deployed)"
        print(f"\n{len(issues)} issues, {len(duplicates)} duplicate pairs, {len(near)} near-miss pairs; {where}")
        sweep(found, causes)
        if "-v" in sys.argv:
            for a, b in duplicates:
                score = next((s for stem, s in found[b] if stem == a), 0.0)
                print(f"pair {a} <- {b}: {score:.2f}; top: {[(s, round(v, 2)) for s, v in found[b][:2]]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
