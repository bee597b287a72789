"""tests/bot/tune_diff.py: the issue-by-issue comparison of two held-out tune runs."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bot.tune_diff import compare, main


def test_gains_losses_and_fine_errors() -> None:
    before = {
        "u/1": ("cpu_only_wheel", "missing_env_report", False),
        "u/2": ("driver_too_old", "driver_too_old", True),
        "u/3": ("fine", "cpu_only_wheel", True),
        "u/4": ("oom_or_memory", "oom_or_memory", False),
    }
    after = {
        "u/1": ("cpu_only_wheel", "cpu_only_wheel", False),
        "u/2": ("driver_too_old", "driver_not_loaded", True),
        "u/3": ("fine", "cpu_only_wheel", False),
        "u/4": ("oom_or_memory", "oom_or_memory", False),
    }
    lines = compare(before, after)  # type: ignore[arg-type]
    assert lines[-1] == "gained 1, lost 1 of 3 environment cases"
    assert any(line.startswith("GAIN cpu_only_wheel") for line in lines)
    assert any(line.startswith("LOSS driver_too_old") for line in lines)
    assert any(line.startswith("FINE error gone") for line in lines)
    assert len(lines) == 4


def test_compare_reads_saved_runs(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    run = {"u/1": ["gpu_arch_unsupported", "gpu_arch_unsupported", False]}
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(json.dumps(run), encoding="utf-8")
    assert main(["compare", str(tmp_path / "a.json"), str(tmp_path / "b.json")]) == 0
    assert capsys.readouterr().out.strip() == "gained 0, lost 0 of 1 environment cases"
