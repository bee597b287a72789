""".ci/collector_answered.py, the check the Windows and macOS CI jobs run on the collector's own report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def check(tmp_path: Path, markdown: str, facts: dict[str, dict[str, str]]) -> subprocess.CompletedProcess[str]:
    (tmp_path / "env.md").write_text(markdown, encoding="utf-8")
    (tmp_path / "env.json").write_text(json.dumps({"facts": facts}), encoding="utf-8")
    script = REPO / ".ci" / "collector_answered.py"
    argv = [sys.executable, str(script), str(tmp_path / "env.md"), str(tmp_path / "env.json")]
    return subprocess.run(argv, capture_output=True, text=True, check=False, encoding="utf-8")


# The driver fact as a Windows box without an NVIDIA driver reports it (tests/collector/test_native.py).
NO_DRIVER = {"missing": "nvmlInit failed: NVML Shared Library Not Found; fallback failed: nvidia-smi not found"}


def test_a_report_whose_facts_answer_or_say_why_passes(tmp_path: Path) -> None:
    facts = {"os": {"source": "platform.win32_ver"}, "driver": {**NO_DRIVER, "status": "missing"}}
    done = check(tmp_path, "### Environment (envtriage 0.1.0)\n", facts)
    assert done.returncode == 0 and "driver: missing: nvmlInit failed" in done.stdout


def test_a_probe_that_raised_fails_the_job_by_name(tmp_path: Path) -> None:
    facts = {"limits": {"missing": "AttributeError: module 'os' has no attribute 'statvfs'", "status": "error"}}
    done = check(tmp_path, "### Environment (envtriage 0.1.0)\n", facts)
    assert done.returncode == 1 and "::error::limits failed: AttributeError" in done.stdout


def test_a_report_without_its_heading_fails(tmp_path: Path) -> None:
    done = check(tmp_path, "Traceback (most recent call last):\n", {})
    assert done.returncode == 1 and "no heading, or shows a traceback" in done.stdout
