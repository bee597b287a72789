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
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import selectors
import signal
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from collector.run import Deadline, describe_exit, start_interpreter_children

if TYPE_CHECKING:  # the report model is imported after the fork, in each process, not before it in both
    from collector.context import Options
    from collector.report import Meta, Missing, Report, Result

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
        from collector.report import decode_facts

        for probe, names in message.get("probes", {}).items():
            self.probe_of.update((name, probe) for name in names)
        self.children.extend(message.get("children", []))
        for name, result in decode_facts(message.get("facts", {})).items():
            self.facts.setdefault(name, result)
        self.done = self.done or message.get("done") is True


class ProbeProcess:
    def __init__(self, pid: int, fd: int, deadline: Deadline) -> None:
        self.pid = pid
        self.fd = fd
        self.deadline = deadline
        self.started = time.monotonic()
        self.closed = False  # the probe process closed its end of the pipe (it exited, or crashed)

    @classmethod
    def start(cls, options: Options, env: dict[str, str], deadline: Deadline) -> ProbeProcess | None:
        """Fork the probe process; None where the platform has no fork (the caller probes in threads)."""
        if not hasattr(os, "fork"):
            return None
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
        return cls(pid, read_fd, deadline)

    def report(self, meta: Meta) -> Report:
        """Every fact the probe process sent, and for each it did not, a Missing saying why."""
        from collector.report import Report, in_schema_order
        from collector.schema import KEYS

        received = Received()
        try:
            for message in self._messages():
                try:
                    received.take(message)
                except (ValueError, TypeError, AttributeError):  # a bug, never a reason to lose the rest
                    continue
                if received.done:
                    break
        finally:
            os.close(self.fd)
        duration = round(time.monotonic() - self.started, 3)
        if received.done:
            threading.Thread(target=os.waitpid, args=(self.pid, 0), name="reap probes", daemon=True).start()
            why: Missing | None = None
        else:
            why = self._stop(received, duration)
        facts = {name: received.facts.get(name) or _missing(why, received, name) for name in KEYS}
        meta = dataclasses.replace(meta, duration_seconds=duration)
        return Report(meta=meta, facts=in_schema_order(facts))

    def _messages(self) -> Iterator[dict[str, Any]]:
        pending = b""
        with selectors.DefaultSelector() as selector:
            selector.register(self.fd, selectors.EVENT_READ)
            while True:
                if not selector.select(max(0.0, self.deadline.remaining() + GRACE_SECONDS)):
                    return
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    self.closed = True
                    return
                *lines, pending = (pending + chunk).split(b"\n")
                for line in lines:
                    try:
                        message = json.loads(line)
                    except ValueError:
                        continue
                    yield message

    def _stop(self, received: Received, duration: float) -> Missing:
        """The probe process ended early or overstayed: kill what is left and say what happened."""
        from collector.report import Missing

        # The pipe closes a moment before the exited process can be waited for; one that closed it and lives on
        # is killed like one that overstayed.
        ended, code = _ended(self.pid, within=1.0 if self.closed else 0.0)
        if ended:
            reason = f"was lost: the probe process ended with {describe_exit(code)}"
            why = Missing(reason, status="error", seconds=duration)
        else:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)
            reason = f"did not finish within the {self.deadline.seconds:g} s deadline (--timeout)"
            why = Missing(reason, status="timeout", seconds=duration)
        for child in received.children:  # the interpreter's children and their smoke tests, in groups of their own
            try:
                os.killpg(child, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        return why


def _ended(pid: int, within: float) -> tuple[bool, int | None]:
    """Whether the process has ended (waiting up to `within` seconds), and its exit code: negative for a signal,
    None where it cannot be read (reaped elsewhere, as where SIGCHLD is ignored)."""
    end = time.monotonic() + within
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return True, None
        if done:
            return True, os.waitstatus_to_exitcode(status)
        if time.monotonic() >= end:
            return False, None
        time.sleep(0.005)


def _missing(why: Missing | None, received: Received, name: str) -> Missing:
    from collector.report import Missing

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
            from collector.report import encode_facts

            try:
                self._write({"facts": encode_facts(facts)})
            except OSError:  # the collector is gone (killed, or its reader closed): nobody is listening
                self.closed = True

    def finish(self, report: Report) -> None:
        """The facts not sent yet (the probes past the deadline, which collect() gave up on), then done."""
        from collector.report import encode_facts

        with self.lock:
            self.closed = True
            self._write({"facts": encode_facts({n: r for n, r in report.facts.items() if n not in self.sent})})
            self._write({"done": True})

    def _write(self, message: dict[str, Any]) -> None:
        self.out.write(json.dumps(message, ensure_ascii=False) + "\n")
        self.out.flush()
