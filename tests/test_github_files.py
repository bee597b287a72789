"""The files GitHub reads from this repository, checked against GitHub's own schemas (shipped by check-jsonschema)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bot.diagnosis.config import FALLBACK_COMMAND, RepoConfig, release_command
from bot.diagnosis.config import parse as parse_config
from bot.diagnosis.matrix import default as default_matrix
from bot.diagnosis.readers import read_case
from bot.diagnosis.rules import diagnose
from collector import markdown
from collector.report.model import Meta, Report
from tests.conftest import fixture_text

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = {
    ".github/ISSUE_TEMPLATE/bug_report.yml": "vendor.github-issue-forms",
    ".github/ISSUE_TEMPLATE/envtriage_bug.yml": "vendor.github-issue-forms",
    ".github/ISSUE_TEMPLATE/config.yml": "vendor.github-issue-config",
    "action.yml": "vendor.github-actions",
    ".github/workflows/envtriage.yml": "vendor.github-workflows",
    ".github/workflows/ci.yml": "vendor.github-workflows",
    ".github/workflows/release.yml": "vendor.github-workflows",
}


@pytest.mark.parametrize("path", sorted(SCHEMAS))
def test_valid_against_githubs_schema(path: str) -> None:
    checker = Path(sys.executable).with_name("check-jsonschema")
    result = subprocess.run(
        [str(checker), "--builtin-schema", SCHEMAS[path], str(ROOT / path)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr


def form_body(answers: dict[str, str]) -> str:
    """An issue body the way GitHub writes a submitted form: `### Label`, a blank line, the answer (or
    `_No response_`), fenced when the field has `render`."""
    form = yaml.safe_load((ROOT / ".github/ISSUE_TEMPLATE/bug_report.yml").read_text())
    parts = []
    for field in form["body"]:
        if field["type"] != "textarea":
            continue
        value = answers.get(field["id"], "")
        render = field["attributes"].get("render")
        if value and render:
            value = f"```{render}\n{value}\n```"
        parts.append(f"### {field['attributes']['label']}\n\n{value or '_No response_'}")
    return "\n\n".join(parts)


def test_the_form_asks_for_the_collector_and_its_answer_is_read() -> None:
    form = (ROOT / ".github/ISSUE_TEMPLATE/bug_report.yml").read_text()
    assert "python -m collector > env.md" in form
    body = form_body({"environment": fixture_text("h200-1gpu", "broken-cvd-empty.md"),
                      "what-happened": "torch.cuda.is_available() is False on an H200 box.",
                      "error": "RuntimeError: No CUDA GPUs are available"})  # fmt: skip
    matrix = default_matrix()
    case = read_case(matrix, body, "CUDA not available", [])
    assert not case.damaged_report
    assert [f.id for f in diagnose(case, matrix)][:1] == ["gpus_hidden_by_env"]


def test_a_form_left_without_a_report_asks_for_one() -> None:
    matrix = default_matrix()
    body = form_body({"what-happened": "My training crashes with CUDA error: no kernel image is available"})
    rules = [f.id for f in diagnose(read_case(matrix, body, "crash", []), matrix)]
    assert "missing_env_report" in rules


def test_the_readme_app_manifest_asks_for_what_the_bot_uses() -> None:
    readme = (ROOT / "README.md").read_text()
    [block] = [b for b in re.findall(r"```json\n(.*?)```", readme, re.S) if "default_permissions" in b]
    manifest = json.loads(block)
    assert manifest["default_permissions"]["issues"] == "write"
    assert manifest["default_permissions"]["metadata"] == "read"
    assert set(manifest["default_events"]) == {"issues", "issue_comment"}
    # The README's repository-settings example is a valid config.
    [example] = [b for b in re.findall(r"```yaml\n(.*?)```", readme, re.S) if "needs_env_label" in b]
    assert parse_config(example).label_for("driver_too_old") == "cuda: driver"
    assert parse_config(example).collector_command == release_command("OWNER/envtriage")


def test_no_text_a_reporter_reads_names_a_package_no_one_can_install() -> None:
    """No package called envtriage is published: the form, the bot's comments and the README never tell a
    stranger to `pip install` it (a name nobody here controls is a name someone else can take)."""
    texts = [*ROOT.glob("templates/**/*.j2"), *ROOT.glob(".github/**/*.yml"), ROOT / "README.md"]
    install = re.compile(r"pip3? install[^\n`]*\benvtriage\b")
    named = [str(path.relative_to(ROOT)) for path in texts if install.search(path.read_text())]
    assert named == []
    form = (ROOT / ".github/ISSUE_TEMPLATE/bug_report.yml").read_text()
    assert "python -m torch.utils.collect_env" in form and "nvidia-smi" in form
    # Nor does any command the bot can be told to ask for by default, or that the README suggests.
    readme = (ROOT / "README.md").read_text()
    suggested = re.findall(r"^collector_command: (.+)$", readme, re.M)
    commands = [RepoConfig().collector_command, release_command("OWNER/envtriage"), *map(yaml.safe_load, suggested)]
    assert len(commands) >= 3 and not [command for command in commands if install.search(command)]


def this_repository() -> RepoConfig:
    return parse_config((ROOT / ".github/envtriage.yml").read_text())


def environment_field() -> dict[str, str]:
    form = yaml.safe_load((ROOT / ".github/ISSUE_TEMPLATE/bug_report.yml").read_text())
    [field] = [f for f in form["body"] if f.get("id") == "environment"]
    return dict(field["attributes"])


def test_the_form_asks_for_the_command_the_bot_asks_for() -> None:
    """The form and the needs-env comment send a reporter to the same command: this repository's
    collector_command, the first line of the form's block of commands, with collect_env in it too."""
    description = environment_field()["description"]
    [block] = re.findall(r"```\n(.*?)```", description, re.S)
    assert block.splitlines()[0] == this_repository().collector_command
    assert FALLBACK_COMMAND in block and "nvidia-smi" in block


