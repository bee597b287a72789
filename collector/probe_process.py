"""The probes in a process of their own, forked at start, sending each probe's facts back as the probe returns.

Two reasons. The probes load C code into the process that runs them (libnvidia-ml and the driver, through NVML):
a crash there, such as a segfault in a libnvidia-ml that does not match the kernel module, used to end the whole
collector; now it costs the facts not yet sent, and the report says what the probe process died of. And the
probes' own Python (their imports, pynvml's, parsing) runs on a core of its own while the collector imports
Jinja2 and the diagnosis engine, where threads of one interpreter would take turns.

The probe process starts the target interpreter's children itself, first thing: only a process's parent can
read its exit status, and a crashed `import torch` is diagnosed by that status.

One JSON object per line: {"probes": {probe: [fact, ...]}, "children": [pid, ...]} first, then {"facts": {...}}
for each probe (the twin's encoding, not yet redacted: the parent redacts the whole report), then {"done": true}.

Where there is fork, the process is forked first thing (no interpreter to start, nothing imported twice); where
there is none (Windows), the same process is started as `python -m collector.probe_process`, its settings on stdin.
Either way it runs `serve` and speaks the same lines, read the same way.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any, Protocol

from collector.run import Deadline, describe_exit, kill_group_of, start_interpreter_children

if TYPE_CHECKING:  # the report model is imported after the fork, in each process, not before it in both
    from collector.context import Options
    from collector.report.model import Meta, Missing, Report, Result

# Past the deadline, the probe process's own collect() gives its probes 0.5 s more and then sends what it has:
# 1.5 s after the deadline it is killed, with the children it named, and the report goes out without it.
GRACE_SECONDS = 1.5


@dataclasses.dataclass
class Received:
    """What the probe process has said so far."""

    facts: dict[str, Result] = dataclasses.field(default_factory=dict)
    probe_of: dict[str, str] = dataclasses.field(default_factory=dict)  # fact name -> the probe that makes it
    children: list[int] = dataclasses.field(default_factory=list)
    done: bool = False

    def take(self, message: dict[str, Any]) -> None:
        from collector.report.model import decode_facts

        for probe, names in message.get("probes", {}).items():
            self.probe_of.update((name, probe) for name in names)
        self.children.extend(message.get("children", []))
        for name, result in decode_facts(message.get("facts", {})).items():
            self.facts.setdefault(name, result)
        self.done = self.done or message.get("done") is True


class ProbeProcess:
    def __init__(self, proc: Child, pipe: IO[bytes], deadline: Deadline) -> None:
        self.proc = proc
        self.pid = proc.pid
        self.pipe = pipe  # read, then closed, by one thread (_read_lines)
        self.deadline = deadline
        self.started = time.monotonic()
        self.closed = False  # the probe process closed its end of the pipe (it exited, or crashed)

    @classmethod
    def start(cls, options: Options, env: dict[str, str], deadline: Deadline) -> ProbeProcess:
        """Fork the probe process, or where there is no fork, start it as a new interpreter."""
        if not hasattr(os, "fork"):
            return cls._spawn(options, env, deadline)
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            status = 1
            try:
                serve(write_fd, options, env, deadline)
                status = 0
            finally:  # never back into the caller's code: a forked copy of a test runner would run its tests
                os._exit(status)
        os.close(write_fd)
        return cls(Forked(pid), os.fdopen(read_fd, "rb", buffering=0), deadline)

    @classmethod
    def _spawn(cls, options: Options, env: dict[str, str], deadline: Deadline) -> ProbeProcess:
        # The directory (or zip file) the collector was imported from, so the new interpreter finds it too.
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
        proc = subprocess.Popen(
            [sys.executable, "-m", "collector.probe_process"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": path},
            bufsize=0,  # a raw pipe: read() returns each probe's line as it comes, not when 64 KiB have
        )
        settings = {"options": dataclasses.asdict(options), "env": env, "seconds": deadline.remaining()}
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(json.dumps(settings).encode())
        except OSError:  # a process that died at once: its status says why
            pass
        finally:
            with contextlib.suppress(OSError):
                proc.stdin.close()
        return cls(proc, proc.stdout, deadline)

    def report(self, meta: Meta) -> Report:
        """Every fact the probe process sent, and for each it did not, a Missing saying why."""
        from collector.report.model import Report, in_schema_order
        from collector.report.schema import KEYS

        received = Received()
        for message in self._messages():
            try:
                received.take(message)
            except (ValueError, TypeError, AttributeError):  # a bug, never a reason to lose the rest
                continue
            if received.done:
                break
        duration = round(time.monotonic() - self.started, 3)
        if received.done:
            threading.Thread(target=self.proc.wait, name="reap probes", daemon=True).start()
            why: Missing | None = None
        else:
            why = self._stop(received, duration)
        facts = {name: received.facts.get(name) or _missing(why, received, name) for name in KEYS}
        meta = dataclasses.replace(meta, duration_seconds=duration)
        return Report(meta=meta, facts=in_schema_order(facts))

    def _messages(self) -> Iterator[dict[str, Any]]:
        """The probe process's messages until it closes the pipe or the deadline (and its grace) passes.

        The pipe is read in a thread: waiting on a pipe with a timeout has no portable call (select() takes only
        sockets on Windows), waiting on a queue does.
        """
        lines: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=_read_lines, args=(self.pipe, lines), name="probe pipe", daemon=True).start()
        while True:
            try:
                line = lines.get(timeout=max(0.0, self.deadline.remaining() + GRACE_SECONDS))
            except queue.Empty:
                return
            if line is None:
                self.closed = True
                return
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict):
                yield message

    def _stop(self, received: Received, duration: float) -> Missing:
        """The probe process ended early or overstayed: kill what is left and say what happened."""
        from collector.report.model import Missing

        # The pipe closes a moment before the exited process can be waited for; one that closed it and lives on
        # is killed like one that overstayed.
        ended, code = _ended(self.proc, within=1.0 if self.closed else 0.0)
        if ended:
            reason = f"was lost: the probe process ended with {describe_exit(code)}"
            why = Missing(reason, status="error", seconds=duration)
        else:
            self.proc.kill()
            self.proc.wait()
            reason = f"did not finish within the {self.deadline.seconds:g} s deadline (--timeout)"
            why = Missing(reason, status="timeout", seconds=duration)
        for child in received.children:  # the interpreter's children and their smoke tests, in groups of their own
            kill_group_of(child)
        return why


def _read_lines(pipe: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    """Every line until the pipe ends (the process exited or was killed), then None; the pipe is closed here, by
    the one thread that reads it, so its descriptor cannot be reused under a read."""
    pending = b""
    with pipe:
        while chunk := pipe.read(65536):
            *complete, pending = (pending + chunk).split(b"\n")
            for line in complete:
                lines.put(line)
    lines.put(None)


class Child(Protocol):
    """What the report needs of the probe process, forked or started: a subprocess.Popen has it all."""

    pid: int

    def poll(self) -> int | None: ...
    def wait(self, timeout: float | None = None) -> int: ...
    def kill(self) -> None: ...


class Forked:
    """A forked child, waited for as Popen waits for a started one."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.reaped_elsewhere = False  # where SIGCHLD is ignored, the kernel reaps it and its status is lost

    def poll(self) -> int | None:
        return self._wait(os.WNOHANG)

    def wait(self, timeout: float | None = None) -> int:
        code = self._wait(0)
        return 0 if code is None else code

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)

    def _wait(self, flags: int) -> int | None:
        if self.returncode is None and not self.reaped_elsewhere:
            try:
                done, status = os.waitpid(self.pid, flags)
            except ChildProcessError:
                self.reaped_elsewhere = True
                return None
            if done:
                # os.waitstatus_to_exitcode is 3.9+, and this runs on 3.8 too (collector/bundle.py)
                self.returncode = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        return self.returncode


