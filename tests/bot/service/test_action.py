"""GitHub Action mode: action.yml's own script run under bash against the fake GitHub, as a runner would."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.diagnosis.render import MARKER
from tests.bot.harness import REPO, broken_report, payload
from tests.fakegithub import FakeGitHub

ROOT = Path(__file__).resolve().parents[3]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
EXPRESSION = re.compile(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}")


def triage_step() -> dict[str, Any]:
    [step] = [s for s in ACTION["runs"]["steps"] if "bot action" in s.get("run", "")]
    return dict(step)


def step_env(inputs: dict[str, str]) -> dict[str, str]:
    """The step's env as the runner resolves it: `${{ inputs.x }}` from the given inputs, else the defaults."""
    defaults = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    values = {**defaults, **inputs}
    return {key: EXPRESSION.sub(lambda m: values[m[1]], str(value)) for key, value in triage_step()["env"].items()}


def run_action(fake: FakeGitHub, tmp_path: Path, event: str, body: dict[str, Any], **inputs: str
               ) -> subprocess.CompletedProcess[str]:  # fmt: skip
    event_path = tmp_path / "event.json"
    event_path.write_text(json.dumps(body))
    env = {
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "HOME": str(tmp_path),
        "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": str(event_path),
        "GITHUB_API_URL": fake.url, "GITHUB_RUN_ID": "1234", "ENVTRIAGE_WRITE_SPACING": "0",
        **step_env({"github-token": "ghs_workflow_token", **inputs}),
    }  # fmt: skip
    # The triage step's script, exactly as written in action.yml, run the way `shell: bash` runs it.
    script = triage_step()["run"]
    return subprocess.run(["bash", "-e", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture
def fake(fake_github: FakeGitHub) -> FakeGitHub:
    fake_github.bot_login = "github-actions[bot]"
    fake_github.add_repo(REPO)
    fake_github.add_issue(REPO, number=1, body=broken_report())
    return fake_github


def bot_comments(fake: FakeGitHub) -> list[dict[str, Any]]:
    return [c for c in fake.comments_on(REPO, 1) if MARKER in str(c["body"])]


def test_no_event_data_is_spliced_into_the_shell() -> None:
    for step in ACTION["runs"]["steps"]:
        assert "${{" not in step.get("run", ""), step


def test_an_opened_issue_gets_its_labels_and_one_comment_and_a_rerun_changes_nothing(
    fake: FakeGitHub, tmp_path: Path
) -> None:
    opened = payload("issues.opened", **{"issue.number": 1, "issue.body": broken_report()})
    first = run_action(fake, tmp_path, "issues", opened)
    assert first.returncode == 0, first.stderr
    [comment] = bot_comments(fake)
    assert comment["user"]["login"] == "github-actions[bot]" and "CUDA_VISIBLE_DEVICES" in comment["body"]
    assert fake.labels_on(REPO, 1) == ["env: gpus-hidden-by-env"]
    fake.reset_calls()
    again = run_action(fake, tmp_path, "issues", opened)
    assert again.returncode == 0, again.stderr
    assert fake.write_calls() == [] and len(bot_comments(fake)) == 1


def test_dry_run_input_writes_nothing(fake: FakeGitHub, tmp_path: Path) -> None:
    opened = payload("issues.opened", **{"issue.number": 1, "issue.body": broken_report()})
    result = run_action(fake, tmp_path, "issues", opened, **{"dry-run": "true"})
    assert result.returncode == 0, result.stderr
    assert fake.write_calls() == [] and "dry run" in result.stderr.lower()
    # It shows what it would have posted, and does not say it posted it ("done: comment created").
    assert f"dry run: nothing was posted to {REPO}#1" in result.stdout, result.stdout
    assert "labels to add:    env: gpus-hidden-by-env" in result.stdout, result.stdout
    posted = result.stdout.split("----- comment -----\n", 1)[1].split("\n----- end of comment -----", 1)[0]
    assert posted.startswith(MARKER) and "CUDA_VISIBLE_DEVICES" in posted, result.stdout
    assert "comment created" not in result.stdout + result.stderr


def test_events_that_are_not_work_end_quietly(fake: FakeGitHub, tmp_path: Path) -> None:
    labeled = payload("issues.labeled", **{"issue.number": 1})
    result = run_action(fake, tmp_path, "issues", labeled)
    assert result.returncode == 0 and "nothing to do" in result.stderr and fake.calls == []


def test_an_unreadable_event_file_is_a_clear_error(fake: FakeGitHub, tmp_path: Path) -> None:
    (tmp_path / "event.json").write_text("{not json")
    result = subprocess.run(
        [sys.executable, "-m", "bot", "action"], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "GITHUB_EVENT_NAME": "issues", "GITHUB_EVENT_PATH": str(tmp_path / "event.json"),
             "GITHUB_TOKEN": "t", "GITHUB_API_URL": fake.url},
    )  # fmt: skip
    assert result.returncode != 0 and "cannot read the event" in result.stderr
