"""The floors under duplicate suggestions on real pairs (the figures: `python -m tests.bot.dedupe_eval`).

Each pair is judged in an index of every background issue plus its earlier issue, as the CLI fills one. The
floors are what the shipped model achieves on the locked `test` split, rounded down, as deployed (the near misses
of one repository) and with every near miss; issue 18's target is precision >= 0.9 and recall >= 0.7 there, which
it does not reach (README, "Duplicates").
"""

from __future__ import annotations

import json

import pytest

from bot.insights.dedupe.score import model
from tests.bot import title_baseline
from tests.bot.dedupe_eval import (
    Outcome,
    as_deployed,
    evaluation,
    load_background,
    load_pairs,
    measure,
    sampled,
    suggested,
    total,
)
from tests.bot.dedupe_fit import WEIGHTS

# As deployed: the near misses of one repository (0.85 before the sixth 2026-12-07 refit, 0.75 before the eighth's).
TEST_PRECISION = 0.85
TEST_PRECISION_ALL = 0.6  # with the near misses across repositories too (0.45 before the eighth session's refits)
# 0.33 before the eighth session's refits: the thresholds they chose (0.5428 -> 0.6227 -> 0.6669) trade recall away.
TEST_RECALL = 0.13


@pytest.mark.timeout(900)
def test_precision_and_recall_on_the_locked_test_split() -> None:
    fitted = model()
    judged = evaluation()["test"]
    deployed = as_deployed(judged)
    outcome = measure(deployed, lambda j: suggested(j.candidates, fitted, fitted.threshold))
    assert outcome.duplicates >= 10 and outcome.near_misses >= 30, "the real pairs are the measure; keep them"
    assert outcome.precision >= TEST_PRECISION, outcome
    assert outcome.recall >= TEST_RECALL, outcome
    everything = measure(judged, lambda j: suggested(j.candidates, fitted, fitted.threshold))
    assert everything.precision >= TEST_PRECISION_ALL, everything


def test_the_weights_were_fitted_on_todays_tune_pairs() -> None:
    """weights.json says what it was fitted on; more tune pairs mean `python -m tests.bot.dedupe_fit` again."""
    shipped = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    tune = [pair for pair in load_pairs() if pair.split == "tune"]
    assert shipped["fitted_on"]["duplicate_pairs"] == sum(p.duplicate for p in tune)
    assert shipped["fitted_on"]["near_misses"] == sum(not p.duplicate for p in tune)
    # The error signature weighs, as the same message (`error`) or as one rare in the index (`rare_error`): near misses
    # share their error text by construction, so the fit may leave the plain likeness at 0 once they are many.
    assert 0 < shipped["threshold"] < 1 and shipped["weights"]["error"] + shipped["weights"]["rare_error"] > 0


def test_no_pair_member_is_a_background_issue_and_every_split_has_both_kinds() -> None:
    members = {stem for pair in load_pairs() for stem in (pair.a, pair.b)}
    background = {issue.stem for issue in load_background()}
    assert not members & background and len(background) >= 150
    for split in ("tune", "test"):
        kinds = {pair.duplicate for pair in load_pairs() if pair.split == split}
        assert kinds == {True, False}, split


def test_the_title_baseline_is_the_actions_comparison() -> None:
    """Words of the shorter title matched by Damerau-Levenshtein, 0.15 off per extra word (its own README's
    example pair scores below its 0.6 default)."""
    assert title_baseline.distance("kernel", "kernle") == 1 and title_baseline.distance("abc", "abc") == 0
    ours = title_baseline.prepare("Testing module foo")
    theirs = title_baseline.prepare("Testing if there's not memory leak in module bar")
    assert title_baseline.compare(ours, theirs) < title_baseline.THRESHOLD
    same = title_baseline.prepare("No kernel image is available for execution on the device")
    assert title_baseline.compare(same, same) == 1.0
    titles = {1: "no kernel image available on RTX 5090", 2: "CUDA out of memory", 3: "no kernel image on RTX 5090"}
    assert title_baseline.top("no kernel image on RTX 5090", titles, 3) == [3, 1]


def test_a_young_repositorys_index_is_a_seeded_draw_of_the_background() -> None:
    drawn = sampled(110, 0)
    assert len(drawn) == 110 and drawn == sampled(110, 0) and drawn != sampled(110, 1)
    assert drawn <= set(range(1, len(load_background()) + 1))
    a = Outcome(found=1, duplicates=2, wrong=0, near_misses=3, unjudged=4)
    assert total([a, a]) == Outcome(2, 4, 0, 6, 8) and total([a, a]).recall == a.recall


@pytest.mark.timeout(900)  # the title-only baseline over every pair and the full background: minutes
def test_verbose_lists_tune_pairs_only(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.bot.dedupe_eval import main

    assert main(["-v"]) == 0
    listed = [line for line in capsys.readouterr().out.splitlines() if " <- " in line]
    assert listed and all(line.startswith("tune ") for line in listed)  # a locked split is read only as a whole