def _ended(proc: Child, within: float) -> tuple[bool, int | None]:
    """Whether the process has ended (waiting up to `within` seconds), and its exit code: negative for a signal,
    None where it cannot be read (reaped elsewhere, as where SIGCHLD is ignored)."""
    end = time.monotonic() + within
    while True:
        code = proc.poll()
        if code is not None or getattr(proc, "reaped_elsewhere", False):
            return True, code
        if time.monotonic() >= end:
            return False, None
        time.sleep(0.005)


def _missing(why: Missing | None, received: Received, name: str) -> Missing:
    from collector.report.model import Missing

    if why is None:  # the probe process said it was done without this fact: a bug, said as such
        why = Missing("was not sent by the probe process", status="error")
    probe = received.probe_of.get(name, "its probe")
    return dataclasses.replace(why, reason=f"{probe} {why.reason}")


def serve(fd: int, options: Options, env: dict[str, str], deadline: Deadline) -> None:
    """The probe process: start the interpreter's children, run every probe, send each one's facts up the pipe."""
    started = start_interpreter_children(options.python, options.smoke, env)
    from collector.gather import probe_report
    from collector.probes import all_probes

    sender = Sender(os.fdopen(fd, "w", encoding="utf-8"))
    probes = all_probes()
    children = [proc.pid for proc in started.values()]
    sender.send({"probes": {probe.name: [key.name for key in probe.keys] for probe in probes}, "children": children})
    report = probe_report(options, env, deadline, started, on_result=sender.facts, probes=probes)
    sender.finish(report)


class Sender:
    """Writes messages from the probe threads, one line each; after finish() late probes are not heard."""

    def __init__(self, out: Any) -> None:
        self.out = out
        self.lock = threading.Lock()
        self.sent: set[str] = set()
        self.closed = False

    def send(self, message: dict[str, Any]) -> None:
        with self.lock:
            self._write(message)

    def facts(self, facts: dict[str, Result]) -> None:
        with self.lock:
            if self.closed:
                return
            self.sent.update(facts)
            from collector.report.model import encode_facts

            try:
                self._write({"facts": encode_facts(facts)})
            except OSError:  # the collector is gone (killed, or its reader closed): nobody is listening
                self.closed = True

    def finish(self, report: Report) -> None:
        """The facts not sent yet (the probes past the deadline, which collect() gave up on), then done."""
        from collector.report.model import encode_facts

        with self.lock:
            self.closed = True
            self._write({"facts": encode_facts({n: r for n, r in report.facts.items() if n not in self.sent})})
            self._write({"done": True})

    def _write(self, message: dict[str, Any]) -> None:
        self.out.write(json.dumps(message, ensure_ascii=False) + "\n")
        self.out.flush()


def main() -> None:
    """`python -m collector.probe_process`, where there is no fork: settings on stdin, messages on stdout."""
    from collector import bytecode

    bytecode.install()  # started from the one-file collector: its bytecode for this Python, as in the parent
    from collector.context import Options

    settings = json.loads(sys.stdin.buffer.read())
    options = Options(**settings["options"])
    out = os.dup(sys.stdout.fileno())
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # a stray print() must not break a line
    serve(out, options, settings["env"], Deadline(settings["seconds"]))


if __name__ == "__main__":
    main()
