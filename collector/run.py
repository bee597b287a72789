"""Running commands and child processes under timeouts and one global deadline.

Every child is started in its own process group so that a timeout kills the whole tree (nvidia-smi and conda
fork helpers that inherit the pipes; killing only the parent would leave `communicate()` waiting on them).
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class CommandResult:
    argv: tuple[str, ...]
    returncode: int | None
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False
    not_found: bool = False

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out

    def failure(self) -> str:
        """One line saying why the command did not give an answer."""
        name = self.argv[0] if self.argv else "command"
        if self.not_found:
            return f"{name} not found"
        if self.timed_out:
            return f"`{' '.join(self.argv)}` did not finish within {self.seconds:.1f} s"
        detail = (self.stderr or self.stdout).strip().splitlines()
        tail = detail[-1] if detail else "no output"
        return f"`{' '.join(self.argv)}` exited with {describe_exit(self.returncode)}: {tail}"


# Windows ends a crashed process with the NTSTATUS of its exception as the exit status (3221225477 = 0xC0000005).
NTSTATUS = {
    0xC0000005: "access violation",
    0xC000001D: "illegal instruction",
    0xC00000FD: "stack overflow",
    0xC0000135: "DLL not found",
    0xC0000139: "DLL entry point not found",
    0xC0000142: "DLL initialisation failed",
    0xC0000409: "fail-fast exception",
}


def describe_exit(returncode: int | None) -> str:
    if returncode is None:
        return "no status"
    if returncode >= 0xC0000000:
        return f"status 0x{returncode:08X} ({NTSTATUS.get(returncode, 'a Windows exception')})"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"signal {-returncode} ({name})"
    return f"status {returncode}"


class Runner(Protocol):
    def __call__(self, argv: Sequence[str], timeout: float) -> CommandResult: ...


class Deadline:
    """The report's global time budget; every timeout is clamped to what is left of it."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def remaining(self) -> float:
        return max(0.0, self.end - time.monotonic())

    def clamp(self, timeout: float) -> float:
        return max(0.05, min(timeout, self.remaining()))

    @property
    def expired(self) -> bool:
        return time.monotonic() >= self.end


