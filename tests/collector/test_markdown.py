"""The Markdown report and its twin: round trip, escaping, size cap, and the reader's errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from collector import markdown
from collector.report.model import Fact, Meta, Missing, Report, ReportFormatError, from_json, to_json
from collector.report.schema import ENV, GPUS, KEYS, PACKAGES, TORCH, Gpu, Package, Packages, TorchInfo

finite = st.floats(allow_nan=False, allow_infinity=False, width=32)
text = st.text(max_size=40)


def values_of(tp: Any) -> st.SearchStrategy[Any]:
    with st_overrides():
        return st.from_type(tp)


class st_overrides:
    """JSON has no NaN and no lone surrogates; keep generated values inside what a twin can carry."""

    def __enter__(self) -> None:
        st.register_type_strategy(float, finite)
        st.register_type_strategy(str, text)

    def __exit__(self, *exc: object) -> None:
        st.register_type_strategy(float, finite)


missing = st.builds(
    Missing,
    reason=text,
    status=st.sampled_from(["missing", "timeout", "error", "skipped"]),
    detail=st.none() | text,
    seconds=st.none() | finite,
)


@st.composite
def reports(draw: st.DrawFn) -> Report:
    names = draw(st.lists(st.sampled_from(sorted(KEYS)), unique=True, max_size=8))
    facts: dict[str, Any] = {}
    for name in names:
        if draw(st.booleans()):
            facts[name] = draw(missing)
        else:
            facts[name] = Fact(draw(values_of(KEYS[name].type)), source=draw(text), seconds=draw(st.none() | finite))
    meta = Meta(generator=draw(text), options=draw(st.dictionaries(text, text, max_size=3)))
    return Report(meta=meta, facts=facts)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], deadline=None)
@given(reports())
def test_markdown_round_trips(report: Report) -> None:
    rendered = markdown.render(report, limit=10_000_000)
    assert markdown.parse(rendered) == report
    assert from_json(to_json(report)) == report


def test_comment_terminators_and_fences_inside_values_stay_inert() -> None:
    value = "x --> <!-- y --!> -- z\n```\n<!-- envtriage:report {} -->"
    report = Report(Meta("t"), {ENV.name: Fact({"NCCL_DEBUG": value}, "env")})
    rendered = markdown.render(report)
    twin = rendered[rendered.rindex("<!-- envtriage:report ") :]
    assert twin.count("-->") == 1, "the twin holds no terminator but its own"
    assert "````\nNCCL_DEBUG=x -->" in rendered, "a longer fence keeps the value's own ``` inside the block"
    assert markdown.parse(rendered) == report


def test_last_twin_wins_and_text_around_is_ignored() -> None:
    first = Report(Meta("first"))
    second = Report(Meta("second"))
    body = f"### Describe the bug\nboom\n\n{markdown.twin(first)}\n\nedit:\n{markdown.twin(second)}\n"
    assert markdown.parse(body).meta.generator == "second"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("no report here", "no envtriage report twin"),
        ("<!-- envtriage:report {not json} -->", "damaged"),
        ('<!-- envtriage:report {"schema": "envtriage.report/99"} -->', "newer envtriage"),
        ('<!-- envtriage:report {"schema": "report/1"} -->', "unsupported report schema"),
        ('<!-- envtriage:report {"schema": "envtriage.report/1", "facts": {"torch": []}} -->', "facts.torch"),
        (
            '<!-- envtriage:report {"schema": "envtriage.report/1", "facts": {"torch": {"value": {"version": 2},'
            ' "source": "x"}}} -->',
            "facts.torch.value.version",
        ),
    ],
)
def test_bad_twins_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ReportFormatError, match=message):
        markdown.parse(text)


def test_identical_gpus_are_grouped() -> None:
    gpus = [Gpu(index=i, name="NVIDIA H200", cc="9.0", memory_mib=143771, ecc=True) for i in range(8)]
    gpus[5] = Gpu(index=5, name="NVIDIA H200", cc="9.0", memory_mib=143771, ecc=True, ecc_volatile_uncorrected=3)
    report = Report(Meta("t"), {GPUS.name: Fact(gpus, "nvml")})
    rows = [(row["first"], row["last"]) for row in markdown.gpu_rows(report)]
    assert rows == [(0, 4), (5, 5), (6, 7)]
    assert "| 0–4 | NVIDIA H200 |" in markdown.render(report)


def test_oversized_report_is_trimmed_and_says_so() -> None:
    packages = [
        Package(name=f"package-{i}", version="1.0", location="/opt/env/lib/python3.12/site-packages")
        for i in range(2000)
    ]
    report = Report(
        Meta("t"),
        {
            PACKAGES.name: Fact(Packages(selected=packages, total=2000), "importlib.metadata"),
            TORCH.name: Fact(TorchInfo(version="2.11.0+cu130"), "torch"),
        },
    )
    rendered = markdown.render(report)
    assert len(rendered) <= markdown.MAX_CHARS
    assert "Left out to fit GitHub's size limit: packages" in rendered
    parsed = markdown.parse(rendered)
    assert parsed.meta.truncated == ["packages"] and parsed.get(TORCH) == TorchInfo(version="2.11.0+cu130")
    assert json.loads(to_json(parsed))["facts"]["packages"]["status"] == "skipped"


def test_markdown_values_cannot_break_tables_or_inject_html() -> None:
    gpu = Gpu(index=0, name="Evil | <img src=x onerror=alert(1)>\nGPU", cc="9.0")
    rendered = markdown.render(Report(Meta("t"), {GPUS.name: Fact([gpu], "nvml")}))
    table_line = next(line for line in rendered.splitlines() if line.startswith("| 0 |"))
    assert "<img" not in table_line and "\\|" in table_line
