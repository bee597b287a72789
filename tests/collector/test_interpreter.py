"""The torch and packages children, run for real: torch present, absent, raising, crashing, hanging."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from collector.context import Options
from collector.probes import interpreter
from collector.report.model import Fact, Missing
from collector.report.schema import LIBRARIES, PACKAGES, PYTHON, SMOKE_MATMUL, SMOKE_NCCL, TORCH
from collector.run import Deadline
from tests.collector.conftest import make_context

HAS_TORCH = importlib.util.find_spec("torch") is not None  # CI installs torch==2.13.0 (CPU)
# The children here get a POSIX environment (PATH=/usr/bin:/bin, a venv's bin/python) and POSIX signals; on Windows
# the CI job's `python -m collector` runs the real children instead.
pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX children: PATH=/usr/bin:/bin, bin/python, signals")


@pytest.fixture(scope="session")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> str:
    """An interpreter with no torch and no pip: a venv made without either."""
    where = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    return str(where / "bin" / "python")


def fake_torch(tmp_path: Path, body: str) -> dict[str, str]:
    package = tmp_path / "shadow" / "torch"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(body)
    return {"PYTHONPATH": str(package.parent), "PATH": "/usr/bin:/bin"}


def run_torch(
    tmp_path: Path,
    env: dict[str, str] | None = None,
    python: str = sys.executable,
    timeout: float = 60.0,
    smoke: str = "quick",
) -> dict[str, object]:
    ctx = make_context(
        tmp_path, env=env or {"PATH": "/usr/bin:/bin"}, options=Options(python=python, smoke=smoke, timeout=timeout)
    )  # type: ignore[arg-type]
    ctx.deadline = Deadline(timeout)
    return interpreter.torch(ctx)  # type: ignore[return-value]


def torch_says() -> dict[str, object]:
    """What torch itself reports, asked in a separate plain interpreter."""
    code = "import json, torch; print(json.dumps([torch.__version__, torch.version.cuda, torch.cuda.is_available()]))"
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True, check=True)
    version, cuda, available = json.loads(out.stdout)
    return {"version": version, "cuda": cuda, "available": available}


@pytest.mark.skipif(not HAS_TORCH, reason="torch is not installed in this environment")
def test_real_torch(tmp_path: Path) -> None:
    results = run_torch(tmp_path)
    torch = results[TORCH.name]
    assert isinstance(torch, Fact), torch
    truth = torch_says()
    assert torch.value.version == truth["version"] == importlib.metadata.version("torch")
    assert (torch.value.cuda, torch.value.available) == (truth["cuda"], truth["available"])
    assert torch.value.import_seconds and torch.value.import_seconds > 0
    libraries = results[LIBRARIES.name]
    if sys.platform.startswith("linux"):
        assert isinstance(libraries, Fact)
    else:  # macOS: no /proc/self/maps, and no CUDA library for torch to load
        assert isinstance(libraries, Missing) and libraries.status == "skipped"
    matmul = results[SMOKE_MATMUL.name]
    if truth["cuda"] is None:
        assert isinstance(matmul, Missing) and matmul.reason == "this torch is a CPU-only build"
    assert results[SMOKE_NCCL.name].status == "skipped"  # type: ignore[union-attr]


def test_torch_not_installed(tmp_path: Path, bare_python: str) -> None:
    results = run_torch(tmp_path, python=bare_python)
    torch = results[TORCH.name]
    assert isinstance(torch, Missing) and torch.status == "missing"
    assert torch.reason == f"torch is not installed for {bare_python}"
    assert results[SMOKE_MATMUL.name].status == "skipped"  # type: ignore[union-attr]


def test_import_error_text_is_the_diagnosis(tmp_path: Path) -> None:
    env = fake_torch(tmp_path, 'raise ImportError("/x/libtorch_cuda.so: undefined symbol: ncclCommRegister")\n')
    torch = run_torch(tmp_path, env)[TORCH.name]
    assert isinstance(torch, Missing) and torch.status == "error"
    assert torch.reason == "import torch failed: ImportError: /x/libtorch_cuda.so: undefined symbol: ncclCommRegister"
    assert torch.detail and "Traceback" in torch.detail


def test_runtime_error_on_import_is_kept_too(tmp_path: Path) -> None:
    env = fake_torch(tmp_path, 'raise RuntimeError("CUDA driver initialization failed")\n')
    torch = run_torch(tmp_path, env)[TORCH.name]
    assert isinstance(torch, Missing) and "RuntimeError: CUDA driver initialization failed" in torch.reason


def test_segfault_during_import(tmp_path: Path) -> None:
    env = fake_torch(tmp_path, "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    torch = run_torch(tmp_path, env)[TORCH.name]
    assert isinstance(torch, Missing) and torch.status == "error"
    assert torch.reason == "crashed while importing torch: the process exited with signal 11 (SIGSEGV)"
    assert torch.detail and "Segmentation fault" in torch.detail


def test_hanging_import_is_cut_at_the_deadline(tmp_path: Path) -> None:
    env = fake_torch(tmp_path, "import time\ntime.sleep(600)\n")
    start = time.monotonic()
    torch = run_torch(tmp_path, env, timeout=2.0)[TORCH.name]
    assert time.monotonic() - start < 4.0
    assert isinstance(torch, Missing) and torch.status == "timeout"
    # The deadline the user gave, not the part of it this probe waited (the child started before the probe did).
    assert torch.reason == "timed out while importing torch: no answer before the report's 2 s deadline (--timeout)"


def test_a_child_cut_at_its_own_limit_says_that_limit(tmp_path: Path) -> None:
    env = fake_torch(tmp_path, "import time\ntime.sleep(600)\n")
    ctx = make_context(tmp_path, env=env, options=Options(python=sys.executable, smoke="none", timeout=60.0))
    ctx.deadline = Deadline(60.0)
    results = interpreter.run_child(ctx, "torch_child.py", (TORCH,), {"smoke": "none"}, timeout=1.5)
    torch = results[TORCH.name]
    assert isinstance(torch, Missing) and torch.reason == "timed out while importing torch: no answer within 1.5 s"


def test_python_and_packages_of_the_target(tmp_path: Path, bare_python: str) -> None:
    ctx = make_context(tmp_path, options=Options(python=bare_python, smoke="none"))
    results = interpreter.python_and_packages(ctx)
    python, packages = results[PYTHON.name], results[PACKAGES.name]
    assert isinstance(python, Fact) and python.value.environment == "venv"
    assert python.value.version == ".".join(map(str, sys.version_info[:3]))
    assert isinstance(packages, Fact) and packages.value.selected == []


def test_missing_interpreter(tmp_path: Path) -> None:
    results = run_torch(tmp_path, python=str(tmp_path / "no-such-python"))
    assert all(isinstance(r, Missing) and r.status == "error" for r in results.values() if r.status != "skipped")


def test_the_probe_does_not_wait_for_the_child_to_exit(tmp_path: Path) -> None:
    # A thread that is not a daemon holds a normal interpreter exit for a minute, as torch's own teardown can
    # hold it for half a second: the child says its last line and the probe answers without waiting for either.
    body = "import threading, time\nthreading.Thread(target=time.sleep, args=(60,)).start()\nraise ImportError('x')\n"
    start = time.monotonic()
    torch = run_torch(tmp_path, fake_torch(tmp_path, body), timeout=60.0)[TORCH.name]
    assert time.monotonic() - start < 10.0
    assert isinstance(torch, Missing) and torch.reason == "import torch failed: ImportError: x"


def test_the_child_ends_with_the_line_the_probe_waits_for(tmp_path: Path) -> None:
    env = fake_torch(tmp_path, "raise ImportError('x')\n")
    script = Path(interpreter.__file__).parents[1] / "child" / "torch_child.py"
    done = subprocess.run([sys.executable, str(script), '{"smoke": "none"}'], env=env, capture_output=True, check=True)
    assert done.stdout.endswith(interpreter.LAST_LINE)
