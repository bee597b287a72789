"""Smoke tests, each in its own process with its own timeout, forked from the torch child.

A runner process is forked before the torch child touches CUDA; it never touches CUDA itself, so it can fork one
fresh process per test (CUDA state does not survive fork). Results come back as JSON lines on a pipe. Stdlib +
torch only, Python >= 3.8.
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import tempfile
import time
import traceback

QUICK = ("smoke.matmul_bf16",)
DEEP = ("smoke.matmul_bf16", "smoke.fp8", "smoke.sdpa_flash", "smoke.p2p", "smoke.nccl")
TIMEOUTS = {
    "smoke.matmul_bf16": 20.0,
    "smoke.fp8": 20.0,
    "smoke.sdpa_flash": 20.0,
    "smoke.p2p": 30.0,
    "smoke.nccl": 60.0,
}


class Skip(Exception):
    """The test does not apply here; the message says why."""


class Smoke:
    def __init__(self, pid: int, reader: int, tests: tuple[str, ...], deadline: float) -> None:
        self.pid, self.reader, self.tests, self.deadline = pid, reader, tests, deadline

    def finish(self, emit: object) -> None:
        """Relay the runner's results; whatever has not arrived by the deadline is reported as a timeout."""
        done: set[str] = set()
        for line in _lines(self.reader, self.deadline):
            entry = json.loads(line)
            done.add(entry["key"])
            emit(**entry)  # type: ignore[operator]
        for key in self.tests:
            if key not in done:
                emit(key=key, missing="no result within the smoke-test time limit", status="timeout")  # type: ignore[operator]
        _kill(self.pid)


def tests_for(options: dict[str, object]) -> tuple[str, ...]:
    return DEEP if options.get("smoke") == "deep" else QUICK


def start(torch: object, options: dict[str, object]) -> Smoke:
    tests = tests_for(options)
    budget = float(options.get("smoke_seconds", sum(TIMEOUTS[test] for test in tests)))  # type: ignore[arg-type]
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the runner
        os.close(reader)
        try:
            _run_all(torch, tests, options.get("smoke") == "deep", writer)
        finally:
            os._exit(0)
    os.close(writer)
    return Smoke(pid, reader, tests, time.monotonic() + budget)


def _run_all(torch: object, tests: tuple[str, ...], deep: bool, out: int) -> None:
    for key in tests:
        started = time.monotonic()
        entry = _run_one(torch, key, deep)
        entry["seconds"] = round(time.monotonic() - started, 3)
        os.write(out, (json.dumps(entry) + "\n").encode())


def _run_one(torch: object, key: str, deep: bool) -> dict[str, object]:
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(reader)
        try:
            os.write(writer, json.dumps(_guarded(torch, key, deep)).encode())
        finally:
            os._exit(0)
    os.close(writer)
    text = "".join(_lines(reader, time.monotonic() + TIMEOUTS[key], keep_partial=True))
    status = _kill(pid)
    if text:
        result: dict[str, object] = json.loads(text)
        result["key"] = key
        return result
    if status is None:
        return {"key": key, "missing": f"did not finish within {TIMEOUTS[key]:.0f} s", "status": "timeout"}
    return {"key": key, "missing": f"test process died: {_describe(status)}", "status": "error"}


def _guarded(torch: object, key: str, deep: bool) -> dict[str, object]:
    import envtriage_checks

    try:
        value = envtriage_checks.CHECKS[key](torch, deep)
    except Skip as exc:
        return {"missing": str(exc), "status": "skipped"}
    except BaseException as exc:
        where = traceback.extract_tb(exc.__traceback__)[-1]
        text = "%s: %s (at %s:%s)" % (type(exc).__name__, str(exc).strip()[:2000], where.name, where.lineno)
        return {"value": {"passed": False, "detail": text}, "source": "torch smoke test"}
    return {"value": value, "source": "torch smoke test"}


def _lines(fd: int, deadline: float, keep_partial: bool = False) -> list[str]:
    buffer, lines = b"", []  # type: tuple[bytes, list[str]]
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            break
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        buffer += chunk
        *complete, buffer = buffer.split(b"\n")
        lines.extend(line.decode() for line in complete if line)
    os.close(fd)
    if keep_partial and buffer:
        lines.append(buffer.decode())
    return lines


def _kill(pid: int) -> int | None:
    """Reap a finished child, or kill it; returns its wait status, or None if it had to be killed."""
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        return status
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass
    return None


def _describe(status: int) -> str:
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        return "signal %d (%s)" % (number, signal.Signals(number).name)
    return "exit status %d" % os.WEXITSTATUS(status)


def scratch_dir() -> str:
    """A private directory for NCCL's rendezvous file, removed by the caller."""
    return tempfile.mkdtemp(prefix="envtriage-")


if __name__ == "__main__":
    sys.exit("this module is imported by torch_child.py")
