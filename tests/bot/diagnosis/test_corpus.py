"""The engine on real GitHub issues whose threads established the cause (tests/fixtures/issues/real).

The floors are what the engine holds today on each split, so a change that makes it worse fails here; issue 17's
targets (test: >= 90 % right category first, <= 10 % of fine environments with an error) are not reached yet and
README says so. The locked split's failure message carries its figures only, never its misses.
"""

from __future__ import annotations

import pytest

from tests.bot import corpus_split
from tests.bot.corpus import evaluate, load, report, summary

# (split, right category first at least, false errors on fine environments at most)
FLOORS = {"tune": (0.92, 0.05), "test": (0.79, 0.10)}  # tune: with the shipped fallback (in-sample)


def test_the_corpus_is_split_by_repository() -> None:
    tune, test = load("tune"), load("test")
    assert len(test) >= 100 and len({i.repo for i in test}) >= 30
    assert not {i.repo for i in tune} & {i.repo for i in test}
    assert sum(i.category == "fine" for i in tune + test) >= 25


@pytest.mark.parametrize("split", FLOORS)
def test_floor_on_real_issues(split: str) -> None:
    results = evaluate(split=split)
    numbers = summary(results)
    right, false_errors = FLOORS[split]
    shown = report(results, misses=split == "tune")
    assert numbers["top_correct"] >= right, shown
    assert numbers["false_positive_rate"] <= false_errors, shown


def test_every_file_has_its_split() -> None:
    """A file added without regenerating split.yaml would land in `tune` by default, a test case seen."""
    assert corpus_split.main(["--check"]) == 0
