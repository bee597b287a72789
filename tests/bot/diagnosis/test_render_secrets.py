"""A secret quoted in an issue is never repeated: not in the comment, nor in `python -m bot triage` text or JSON.

Each kind of tests/planted.py is pasted where people paste such things: in the error line of a traceback, in an
environment assignment on a command line, in a collect_env paste, and in a comment. Read without redaction the
same issue puts every one of them into a fact's evidence or a quoted error, so each test would catch a leak.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from bot.cli import plan_json
from bot.diagnosis.matrix import Index
from bot.diagnosis.plan import Plan, triage
from bot.diagnosis.readers import read_case
from bot.insights.dedupe import extract
from collector import markdown, templating
from collector.report import codec
from collector.report.model import Fact, Meta, Report, to_json_obj
from collector.report.schema import ENV, TORCH, TorchInfo
from tests.bot.harness import REPO as ISSUE_REPO
from tests.bot.harness import Running, opened
from tests.fakegithub import FakeGitHub
from tests.planted import SECRETS, Plant

REPO = Path(__file__).resolve().parents[3]
TITLE = "torch.cuda.is_available() is False"


def one_line(plant: Plant) -> str:
    return plant.text.replace("\n", " ")  # a quoted error is one line; a key block pasted in one stays whole


def body(secret: str) -> str:
    assignment = secret if any(mark in secret for mark in ("=", ": ", "--")) else f"HF_TOKEN={secret}"
    return f"""### 🐛 Describe the bug

torch.cuda.is_available() is False on my RTX 4090.

```
Traceback (most recent call last):
  File "serve.py", line 3, in <module>
    model.cuda()
AssertionError: Torch not compiled with CUDA enabled (while fetching {secret})
```

```sh
CUDA_VISIBLE_DEVICES=0 {assignment} python serve.py
```

### Versions

Collecting environment information...
PyTorch version: 2.6.0+cpu
Is debug build: False
CUDA used to build PyTorch: None
OS: Ubuntu 22.04.4 LTS (x86_64)
Python version: 3.11.9 (main) [GCC 11.4.0] (64-bit runtime)
Is CUDA available: False
GPU models and configuration: GPU 0: NVIDIA GeForce RTX 4090 ({secret})
Nvidia driver version: 550.54.14
"""


def leaked(plant: Plant, text: str, width: int = 12) -> str | None:
    parts = (secret[i : i + width] for secret in plant.secrets for i in range(len(secret) - width + 1))
    return next((part for part in parts if part in text), None)


def outputs(plan: Plan) -> dict[str, str]:
    return {
        "comment": plan.comment or "",
        "json": json.dumps(plan_json(plan), ensure_ascii=False),
        "text": templating.render("triage.txt.j2", plan=plan, recorded=None),
    }


@pytest.mark.parametrize("plant", SECRETS, ids=[plant.kind for plant in SECRETS])
def test_the_bot_never_repeats_a_quoted_secret(matrix: Index, plant: Plant) -> None:
    text = body(one_line(plant))
    comment = f"Same here, my config: {one_line(plant)}"
    raw = read_case(matrix, text, TITLE, [comment])
    quoted = json.dumps([to_json_obj(raw.report)["facts"], [codec.encode(q) for q in raw.errors]])
    assert leaked(plant, quoted), "read as written, the issue quotes the secret"
    plan = triage(matrix, text, TITLE, comments=[comment])
    assert {name: part for name, out in outputs(plan).items() if (part := leaked(plant, out))} == {}
    assert "cpu_only_wheel" in {f.category for f in plan.findings}, "the diagnosis is the same"
    assert "NVIDIA GeForce RTX 4090" in (plan.comment or "") and "2.6.0+cpu" in (plan.comment or "")


@pytest.mark.parametrize("fmt", [["--json"], []], ids=["json", "text"])
def test_triage_cli_output_holds_no_secret(tmp_path: Path, fmt: list[str]) -> None:
    issue = tmp_path / "issue.md"
    issue.write_text("\n\n".join(body(one_line(plant)) for plant in SECRETS))
    title = f"{TITLE} with HF_TOKEN={SECRETS[3].text}"
    done = subprocess.run(
        [sys.executable, "-m", "bot", "triage", str(issue), "--title", title, *fmt],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert {plant.kind: part for plant in SECRETS if (part := leaked(plant, done.stdout))} == {}
    if fmt:
        data = json.loads(done.stdout)
        assert data["comment"].startswith("<!-- envtriage:comment -->") and data["errors"]
        assert data["facts"]["torch"]["value"]["version"] == "2.6.0+cpu"
    else:
        assert "torch 2.6.0+cpu is a CPU-only build" in done.stdout and "<redacted>" in done.stdout


def test_a_pasted_report_twin_repeats_no_secret(matrix: Index) -> None:
    """A report whose twin holds secrets (an old collector, a hand edit): JSON may spell them "-\\u002d-BEGIN"."""
    env = {f"VLLM_CONFIG_{i}": plant.text for i, plant in enumerate(SECRETS)}
    torch = TorchInfo(version="2.6.0+cpu", tag="cpu", build="cpu", available=False)
    report = Report(Meta("0.1.0"), {TORCH.name: Fact(torch, "torch"), ENV.name: Fact(env, "os.environ")})
    text = "### Describe the bug\n\nNo GPU on my RTX 4090.\n\n" + markdown.render(report)
    raw = read_case(matrix, text, TITLE)
    assert all(leaked(plant, json.dumps(to_json_obj(raw.report))) for plant in SECRETS), "read as written"
    plan = triage(matrix, text, TITLE)
    leaks = {(plant.kind, name) for name, out in outputs(plan).items() for plant in SECRETS if leaked(plant, out)}
    assert leaks == set()
    assert "envtriage report" in plan.case.formats and set(plan.case.report.get(ENV) or {}) == set(env)


def test_the_service_keeps_no_secret_once_an_issue_is_handled(bot: Running, fake: FakeGitHub, matrix: Index) -> None:
    """The worker reads issues as `triage` does: the duplicate index and the history hold none of the secrets,
    and a handled delivery's payload (GitHub's copy of the issue) is dropped, its id kept."""
    secrets = " ".join(one_line(plant) for plant in SECRETS)
    issue = body(secrets)  # every secret in the traceback's error line, which the index's signature keeps
    title = f"{TITLE} {one_line(SECRETS[0])}"
    fake.add_issue(ISSUE_REPO, number=1, body=issue, title=title)
    bot.send("issues", opened(issue, title=title))
    bot.settle()
    with bot.store.engine.connect() as db:
        tables = sa.MetaData()
        tables.reflect(db)
        kept = {name: str(db.execute(sa.select(table)).all()) for name, table in tables.tables.items()}
    assert "triaged" in kept and "dup_issues" in kept and "deliveries" in kept
    # The index lower-cases, masks digits and cuts long words, so pieces are compared as their letters only.
    leaks = [
        (name, plant.kind)
        for name, rows in kept.items()
        for plant in SECRETS
        if any(letters(secret)[:10] in letters(rows) for secret in plant.secrets if len(letters(secret)) >= 10)
    ]
    assert leaks == []
    unredacted = letters(str(extract(read_case(matrix, issue), [], matrix, issue)))  # what the index kept before
    assert sum(letters(plant.secrets[0])[:10] in unredacted for plant in SECRETS) > 10


def letters(text: str) -> str:
    return re.sub("[^a-z]", "", text.lower())
