"""The learned fallback (bot/diagnosis/learned): its features, its shipped model, and when it speaks.

Real issue text only: the corpus's tune split (the model's own training set, and the same issues held out by
repository), never the locked test split.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from bot.diagnosis.findings import CATEGORIES, Finding, templated
from bot.diagnosis.learned import FORMAT, MODEL_PATH, NOT_A_GUESS, Model, fallback_finding, guess, model, predict
from bot.diagnosis.learned.words import features, tokens
from bot.diagnosis.matrix import Index
from bot.diagnosis.matrix import default as default_matrix
from tests.bot import learned_fit
from tests.bot.corpus import Issue, load

# Words a synthetic model knows without their moving any class: a guess needs a few known words to go by.
NEUTRAL: dict[str, tuple[tuple[int, float], ...]] = {word: ((1, 0.0),) for word in ("nvidia", "cuda", "gpu")}

# Clearly worded tune issues, each with little or no error text.
CLEAR = {
    "https://github.com/negativo17/nvidia-driver/issues/39": "driver_not_loaded",
    "https://github.com/pytorch/pytorch/issues/16712": "gpu_too_old_for_cuda",
    "https://github.com/SortAnon/ControllableTalkNet/issues/31": "container_runtime",
}


@pytest.fixture(scope="module")
def tune() -> list[Issue]:
    return load("tune")


@pytest.fixture(scope="module")
def fresh(tune: list[Issue]) -> dict[str, Any]:
    return learned_fit.fit(tune)


@pytest.fixture(scope="module")
def committed() -> dict[str, Any]:
    return dict(json.loads(MODEL_PATH.read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def matrix() -> Index:
    return default_matrix()


def by_url(issues: list[Issue], url: str) -> Issue:
    return next(issue for issue in issues if issue.url == url)


def test_masks_numbers_versions_paths_and_hex() -> None:
    words = tokens(
        "CUDA 12.4 with torch 2.5.1+cu124, from /usr/lib/x86_64-linux-gnu/libcuda.so.1 and "
        "C:\\Users\\me\\venv\\Lib\\site-packages\\torch at 0x7f3a2b on sm_86 (a1b2c3d4e5f6)"
    )
    assert words.count("_ver_") == 2 and "_path_" in words and "_winpath_" in words and "_hex_" in words
    assert "cu0" in words and "sm_0" in words
    assert not any(ch.isdigit() and ch != "0" for word in words for ch in word)
    assert "usr" not in words and "users" not in words


def test_features_mark_the_title() -> None:
    found = features("Driver too old", "the nvidia driver")
    assert {"t:driver", "t:old", "driver", "nvidia"} <= found and "t:nvidia" not in found


def test_fitting_twice_gives_the_same_file(tune: list[Issue], fresh: dict[str, Any]) -> None:
    assert learned_fit.dumps(learned_fit.fit(tune)) == learned_fit.dumps(fresh)


def test_committed_model_is_a_fresh_fit_of_tune(fresh: dict[str, Any], committed: dict[str, Any]) -> None:
    """Rebuild with `python -m tests.bot.learned_fit` when this fails (features, tune or the fit changed)."""
    for key in ("format", "classes", "bias", "weights"):
        assert committed[key] == fresh[key], key
    assert committed["format"] == FORMAT and "fine" in committed["classes"]


def test_committed_threshold_is_the_one_its_calibration_chose(committed: dict[str, Any]) -> None:
    calibration = committed["calibration"]
    table = {float(t): row for t, row in calibration["by_threshold"].items()}
    every = {t: row["all_tune"] for t, row in table.items()}
    undecided = {t: row["undecided"] for t, row in table.items()}
    assert committed["threshold"] == calibration["threshold"] == learned_fit.choose(every, undecided)
    assert learned_fit.FLOOR <= committed["threshold"] <= learned_fit.NEVER
    chosen = calibration["all_tune"]
    assert chosen["guesses"] and chosen["right"] >= learned_fit.TARGET_PRECISION * chosen["guesses"]


def test_committed_hint_is_the_one_its_calibration_chose(committed: dict[str, Any]) -> None:
    calibration = committed["calibration"]
    table = {float(t): row for t, row in calibration["by_threshold"].items()}
    undecided = {t: row["undecided"] for t, row in table.items()}
    hint = learned_fit.choose_hint(undecided, committed["threshold"])
    assert committed["hint"] == calibration["hint"] == hint <= committed["threshold"]
    hinted = calibration["undecided_at_hint"]
    if hint < committed["threshold"]:
        assert hinted["guesses"] >= learned_fit.MIN_UNDECIDED
        assert hinted["right"] >= learned_fit.HINT_PRECISION * hinted["guesses"]


def test_the_file_is_small_and_json() -> None:
    assert MODEL_PATH.stat().st_size < 1_000_000  # read once, on first use: ~75 ms
    assert MODEL_PATH.read_text(encoding="utf-8").endswith("}\n")


def test_nothing_is_read_at_import() -> None:
    code = "import bot.diagnosis.learned as m; print(m.model.cache_info().currsize)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.strip() == "0"


@pytest.mark.parametrize(("title", "body"), [("", ""), ("help", "help"), ("Help!", "It does not work. Please help.")])
def test_abstains_on_nothing_to_go_by(title: str, body: str, matrix: Index) -> None:
    assert guess(title, body) is None
    assert fallback_finding(title, body, [], matrix) is None


@pytest.mark.parametrize("url", sorted(CLEAR))
def test_guesses_clearly_worded_tune_issues(url: str, tune: list[Issue], matrix: Index) -> None:
    issue = by_url(tune, url)
    assert issue.category == CLEAR[url]
    assert guess(issue.title, issue.body) == (CLEAR[url], pytest.approx(predict(issue.title, issue.body)[0][1]))
    found = fallback_finding(issue.title, issue.body, [], matrix)
    assert found is not None and found.category == CLEAR[url] and found.severity == "warning"
    assert found.title.startswith("Likely:") and found.id == "learned_fallback"
    assert "model probability" in found.evidence[0]


@pytest.mark.parametrize("url", sorted(CLEAR)[:2])
def test_guesses_them_held_out_by_repository(url: str, tune: list[Issue]) -> None:
    issue = by_url(tune, url)
    held_out = Model.from_json(learned_fit.fit([other for other in tune if other.repo != issue.repo]))
    assert held_out.probabilities(features(issue.title, issue.body))[0][0] == issue.category


def test_says_nothing_where_a_rule_decides(tune: list[Issue], matrix: Index) -> None:
    issue = by_url(tune, sorted(CLEAR)[0])
    decided = templated("known_error", "oom_or_memory", "warning", ["x"], confidence=0.5, summary="s", quote="q",
                        signature=None, have_report=False, families=matrix.matrix.families)  # fmt: skip
    asking = templated("missing_env_report", "missing_env_report", "warning", ["none"], confidence=0.3, damaged="",
                       has_error=False)  # fmt: skip
    note = Finding("note", None, "info", "a note", "nothing", ["x"])
    assert fallback_finding(issue.title, issue.body, [decided], matrix) is None
    assert fallback_finding(issue.title, issue.body, [note, asking], matrix) is not None
    # The rules hand their findings over in rule order, not ranked: a cause after the ask still decides.
    assert fallback_finding(issue.title, issue.body, [note, asking, decided], matrix) is None


@pytest.mark.parametrize("category", sorted(set(CATEGORIES) - NOT_A_GUESS))
def test_every_category_is_worded_as_a_likely_warning(category: str, matrix: Index) -> None:
    classes = ("fine", category)
    sure = Model(classes, (0.0, 5.0), {**NEUTRAL, "nvidia": ((1, 3.0),)}, threshold=0.5)
    found = fallback_finding("x", "nvidia cuda gpu", [], matrix, using=sure)
    assert found is not None and found.category == category and found.severity == "warning"
    assert found.title.startswith("Likely:") and "words like nvidia" in found.evidence[0]
    assert found.confidence < 0.4  # below a prose cue's


@pytest.mark.parametrize("category", sorted(set(CATEGORIES) - NOT_A_GUESS))
def test_below_the_threshold_a_possibly_gives_a_check_and_no_fix(category: str, matrix: Index) -> None:
    unsure = Model(("fine", category), (0.0, 0.6), NEUTRAL, threshold=0.9, hint=0.5)  # p = 0.646
    found = fallback_finding("x", "nvidia cuda gpu", [], matrix, using=unsure)
    assert found is not None and found.category == category and found.severity == "warning"
    assert found.title.startswith("Possibly:") and "to check it:" in found.fix
    assert not any(word in found.fix for word in ("pip install", "pip uninstall", "apt", "--index-url"))
    sure = Model(unsure.classes, unsure.bias, NEUTRAL, threshold=0.6)
    likely = fallback_finding("x", "nvidia cuda gpu", [], matrix, using=sure)
    assert likely is not None and likely.confidence > found.confidence > 0.3  # both above the ask


def test_below_the_hint_it_says_nothing(matrix: Index) -> None:
    unsure = Model(("fine", "driver_too_old"), (0.0, 0.6), NEUTRAL, threshold=0.9, hint=0.7)
    assert fallback_finding("x", "nvidia cuda gpu", [], matrix, using=unsure) is None


def test_a_word_or_two_is_nothing_to_go_by(matrix: Index) -> None:
    # The class prior alone (the commonest category) would otherwise come back as a guess for "help".
    sure = Model(("fine", "cpu_only_wheel"), (0.0, 5.0), NEUTRAL, threshold=0.5)
    assert fallback_finding("help", "nvidia cuda", [], matrix, using=sure) is None
    assert fallback_finding("help", "nvidia cuda gpu", [], matrix, using=sure) is not None


def test_never_guesses_fine_or_a_missing_report(matrix: Index) -> None:
    for name in sorted(NOT_A_GUESS):
        sure = Model(("driver_too_old", name), (0.0, 9.0), {}, threshold=0.5)
        assert sure.guess(frozenset({"x"})) is None
        assert fallback_finding("x", "y", [], matrix, using=sure) is None


def test_every_guess_of_the_shipped_model_is_a_warning(tune: list[Issue], matrix: Index) -> None:
    assert model().threshold >= learned_fit.FLOOR
    found = [fallback_finding(issue.title, issue.body, [], matrix) for issue in tune]
    made = [f for f in found if f is not None]
    assert made and all(f.severity == "warning" and f.category not in NOT_A_GUESS for f in made)


def test_a_package_listing_row_is_not_words_the_fallback_reads() -> None:
    listing = "[pip3] nvidia-cublas-cu12==12.4.5.8\nnvidia-nvjitlink-cu12   12.4.127\nlibcublas  12.1.0  h8a1eda9_0"
    words = features("", listing + "\nthe cublas library fails to load")
    assert "nvjitlink" not in " ".join(words) and "cublas" in words and "fails" in words
