"""The real-issue corpus (tests/fixtures/issues/real) and the evaluation of the engine on it.

The corpus is split by repository (tests/fixtures/issues/split.yaml): rules are tuned on `tune` only; `test` is
locked. `python -m tests.bot.corpus --split tune` prints the per-category table and every miss;
`--split test` prints the same table without the misses, since a locked set is run only as a whole and its
misses are never read one by one to patch them. tests/bot/diagnosis/test_corpus.py holds the floors.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import yaml

from bot.diagnosis.findings import Finding
from bot.diagnosis.matrix import Index
from bot.diagnosis.matrix import default as default_matrix
from bot.diagnosis.plan import triage

ISSUES = Path(__file__).resolve().parents[1] / "fixtures" / "issues"
CORPUS = ISSUES / "real"
SPLIT = ISSUES / "split.yaml"
SPLITS = ("tune", "test")


@dataclass(frozen=True)
class Issue:
    url: str
    title: str
    body: str
    category: str  # the cause the thread established, or "fine"
    also: tuple[str, ...]
    repo: str = ""
    split: str = "tune"


def test_repositories() -> frozenset[str]:
    if not SPLIT.exists():
        return frozenset()
    data = yaml.safe_load(SPLIT.read_text(encoding="utf-8")) or {}
    return frozenset(name.lower() for name in data.get("test_repositories") or ())


def load(split: str | None = None) -> list[Issue]:
    """The corpus, or one split of it (None: all)."""
    locked = test_repositories()
    issues = []
    for path in sorted(CORPUS.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        repo = data.get("repo") or "/".join(data["url"].split("/")[3:5])
        issue = Issue(
            data["url"],
            data["title"],
            data["body"] or "",
            data["category"],
            tuple(data.get("also") or ()),
            repo,
            "test" if repo.lower() in locked else "tune",
        )
        if split is None or issue.split == split:
            issues.append(issue)
    return issues


def top(findings: list[Finding]) -> Finding | None:
    return next((f for f in findings if f.severity != "info"), None)


@dataclass(frozen=True)
class Result:
    issue: Issue
    findings: list[Finding]

    @property
    def top_category(self) -> str | None:
        found = top(self.findings)
        return found.category if found else None

    @property
    def correct(self) -> bool:
        return self.top_category == self.issue.category

    @property
    def false_positive(self) -> bool:
        return self.issue.category == "fine" and any(f.severity == "error" for f in self.findings)


def evaluate(matrix: Index | None = None, split: str | None = None) -> list[Result]:
    matrix = matrix or default_matrix()
    return [Result(issue, triage(matrix, issue.body, issue.title).findings) for issue in load(split)]


def summary(results: list[Result]) -> dict[str, float]:
    env = [r for r in results if r.issue.category != "fine"]
    fine = [r for r in results if r.issue.category == "fine"]
    return {
        "environment_cases": len(env),
        "top_correct": sum(r.correct for r in env) / len(env),
        "fine_cases": len(fine),
        "false_positive_rate": sum(r.false_positive for r in fine) / len(fine),
    }


def report(results: list[Result], *, misses: bool = True) -> str:
    by_category: dict[str, list[Result]] = defaultdict(list)
    for result in results:
        by_category[result.issue.category].append(result)
    lines = [f"{'category':26s} {'cases':>5s} {'top right':>9s}"]
    for category in sorted(by_category):
        rows = by_category[category]
        if category == "fine":
            wrong = sum(r.false_positive for r in rows)
            lines.append(f"{category:26s} {len(rows):5d} {len(rows) - wrong:9d}  (no error finding)")
        else:
            lines.append(f"{category:26s} {len(rows):5d} {sum(r.correct for r in rows):9d}")
    numbers = summary(results)
    lines.append(
        f"top finding right in {numbers['top_correct']:.1%} of {numbers['environment_cases']:.0f} environment cases; "
        f"false-positive rate {numbers['false_positive_rate']:.1%} on {numbers['fine_cases']:.0f} fine cases"
    )
    repos = len({r.issue.repo for r in results})
    lines.append(f"{len(results)} issues from {repos} repositories")
    if misses:
        for r in results:
            if (r.issue.category != "fine" and not r.correct) or r.false_positive:
                lines.append(f"  miss: {r.issue.url}  expected {r.issue.category}, got {r.top_category}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.corpus", description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=[*SPLITS, "all"], default="tune", help="which split to run (default tune)")
    args = parser.parse_args(argv)
    split = None if args.split == "all" else args.split
    sys.stdout.write(report(evaluate(split=split), misses=split == "tune") + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
