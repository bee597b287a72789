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
# tune: with the shipped fallback (in-sample); 0.89 -> 0.87 over the sixth 2026-12-07 session's 194 new issues, 0.87 ->
# 0.86 over the seventh's 71 (86.95 %: the model keeps 4,000 words for more issues and remembers fewer of them).
# test: 0.82 -> 0.81 then: each refit of the fallback on a grown tune split moves its "possibly" threshold and, with
# it, two or three test cases either way (280-282 of 342 within that session); the floor sits below that swing.
FLOORS = {"tune": (0.86, 0.05), "test": (0.81, 0.10)}


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


# A cue that speaks as a specific cause (not `weak`) must be right this often where it fires in `tune`; a broader one
# is marked weak, so that any specific cue of another category outranks it ("--gpus all" is named in as many
# driver and CPU-build issues as in container ones).
SPECIFIC_CUE_PRECISION = 0.6
MEASURED_FROM = 5  # firings: fewer say nothing about a cue's precision


def test_specific_cues_are_precise_on_tune() -> None:
    from bot.diagnosis.matrix import default
    from bot.diagnosis.readers import read_case

    matrix = default()
    fired: dict[str, list[bool]] = {}
    for issue in load("tune"):
        case = read_case(matrix, issue.body, issue.title)
        for cue in matrix.matrix.cues:
            if cue.id in case.cues and not (cue.weak or cue.symptom or cue.context_only):  # context: no finding
                fired.setdefault(cue.id, []).append(issue.category == cue.category or cue.category in issue.also)
    loose = {cue: f"{sum(hits)}/{len(hits)}" for cue, hits in fired.items()
             if len(hits) >= MEASURED_FROM and sum(hits) < SPECIFIC_CUE_PRECISION * len(hits)}  # fmt: skip
    assert not loose, f"specific cues right less than {SPECIFIC_CUE_PRECISION:.0%} of the time in tune: {loose}"
