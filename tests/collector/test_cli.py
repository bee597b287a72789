"""`python -m collector` end to end, as a user runs it: exit status, twin, deadline, privacy."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from collector import markdown
from collector.report.model import SCHEMA, from_json

REPO = Path(__file__).resolve().parents[2]
SECRETS = {
    "GITHUB_TOKEN": "ghp_" + "Zq8" * 12,
    "HF_TOKEN": "hf_" + "Wv7" * 11,
    "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "MY_API_KEY": "my-very-own-api-key-0042",
}


def run(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    return subprocess.run(
        [sys.executable, "-m", "collector", *args],
        cwd=REPO,
        env={**base, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_markdown_report_carries_a_readable_twin() -> None:
    done = run("--no-smoke")
    assert done.returncode == 0, done.stderr
    report = markdown.parse(done.stdout)
    assert report.meta.options["smoke"] == "none"
    assert {"os", "python", "torch", "gpus", "driver", "packages", "env"} <= set(report.facts)
    assert len(done.stdout) < markdown.MAX_CHARS


def test_json_output_has_a_schema_key() -> None:
    done = run("--json", "--no-smoke")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["schema"] == SCHEMA
    assert from_json(done.stdout).meta.generator


def test_without_torch(tmp_path: Path) -> None:
    bare = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    python = bare / "Scripts" / "python.exe" if os.name == "nt" else bare / "bin" / "python"
    done = run("--json", "--python", str(python))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["facts"]["torch"]["status"] == "missing"


@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="a /bin/sh script stands in for nvidia-smi; macOS has none to call"
)
def test_a_hung_nvidia_smi_costs_at_most_the_deadline(tmp_path: Path) -> None:
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "nvidia-smi").write_text("#!/bin/sh\nexec sleep 600\n")
    (fake / "nvidia-smi").chmod(0o755)
    start = time.monotonic()
    done = run("--json", "--no-smoke", "--timeout", "4", env={"PATH": f"{fake}:{os.environ['PATH']}"})
    elapsed = time.monotonic() - start
    assert done.returncode == 0, done.stderr
    facts = json.loads(done.stdout)["facts"]
    if facts["driver"].get("source") == "nvml":
        pytest.skip("NVML works here, so nvidia-smi is never called")
    assert elapsed < 4 + 2
    assert facts["driver"]["status"] == "timeout" and "nvidia-smi" in facts["driver"]["missing"]


def test_a_hung_torch_import_costs_at_most_the_deadline(tmp_path: Path) -> None:
    shadow = tmp_path / "shadow" / "torch"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("import time\ntime.sleep(600)\n")
    start = time.monotonic()
    done = run("--timeout", "3", env={"PYTHONPATH": str(shadow.parent)})
    assert time.monotonic() - start < 3 + 2
    assert done.returncode == 0, done.stderr
    torch = markdown.parse(done.stdout).facts["torch"]
    assert torch.status == "timeout" and "importing torch" in torch.reason  # type: ignore[union-attr]
    assert "timed out: timed out while importing torch: no answer before the report's 3 s deadline (--timeout)" in (
        done.stdout
    )


@pytest.mark.skipif(os.name == "nt", reason="HOME and '/' paths; Windows homes are redacted in test_redact.py")
@pytest.mark.parametrize("fmt", ["--json", "--no-smoke"])
def test_secrets_host_and_home_never_appear(tmp_path: Path, fmt: str) -> None:
    home = tmp_path / "home" / "alice"
    (home / "envs").mkdir(parents=True)
    host = socket.gethostname()
    env = {
        **SECRETS,
        "HOME": str(home),
        "PYTHONPATH": str(home / "envs"),
        "MASTER_ADDR": host,
        "NCCL_DEBUG_FILE": f"{home}/nccl.%h.log",
        "TORCH_HUB_TOKEN": SECRETS["HF_TOKEN"],
        "CUDA_CACHE_PATH": f"https://bob:{SECRETS['MY_API_KEY']}@cache.example.com",
    }
    done = run(fmt, "--no-smoke", env=env)
    assert done.returncode == 0, done.stderr
    for value in SECRETS.values():
        assert value not in done.stdout
    assert str(home) not in done.stdout and "~/envs" in done.stdout
    if len(host) >= 2 and host != "localhost":  # as a word: a host called "vm" may sit inside "nvmlInit"
        assert not re.search(rf"(?<![\w-]){re.escape(host)}(?![\w-])", done.stdout, re.I)
    assert "secret-named variable" in done.stdout and "host name" in done.stdout


def test_bad_arguments_exit_2_with_a_message() -> None:
    done = run("--timeout", "-1")
    assert done.returncode != 0 and "--timeout must be a positive number" in done.stderr
    assert run("--deep", "--no-smoke").returncode == 2


@pytest.mark.parametrize("python", ["/nonexistent", "no-such-python-3.99", "."])
def test_an_interpreter_that_is_not_there_is_one_clear_line(python: str) -> None:
    done = run("--python", python, "--no-smoke", timeout=30)
    assert done.returncode == 1 and done.stdout == "", done.stdout
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"python -m collector: --python {python}: "), done.stderr


def test_check_prints_the_diagnosis_to_stderr_and_keeps_stdout_the_report(tmp_path: Path) -> None:
    shadow = tmp_path / "shadow" / "torch"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text(
        'raise ImportError("/x/torch/lib/libtorch_cuda.so: undefined symbol: ncclCommRegister")\n'
    )
    done = run("--check", "--no-smoke", env={"PYTHONPATH": str(shadow.parent)})
    assert done.returncode == 0, done.stderr
    assert markdown.parse(done.stdout).facts["torch"].status == "error"  # type: ignore[union-attr]
    assert "NCCL is installed twice, and an older copy is the one loaded" in done.stdout, "summary verdict"
    assert "envtriage found 1 thing to look at" in done.stderr and "ncclCommRegister" in done.stderr
