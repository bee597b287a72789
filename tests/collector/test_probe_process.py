"""The probe process: facts stream back as probes return; a crash or a wedge costs only what was not sent."""

from __future__ import annotations

import faulthandler
import json
import os
import signal
import stat
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from collector import __main__ as cli
from collector import gather, probes
from collector.context import Context, Options
from collector.probe_process import GRACE_SECONDS, ProbeProcess
from collector.report.model import Fact, Meta, Missing
from collector.report.schema import CPU, ENV, KEYS, LIMITS, CpuInfo, Limits
from collector.run import Deadline, kill_group_of

NO_TORCH = "/nonexistent/python"  # the torch child cannot start: these tests are about the probes


def options(python: str = NO_TORCH, timeout: float = 10.0) -> Options:
    return Options(python=python, smoke="none", timeout=timeout, redact=True)


def limits(ctx: Context) -> Fact[Limits]:
    return Fact(Limits(shm_bytes=64 << 20), "test")


def cpu(ctx: Context) -> Fact[CpuInfo]:
    time.sleep(0.3)  # after limits(), so that limits' facts are sent before anything goes wrong here
    return Fact(CpuInfo(model="Test CPU", cores=4, flags=["avx2"]), "test")


def crashing(log: Path) -> Any:
    """A probe that segfaults, its fatal-error dump written to `log`: the probe process is forked from pytest, whose
    faulthandler writes to the terminal's stderr past any capture, and a passing run prints no traceback."""

    def crashes(ctx: Context) -> Any:
        time.sleep(0.3)
        with log.open("w") as dump:
            faulthandler.enable(file=dump)
            os.kill(os.getpid(), signal.SIGSEGV)  # what a libnvidia-ml that does not match the driver does
            time.sleep(10)

    return crashes


def use_probes(monkeypatch: pytest.MonkeyPatch, *funcs: tuple[Any, Any]) -> None:
    fake = [probes.Probe(keys=(key,), func=func, name=f"test.{func.__name__}") for key, func in funcs]
    monkeypatch.setattr(probes, "all_probes", lambda: fake)
    monkeypatch.setattr(gather, "all_probes", lambda: fake)


# The probes these tests swap in reach the probe process only by fork(); without it (Windows) a new interpreter
# imports the real ones.
NEEDS_FORK = pytest.mark.skipif(not hasattr(os, "fork"), reason="swapped-in probes reach it only by fork()")


@NEEDS_FORK
def test_each_probe_s_facts_arrive_and_the_rest_are_missing_with_a_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    use_probes(monkeypatch, (LIMITS, limits), (CPU, cpu))
    probing = ProbeProcess.start(options(), {}, Deadline(10))
    report = probing.report(Meta(generator="test"))
    assert list(report.facts) == list(KEYS)
    assert report.get(LIMITS) == Limits(shm_bytes=64 << 20)
    assert report.get(CPU) == CpuInfo(model="Test CPU", cores=4, flags=["avx2"])
    cpu_fact = report.result(CPU)
    assert isinstance(cpu_fact, Fact) and cpu_fact.seconds is not None and cpu_fact.seconds >= 0.3
    env = report.result(ENV)
    assert isinstance(env, Missing) and env.status == "error"


