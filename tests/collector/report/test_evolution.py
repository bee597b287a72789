"""The twin can evolve: a bot reads reports from newer collectors of the same schema major.

The "future" report is a real H200 twin with what a later collector release may add: a new fact, new keys in
known values, a new enum value, a dropped key, and a minor schema version.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from collector.report.model import Fact, Missing, ReportFormatError, from_json_obj
from collector.report.schema import GPUS, TORCH
from tests.conftest import fixture_text


def real_twin() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(fixture_text("h200-1gpu", "collector.json"))
    return data


def future(data: dict[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(data)
    data["schema"] = "envtriage.report/1.4"
    data["meta"]["host_kind"] = "bare metal"
    data["facts"]["nvlink_errors"] = {"value": {"replays": 0}, "source": "nvml"}
    data["facts"]["gpus"]["value"][0]["power_limit_w"] = 700
    data["facts"]["gpus"]["value"][0]["clocks"] = {"sm": 1980}
    data["facts"]["torch"]["compiled_with"] = "gcc 13"
    data["facts"]["smoke.fp8"] = {"missing": "no FP8 here", "status": "cancelled"}
    return data


def test_a_future_report_of_the_same_major_is_read() -> None:
    report = from_json_obj(future(real_twin()))
    gpus = report.get(GPUS)
    assert gpus is not None and gpus[0].name == "NVIDIA H200" and gpus[0].cc == "9.0"
    torch = report.get(TORCH)
    assert torch is not None and torch.version == "2.11.0+cu130"
    assert isinstance(report.result(GPUS), Fact)
    fp8 = report.facts["smoke.fp8"]
    assert isinstance(fp8, Missing) and "not readable by this envtriage" in fp8.reason
    assert set(report.skipped) >= {
        "meta.host_kind",
        "facts.nvlink_errors",
        "facts.gpus.value[0].power_limit_w",
        "facts.gpus.value[0].clocks",
        "facts.torch.compiled_with",
        "facts.smoke.fp8.status",
    }


def test_a_dropped_required_key_makes_only_that_fact_missing() -> None:
    data = real_twin()
    del data["facts"]["gpus"]["value"][0]["name"]
    report = from_json_obj(data)
    assert isinstance(report.facts["gpus"], Missing)
    assert report.get(TORCH) is not None, "the other facts are still read"


def test_a_newer_major_is_refused_with_a_clear_message() -> None:
    data = real_twin()
    data["schema"] = "envtriage.report/2"
    with pytest.raises(ReportFormatError, match=r"newer envtriage .*envtriage\.report/2.*update envtriage"):
        from_json_obj(data)


def test_a_wrong_type_is_still_refused() -> None:
    data = real_twin()
    data["facts"]["gpus"]["value"][0]["memory_mib"] = "lots"
    with pytest.raises(ReportFormatError, match=r"facts\.gpus\.value\[0\]\.memory_mib"):
        from_json_obj(data)
