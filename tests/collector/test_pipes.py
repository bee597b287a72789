"""collector/pipes.py, Windows' read_child: the same real misbehaving children as test_run.py, read by threads.

These run on every OS (on Windows for real, elsewhere the threads read the same pipes select() would); the
dispatch from read_child and Windows' tree kill are checked with the OS calls faked.
"""

from __future__ import annotations

import os
import subprocess
import time
from typing import Any

import pytest

from collector import pipes, run
from collector.pipes import read_child_threaded
from tests.collector.children import LAST, child


def lines(text: bytes) -> bytes:
    return text.replace(b"\r\n", b"\n")  # Windows' text-mode stdout


def test_stops_at_the_last_line_while_the_child_lingers() -> None:
    proc = child("import sys, time\nprint('fact'); print('@@test done', flush=True)\ntime.sleep(60)\n")
    start = time.monotonic()
    output = read_child_threaded(proc, 30.0, LAST)
    assert time.monotonic() - start < 10.0
    assert lines(output.stdout) == b"fact\n" + LAST and not output.timed_out and output.returncode is None
    assert proc.wait(timeout=10.0) != 0  # killed, not left behind to sleep


def test_reads_both_pipes_to_the_end_without_blocking_on_either() -> None:
    code = "import sys\nsys.stderr.write('e' * 1_000_000)\nsys.stdout.write('o' * 1_000_000)\nsys.exit(3)\n"
    output = read_child_threaded(child(code), 30.0, LAST)
    assert (len(output.stdout), len(output.stderr), output.returncode, output.timed_out) == (10**6, 10**6, 3, False)


def test_a_crash_keeps_its_status_and_what_came_before() -> None:
    output = read_child_threaded(child("import os\nprint('before', flush=True)\nos._exit(7)\n"), 30.0, LAST)
    assert lines(output.stdout) == b"before\n" and output.returncode == 7 and not output.timed_out


def test_timeout_keeps_what_was_printed() -> None:
    proc = child("import time\nprint('partial', flush=True)\ntime.sleep(60)\n")
    start = time.monotonic()
    output = read_child_threaded(proc, 1.0, LAST)
    assert time.monotonic() - start < 4.0
    assert lines(output.stdout) == b"partial\n" and output.timed_out and output.returncode is None
    assert proc.wait(timeout=10.0) != 0


def test_read_child_takes_the_threads_where_pipes_cannot_be_selected(monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[Any] = []

    def threaded(*args: Any) -> str:
        used.append(args)
        return "threaded"

    monkeypatch.setattr(pipes, "read_child_threaded", threaded)
    monkeypatch.setattr(os, "name", "nt")
    assert run.read_child(None, 1.0, LAST) == "threaded"  # type: ignore[arg-type,comparison-overlap]
    assert used == [(None, 1.0, LAST)]


def test_without_process_groups_the_tree_is_ended_by_taskkill(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []
    monkeypatch.delattr(os, "killpg", raising=False)
    monkeypatch.setattr(subprocess, "run", lambda argv, **kwargs: calls.append(argv))
    run.kill_group_of(4242)
    assert calls == [["taskkill", "/F", "/T", "/PID", "4242"]]


def test_without_taskkill_the_caller_still_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(argv: list[str], **kwargs: Any) -> None:
        raise FileNotFoundError(argv[0])

    monkeypatch.setattr(subprocess, "run", missing)
    pipes.kill_tree(4242)  # no exception: kill_group then kills the child itself


@pytest.mark.parametrize(
    ("status", "said"),
    [
        (3221225477, "status 0xC0000005 (access violation)"),  # a segfault, Windows' way
        (3221225501, "status 0xC000001D (illegal instruction)"),  # AVX code on a CPU without AVX
        (3221226505, "status 0xC0000409 (fail-fast exception)"),
        (3221225794, "status 0xC0000142 (DLL initialisation failed)"),
        (3, "status 3"),
    ],
)
def test_windows_crash_statuses_are_named(status: int, said: str) -> None:
    assert run.describe_exit(status) == said


def test_a_windows_line_end_still_ends_the_read() -> None:
    code = "import sys, time\nsys.stdout.buffer.write(b'fact\\r\\n@@test done\\r\\n')\n"
    code += "sys.stdout.flush()\ntime.sleep(60)\n"
    start = time.monotonic()
    output = read_child_threaded(child(code), 30.0, LAST)
    assert time.monotonic() - start < 10.0 and output.stdout == b"fact\r\n@@test done\r\n" and not output.timed_out