def test_the_required_checkbox_asks_only_for_what_the_form_requires() -> None:
    """The form makes the collector optional (collect_env is enough): the box a reporter must tick cannot say they
    ran the collector, only the commands the form gives."""
    form = yaml.safe_load((ROOT / ".github/ISSUE_TEMPLATE/bug_report.yml").read_text())
    required = [option["label"] for field in form["body"] if field["type"] == "checkboxes"
                for option in field["attributes"]["options"] if option.get("required")]  # fmt: skip
    assert required, "the form has a required checkbox"
    for label in required:
        assert "collector" not in label.lower() and "envtriage" not in label.lower(), label
        assert "commands above" in label, label


def test_the_placeholder_starts_as_the_collectors_report_starts() -> None:
    """The placeholder shows the heading the collector's report opens with, as the collector renders it."""
    heading = markdown.render(Report(Meta("..."), {})).splitlines()[0]
    assert heading == "### Environment (envtriage ...)"
    assert heading in environment_field()["placeholder"]


def test_bugs_in_envtriage_have_their_own_form_and_are_not_triaged_as_gpu_problems() -> None:
    form = yaml.safe_load((ROOT / ".github/ISSUE_TEMPLATE/envtriage_bug.yml").read_text())
    gpu_form = yaml.safe_load((ROOT / ".github/ISSUE_TEMPLATE/bug_report.yml").read_text())
    assert form["labels"] and set(form["labels"]) <= set(this_repository().exempt_labels)
    assert not set(gpu_form["labels"]) & set(this_repository().exempt_labels)
    intro = next(field for field in form["body"] if field["type"] == "markdown")["attributes"]["value"]
    assert f'"{gpu_form["name"]}" form' in intro


def git(*args: str) -> list[str]:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30, check=False)
    return done.stdout.split() if done.returncode == 0 else []


def test_the_readme_action_reference_exists() -> None:
    """`@v0` named a tag that was never made. A release tag must be one this repository has; a branch must be one
    (a checkout without branches, such as CI's detached merge commit, cannot tell); a full commit SHA always pins."""
    readme = (ROOT / "README.md").read_text()
    refs = re.findall(r"uses: OWNER/envtriage@(\S+)", readme)
    assert refs
    tags = git("tag", "--list")
    branches = {
        name.rsplit("/", 1)[-1] for name in git("for-each-ref", "--format=%(refname)", "refs/heads", "refs/remotes")
    }
    for ref in refs:
        if re.fullmatch(r"[0-9a-f]{40}", ref):
            continue
        if re.fullmatch(r"v\d[\w.]*", ref):
            assert ref in tags, f"README's action reference @{ref} is a tag this repository does not have"
        else:
            assert ref in branches or not branches, f"README's action reference @{ref} is no branch here"


def test_the_default_command_downloads_what_the_release_workflow_attaches() -> None:
    """collector_command's default names the asset by name: the name `python -m collector.bundle` writes by default
    and the release workflow uploads."""
    from bot.diagnosis import config
    from collector.bundle import DEFAULT_NAME

    workflow = yaml.safe_load((ROOT / ".github/workflows/release.yml").read_text())
    uploads = [step["run"] for job in workflow["jobs"].values() for step in job["steps"]
               if "gh release upload" in step.get("run", "")]  # fmt: skip
    assert config.ASSET == DEFAULT_NAME and uploads
    assert all(f"/{config.ASSET} " in run for run in uploads), uploads
    assert f"/releases/latest/download/{config.ASSET} " in config.release_command("acme/envtriage")