class ProcessGroups:
    """Children still running, so the deadline can kill whatever is left."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: set[subprocess.Popen[bytes]] = set()

    def add(self, proc: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._live.add(proc)

    def discard(self, proc: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._live.discard(proc)

    def kill_all(self) -> None:
        with self._lock:
            live = list(self._live)
        for proc in live:
            kill_group(proc)


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    kill_group_of(proc.pid)
    try:
        proc.kill()
    except OSError:
        pass


def kill_group_of(pid: int) -> None:
    """Kill the process group a child leads (it was started in a session of its own, with its smoke tests)."""
    if not hasattr(os, "killpg"):  # Windows
        from collector.pipes import kill_tree

        kill_tree(pid)
        return
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def command_env(base: Mapping[str, str]) -> dict[str, str]:
    """The environment for probe commands: the user's, in the C locale, with pip's self-check off."""
    env = dict(base)
    env.update({"LC_ALL": "C", "LANG": "C", "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHONDONTWRITEBYTECODE": "1"})
    return env


class SubprocessRunner:
    """Runs argv lists (never a shell) with a timeout, within the deadline."""

    def __init__(self, deadline: Deadline, env: Mapping[str, str], groups: ProcessGroups | None = None) -> None:
        self.deadline = deadline
        self.env = command_env(env)
        self.groups = groups or ProcessGroups()

    def __call__(self, argv: Sequence[str], timeout: float) -> CommandResult:
        args = tuple(argv)
        limit = self.deadline.clamp(timeout)
        start = time.monotonic()
        try:
            proc = subprocess.Popen(
                args,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=self.env,
                start_new_session=True,
            )
        except (FileNotFoundError, PermissionError, NotADirectoryError):
            return CommandResult(args, None, "", "", time.monotonic() - start, not_found=True)
        self.groups.add(proc)
        try:
            out, err = proc.communicate(timeout=limit)
            timed_out = False
        except subprocess.TimeoutExpired:
            kill_group(proc)
            out, err = b"", b""
            timed_out = True
        finally:
            self.groups.discard(proc)
        # Killed by the deadline's sweep (ProcessGroups.kill_all) rather than by our own timeout.
        timed_out = timed_out or (proc.returncode is not None and proc.returncode < 0 and self.deadline.expired)
        return CommandResult(
            args,
            None if timed_out else proc.returncode,
            _text(out),
            _text(err),
            time.monotonic() - start,
            timed_out=timed_out,
        )


CHILD_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "child")


def child_script(script: str) -> list[str]:
    """The arguments that make the target interpreter run one of collector/child/*.py.

    Inside the one-file collector's zip archive (collector/bundle.py) a script has no file of its own to run: the
    interpreter imports it from the archive instead, the archive's child/ folder first on sys.path where the
    script's own folder would be (the scripts import each other) and the current directory left off it.
    """
    path = os.path.join(CHILD_DIR, script)
    if os.path.isfile(path):
        return [path]
    code = (
        "import runpy, sys\n"
        "if sys.path[:1] == ['']: del sys.path[0]\n"
        f"sys.path.insert(0, {CHILD_DIR!r})\n"
        f"runpy.run_module({os.path.splitext(script)[0]!r}, run_name='__main__', alter_sys=True)\n"
    )
    return ["-c", code]


def start_child(python: str, script: str, options: dict[str, str], env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """Start one of collector/child/*.py in the target interpreter, in its own process group."""
    argv = [python, *child_script(script), json.dumps(options)]
    child_env = {**env, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=child_env,
        start_new_session=True,
    )


def start_interpreter_children(python: str, smoke: str, env: Mapping[str, str]) -> dict[str, subprocess.Popen[bytes]]:
    """The target interpreter's two children, started before anything else: `import torch` is the floor of the
    collector's run time, and listing the installed distributions is the longest of the other probes."""
    started = {}
    for script, options in (("torch_child.py", {"smoke": smoke}), ("packages_child.py", {})):
        try:
            started[script] = start_child(python, script, options, env)
        except OSError:
            pass  # the probe tries again and reports why the interpreter cannot run
    return started


@dataclass(frozen=True)
class ChildOutput:
    stdout: bytes
    stderr: bytes
    timed_out: bool
    returncode: int | None  # None when the child was left to die after its last line, or killed


def read_child(proc: subprocess.Popen[bytes], timeout: float, last_line: bytes) -> ChildOutput:
    """Read a child's stdout and stderr until its stdout ends with `last_line`, both pipes close, or the timeout.

    A child that has imported torch spends half a second *exiting* on an H200 (Python's teardown of thousands of
    modules, the CUDA driver's own cleanup) after it has said all it will say: the report does not wait for
    that. Once the last line is in, the child's process group is killed and reaped in the background.
    """
    if os.name == "nt":  # select() takes only sockets there
        from collector.pipes import read_child_threaded

        return read_child_threaded(proc, timeout, last_line)
    assert proc.stdout is not None and proc.stderr is not None
    buffers = {proc.stdout.fileno(): bytearray(), proc.stderr.fileno(): bytearray()}
    out, err = buffers[proc.stdout.fileno()], buffers[proc.stderr.fileno()]
    end = time.monotonic() + timeout
    with selectors.DefaultSelector() as selector:
        for pipe in (proc.stdout, proc.stderr):
            selector.register(pipe, selectors.EVENT_READ)
        while selector.get_map() and not out.endswith(last_line):
            left = end - time.monotonic()
            if left <= 0:
                kill_group(proc)
                _drain(selector, buffers, 1.0)  # what the child wrote just before the kill is kept
                _close(proc, reap=True)
                return ChildOutput(bytes(out), bytes(err), True, None)
            _read_ready(selector, buffers, left)
    returncode = None
    if not out.endswith(last_line):  # both pipes closed: the child exited or crashed, and its status says how
        try:
            returncode = proc.wait(timeout=max(0.05, end - time.monotonic()))
        except subprocess.TimeoutExpired:  # it closed its pipes but lives on
            kill_group(proc)
            _close(proc, reap=True)
            return ChildOutput(bytes(out), bytes(err), True, None)
    kill_group(proc)  # after the last line: the child itself, and any smoke-test process outliving its runner
    _close(proc, reap=returncode is None)
    return ChildOutput(bytes(out), bytes(err), False, returncode)


def _read_ready(selector: selectors.BaseSelector, buffers: dict[int, bytearray], wait: float) -> None:
    for key, _ in selector.select(wait):
        chunk = os.read(key.fd, 65536)
        if chunk:
            buffers[key.fd] += chunk
        else:
            selector.unregister(key.fileobj)


def _drain(selector: selectors.BaseSelector, buffers: dict[int, bytearray], seconds: float) -> None:
    end = time.monotonic() + seconds
    while selector.get_map() and time.monotonic() < end:
        _read_ready(selector, buffers, end - time.monotonic())


def _close(proc: subprocess.Popen[bytes], reap: bool) -> None:
    for pipe in (proc.stdout, proc.stderr):
        if pipe is not None:
            pipe.close()
    if reap:  # a killed child still takes its time to go; nobody waits for it
        threading.Thread(target=proc.wait, name=f"reap {proc.pid}", daemon=True).start()


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")
