"""Hostile issue text through every entry point: properties under hypothesis, and the reproducers fuzzing found.

The checks are tests/bot/fuzzing.py's `check`: read_case, diagnose (no rule may fail), triage's comment (at most
60,000 characters, no @mention GitHub would link), digest, dedupe's extract, and the twin readers, which may
refuse only with ReportFormatError. benches/fuzz_bench.py runs the same checks on a million issues.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.diagnosis.matrix import Index
from bot.diagnosis.plan import triage
from bot.diagnosis.readers import read_case
from collector import markdown
from collector.report.model import ReportFormatError, from_json
from collector.report.schema import GPUS, LIBRARY_COPIES, OS, TORCH
from tests.bot import fuzzing
from tests.conftest import fixture_text

# Derandomized: the examples are the same on every run, so a failure here is never a fluke of the seed.
FAST = settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
REPORT = fixture_text("h200-1gpu", "collector.md")
TWIN = json.loads(markdown.twins(REPORT)[-1])
PATHS = list(fuzzing.leaves(TWIN, ()))
pieces = st.one_of(st.sampled_from(fuzzing.FRAGMENTS), st.text(max_size=30), st.sampled_from(fuzzing.seeds()))
hostile = st.lists(pieces, max_size=40).map("".join)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20) | st.sampled_from(fuzzing.FRAGMENTS),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


def _twin(data: Any) -> str:
    return "<!-- envtriage:report " + json.dumps(data).replace("--", "-\\u002d") + " -->"


@FAST
@given(body=hostile, title=st.text(max_size=80))
def test_generated_text(matrix: Index, body: str, title: str) -> None:
    fuzzing.check(matrix, body, title)


@FAST
@given(rng=st.randoms(use_true_random=False), comments=st.lists(hostile, max_size=2))
def test_mutated_real_issues(matrix: Index, rng: random.Random, comments: list[str]) -> None:
    fuzzing.check(matrix, fuzzing.mutated(rng), fuzzing.generated(rng)[:100], comments)


@FAST
@given(at=st.integers(0, len(PATHS) - 1), value=json_values)
def test_twin_with_any_value(matrix: Index, at: int, value: Any) -> None:
    """A well-formed twin holding a wrong value: refused as damaged, or read; the rules never fail on it."""
    data = json.loads(json.dumps(TWIN))
    holder = data
    for key in PATHS[at][:-1]:
        holder = holder[key]
    holder[PATHS[at][-1]] = value
    fuzzing.check(matrix, _twin(data))


@FAST
@given(text=hostile | st.randoms(use_true_random=False).map(lambda rng: fuzzing.twin_value(rng, REPORT)))
def test_twin_readers_refuse_with_their_error(text: str) -> None:
    for read in (markdown.parse, from_json):
        try:
            read(text)
        except ReportFormatError:
            pass


# --- what fuzzing found: each body crashed, failed a rule, pinged someone or took seconds before its fix ------

SLASHES, TABS = "/" * 1500, "\t" * 1500
REPRODUCERS = {
    "twin nested beyond the recursion limit": '<!-- envtriage:report {"a": ' + "[" * 5000 + "} -->",
    "JSON report nested beyond the recursion limit": '{"schema": "envtriage.report/1", "a": ' + "[" * 5000,
    "integer longer than Python reads": _twin({"schema": "envtriage.report/1", "x": 1})[:-6] + "9" * 5000 + "} -->",
    "integer too large for a float": _twin({**TWIN, "meta": {**TWIN["meta"], "duration_seconds": 10**400}}),
    "collect_env torch version that is no version": "PyTorch version: <!--\nIs CUDA available: True",
    "collect_env CUDA that is no version": (
        "PyTorch version: 2.4.0\nCUDA used to build PyTorch: N/A \\\nGPU models and configuration: GPU 0: Tesla K80"
    ),
    "pip freeze line without a version": "torch==2.4.1\ntorchvision @ file:///home/u/vision",
    "twin with unreadable versions": _twin(
        {
            **TWIN,
            "facts": {
                **TWIN["facts"],
                "torch": {**TWIN["facts"]["torch"], "value": {**TWIN["facts"]["torch"]["value"], "version": "x"}},
                "driver": {**TWIN["facts"]["driver"], "value": {"version": "sm_", "cuda_max": "n/a"}},
                "gpus": {**TWIN["facts"]["gpus"], "value": [{"index": 0, "name": "NVIDIA H200", "cc": "#"}]},
            },
        }
    ),
    "`` in a quoted line, and an empty value shown as code": "CUDA_VISIBLE_DEVICES=``a10 @a",
    "pipe in a GPU name shown in the facts table": "PyTorch version: 2.4.1\nGPU models and configuration: @a | H100",
}
# Bodies that took seconds at 64 KB (benches/fuzz_bench.py times them): here, that the rewritten patterns still
# read what they read before.
SLOW_BEFORE = {
    f"## Environmen{TABS}g\tt\n## Versions ##": ("fields", [f"Environmen{TABS}g\tt", "Versions"]),
    "PyTorch version:   2.4.1   \t": ("torch", "2.4.1"),
    "PyTorch version: 2.4.1\nGPU models and configuration: \nGPU 0: NVIDIA H100 (UUID: GPU-1a)  \nGPU 1: A  \t": (
        "gpus",
        ["NVIDIA H100", "A"],
    ),
    "PyTorch version: 2.4.1\nOS: Ubuntu 22.04.4 LTS  (x86_64)": ("os", ("Ubuntu 22.04.4 LTS", "x86_64")),
    f"PyTorch version: 2.4.1\nlibcudnn {SLASHES} /usr/lib/libcudnn_ops.so.8.9.2 /x/libcudnn.so.9": (
        "cudnn",
        ["/usr/lib/libcudnn_ops.so.8.9.2"],
    ),
    "|   0  NVIDIA H200 NVL      On  |   00000000:01:00.0 Off |\nDriver Version: 570.86": ("gpus", ["NVIDIA H200 NVL"]),
    "Found GPU0 NVIDIA GeForce GTX 770 which is of cuda capability 3.0.": ("gpus", ["NVIDIA GeForce GTX 770"]),
    "torch  v2.4.1, python version: 3.10.12, driver is 535.104.05, torchvision ==  0.19.1": (
        "text",
        ("2.4.1", "3.10.12", "535.104.05", "0.19.1"),
    ),
    "<!-- envtriage:report {" * 300: ("twins", []),
}


@pytest.mark.parametrize("body", REPRODUCERS.values(), ids=REPRODUCERS.keys())
def test_reproducer(matrix: Index, body: str) -> None:
    fuzzing.check(matrix, body, "title")


@pytest.mark.parametrize(("body", "expected"), SLOW_BEFORE.items(), ids=[f"{i}" for i in range(len(SLOW_BEFORE))])
def test_rewritten_patterns_read_the_same(matrix: Index, body: str, expected: tuple[str, Any]) -> None:
    case = read_case(matrix, body)
    what, value = expected
    read = {
        "fields": lambda: [field.heading for field in case.fields],
        "torch": lambda: case.report.get(TORCH).version,  # type: ignore[union-attr]
        "gpus": lambda: [gpu.name for gpu in case.report.get(GPUS) or []],
        "os": lambda: (case.report.get(OS).distro, case.report.get(OS).machine),  # type: ignore[union-attr]
        "cudnn": lambda: [copy.path for copy in case.report.get(LIBRARY_COPIES) or []],
        "text": lambda: tuple(
            fact.value.version if hasattr(fact.value, "version") else fact.value.selected[0].version
            for fact in (case.report.facts[name] for name in ("torch", "python", "driver", "packages"))
        ),
        "twins": lambda: markdown.twins(body),
    }
    assert read[what]() == value


def test_damaged_twins_are_reported_not_raised(matrix: Index) -> None:
    assert read_case(matrix, REPRODUCERS["twin nested beyond the recursion limit"]).damaged_report
    with pytest.raises(ReportFormatError, match="damaged"):
        markdown.parse(REPRODUCERS["integer longer than Python reads"])
    with pytest.raises(ReportFormatError, match="too large"):
        markdown.parse(REPRODUCERS["integer too large for a float"])


def test_the_mention_model_sees_what_github_links() -> None:
    """The checker itself: code spans close on a run of equal length, table cells split at pipes."""
    assert fuzzing.live_mentions("hi @octocat") == ["@o"]
    assert fuzzing.live_mentions("`@octocat` and ``a ` @b`` and @\u200bc, a@b.c") == []
    assert fuzzing.live_mentions("``a`` @b ``") == ["@b"]
    assert fuzzing.live_mentions("| `@a | b` |") == ["@a"]
    assert fuzzing.live_mentions("```\n@a\n```\n~~~~\n@b") == []
    assert fuzzing.live_mentions("\\`@a`") == ["@a"]


# Found by fuzzing an earlier `inert`, which took a "``" in prose for the opening of a code span that some later
# "``" closed, so user text a template put outside code kept its @mention live.
ONCE_LIVE_MENTIONS = {
    # A key of a wrong-typed value: named in the "cannot be read" answer (an unknown fact is skipped, not damage).
    "damaged report key": (
        '{"schema": "envtriage.report/1", "facts": {"env": {"value": {"`` @octocat": 5}, "source": "x"}}}'
    ),
    "GPU name in a finding title": (
        "PyTorch version: 2.4.1+cu121\nCUDA used to build PyTorch: 12.1\n"
        "GPU models and configuration: GPU 0: NVIDIA GeForce RTX 5090 `` @octocat\nNvidia driver version: 570.86"
    ),
    "package versions in a finding's fix": "PyTorch version:\n[pip] torch==``\n[pip] torch==@octocat",
}


@pytest.mark.parametrize("body", ONCE_LIVE_MENTIONS.values(), ids=ONCE_LIVE_MENTIONS.keys())
def test_once_live_mention(matrix: Index, body: str) -> None:
    comment = triage(matrix, body).comment or ""
    assert "octocat" in comment and fuzzing.live_mentions(comment) == []