@NEEDS_FORK
def test_a_crashing_probe_costs_only_the_facts_not_yet_sent(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    use_probes(monkeypatch, (LIMITS, limits), (CPU, crashing(tmp_path / "stderr")))
    probing = ProbeProcess.start(options(), {}, Deadline(10))
    report = probing.report(Meta(generator="test"))
    assert report.get(LIMITS) == Limits(shm_bytes=64 << 20)
    lost = report.result(CPU)
    assert isinstance(lost, Missing) and lost.status == "error"
    assert lost.reason == "test.crashes was lost: the probe process ended with signal 11 (SIGSEGV)"
    dump = (tmp_path / "stderr").read_text()
    assert dump.startswith("Fatal Python error: Segmentation fault") and "in crashes" in dump, dump


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a /bin/sh script, and /proc to tell zombies apart")
def test_a_wedged_probe_process_is_killed_with_its_children_after_the_deadline(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    python = tmp_path / "python"  # stands in for an `import torch` that never returns
    python.write_text("#!/bin/sh\necho $$ > " + str(tmp_path / "pid") + "\nexec sleep 60\n")
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    use_probes(monkeypatch, (LIMITS, limits))
    monkeypatch.setattr(gather, "probe_report", lambda *args, **kwargs: time.sleep(3600))  # collect() itself hangs
    start = time.monotonic()
    probing = ProbeProcess.start(options(str(python), timeout=0.5), {}, Deadline(0.5))
    report = probing.report(Meta(generator="test"))
    assert time.monotonic() - start < 0.5 + GRACE_SECONDS + 0.5
    limits_fact = report.result(LIMITS)
    assert isinstance(limits_fact, Missing) and limits_fact.status == "timeout"
    assert limits_fact.reason == "test.limits did not finish within the 0.5 s deadline (--timeout)"
    assert not alive(probing.pid)
    assert not alive(int((tmp_path / "pid").read_text()))


def alive(pid: int) -> bool:
    """Still running a second after a SIGKILL (delivered asynchronously); a zombie waiting for a parent to reap it
    (init, in a container) counts as dead."""
    end = time.monotonic() + 1.0
    while running(pid) and time.monotonic() < end:
        time.sleep(0.01)
    return running(pid)


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_without_fork_the_same_probe_process_is_started_as_an_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where there is no fork (Windows), `python -m collector.probe_process` runs the real probes and speaks the
    same lines; the facts that do not depend on timing agree with the forked process's."""
    stable = (CPU.name, "os")
    forked, _ = cli.collected(options(), {"PATH": os.environ.get("PATH", "")}, Deadline(20))
    monkeypatch.delattr(os, "fork", raising=False)  # Windows has none to begin with
    probing = ProbeProcess.start(options(), {"PATH": os.environ.get("PATH", "")}, Deadline(20))
    assert probing.pid != os.getpid() and not hasattr(probing.proc, "reaped_elsewhere")  # a Popen, not a fork
    spawned = probing.report(Meta(generator="test"))
    assert list(spawned.facts) == list(KEYS)
    for name in stable:
        assert isinstance(spawned.facts[name], Fact), spawned.facts[name]
        assert spawned.get(KEYS[name]) == forked.get(KEYS[name])
    assert probing.proc.poll() is not None or probing.proc.wait(5) is not None


@pytest.mark.skipif(os.name == "nt", reason="a /bin/sh script stands in for the interpreter")
def test_a_started_probe_process_that_dies_is_reported_by_its_status(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    python = tmp_path / "python"  # an interpreter that dies before it says anything
    python.write_text("#!/bin/sh\nexit 3\n")
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    monkeypatch.delattr(os, "fork")
    monkeypatch.setattr(sys, "executable", str(python))
    probing = ProbeProcess.start(options(), {}, Deadline(10))
    report = probing.report(Meta(generator="test"))
    lost = report.result(CPU)
    assert isinstance(lost, Missing) and lost.status == "error"
    assert lost.reason == "its probe was lost: the probe process ended with status 3"


def test_a_started_probe_process_s_lines_arrive_as_they_are_sent(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Without fork the pipe is read raw: a buffered read(64 KiB) would hold every fact until the process ended,
    and a probe process killed at the deadline would take all of them with it."""
    shadow = tmp_path / "shadow" / "torch"  # an `import torch` that hangs: the probe process waits for it
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("import time\ntime.sleep(600)\n")
    monkeypatch.delattr(os, "fork", raising=False)
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(shadow.parent)}
    probing = ProbeProcess.start(options(sys.executable, timeout=20.0), env, Deadline(20))
    start = time.monotonic()
    first = probing.pipe.read(65536)
    assert first.startswith(b'{"probes"') and time.monotonic() - start < 10.0
    assert probing.proc.poll() is None, "read while the probe process still waits for torch"
    probing.proc.kill()
    probing.proc.wait()
    probing.pipe.close()
    for pid in json.loads(first.split(b"\n", 1)[0])["children"]:  # the hanging torch child, in its own group
        kill_group_of(pid)
