"""Child processes where POSIX's tools are missing (Windows): pipes read by threads, process trees ended by taskkill.

select() on Windows takes only sockets, and a pipe has no non-blocking read; a thread per pipe, handing chunks to a
queue, gives `read_child` the same timeout and the same early stop at the child's last line. Imported only there
(and by the tests, which run it on Linux against real children).
"""

from __future__ import annotations

import os
import queue
import subprocess
import threading
import time
from typing import IO

from collector.run import ChildOutput, kill_group

STDOUT, STDERR = 0, 1
# What a child wrote just before it was killed still arrives; this long is waited for it.
DRAIN_SECONDS = 1.0


def kill_tree(pid: int) -> None:
    """End a child and every process it started: Windows has no process groups (start_new_session does nothing
    there), and TerminateProcess on the child alone leaves its own children holding the pipes open."""
    try:
        subprocess.run(
            ["taskkill", "/F", "/T", "/PID", str(pid)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=5.0,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        pass  # no taskkill, or it hung: the caller still kills the child itself


class Pumps:
    """One daemon thread per pipe, each reading until its pipe ends and then closing it."""

    def __init__(self, stdout: IO[bytes], stderr: IO[bytes]) -> None:
        self.chunks: queue.Queue[tuple[int, bytes]] = queue.Queue()
        self.buffers = (bytearray(), bytearray())
        self.open = 2
        for which, pipe in ((STDOUT, stdout), (STDERR, stderr)):
            threading.Thread(target=self._pump, args=(which, pipe), name=f"pipe {which}", daemon=True).start()

    def _pump(self, which: int, pipe: IO[bytes]) -> None:
        with pipe:
            while chunk := os.read(pipe.fileno(), 65536):
                self.chunks.put((which, chunk))
        self.chunks.put((which, b""))

    def ended_with(self, last_line: bytes | None) -> bool:
        # A Python child's text-mode stdout on Windows ends its lines with \r\n.
        out = self.buffers[STDOUT]
        if not last_line:
            return False
        return out.endswith(last_line) or out.endswith(last_line[:-1] + b"\r\n")

    def read_until(self, last_line: bytes | None, end: float) -> bool:
        """Take chunks until stdout ends with `last_line`, both pipes end, or `end` passes (then False)."""
        while self.open and not self.ended_with(last_line):
            try:
                which, chunk = self.chunks.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                return False
            if chunk:
                self.buffers[which].extend(chunk)
            else:
                self.open -= 1
        return True

    def output(self, timed_out: bool, returncode: int | None) -> ChildOutput:
        return ChildOutput(bytes(self.buffers[STDOUT]), bytes(self.buffers[STDERR]), timed_out, returncode)


def read_child_threaded(proc: subprocess.Popen[bytes], timeout: float, last_line: bytes) -> ChildOutput:
    """`collector.run.read_child` with threads instead of select(): the same answers, for the same reasons."""
    assert proc.stdout is not None and proc.stderr is not None
    pumps = Pumps(proc.stdout, proc.stderr)
    end = time.monotonic() + timeout
    if not pumps.read_until(last_line, end):
        kill_group(proc)
        pumps.read_until(None, time.monotonic() + DRAIN_SECONDS)
        _reap(proc)
        return pumps.output(True, None)
    returncode = None
    if not pumps.ended_with(last_line):  # both pipes ended: the child exited or crashed
        try:
            returncode = proc.wait(timeout=max(0.05, end - time.monotonic()))
        except subprocess.TimeoutExpired:  # it closed its pipes but lives on
            kill_group(proc)
            _reap(proc)
            return pumps.output(True, None)
    kill_group(proc)  # after the last line: the child and anything it started
    if returncode is None:
        _reap(proc)
    return pumps.output(False, returncode)


def _reap(proc: subprocess.Popen[bytes]) -> None:
    threading.Thread(target=proc.wait, name=f"reap {proc.pid}", daemon=True).start()
