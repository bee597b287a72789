"""collector/run.py's read_child: real child processes, each misbehaving in one way."""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from collector.run import kill_group, read_child
from tests.collector.children import LAST, child

# Windows reads pipes with threads (tests/collector/test_pipes.py runs these children there); these are about
# select(), signals and process groups.
pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX only: select() on pipes, signals, process groups")


def test_stops_at_the_last_line_while_the_child_lingers() -> None:
    proc = child("import sys, time\nprint('fact'); print('@@test done', flush=True)\ntime.sleep(60)\n")
    start = time.monotonic()
    output = read_child(proc, 30.0, LAST)
    assert time.monotonic() - start < 10.0
    assert output.stdout == b"fact\n" + LAST and not output.timed_out and output.returncode is None
    assert proc.wait(timeout=10.0) == -signal.SIGKILL  # the lingering child was killed, not left behind


def test_reads_both_pipes_to_the_end_without_blocking_on_either() -> None:
    code = "import sys\nsys.stderr.write('e' * 1_000_000)\nsys.stdout.write('o' * 1_000_000)\nsys.exit(3)\n"
    output = read_child(child(code), 30.0, LAST)
    assert (len(output.stdout), len(output.stderr), output.returncode, output.timed_out) == (10**6, 10**6, 3, False)


def test_a_crash_keeps_its_status_and_what_came_before() -> None:
    code = "import os, signal\nprint('before', flush=True)\nos.kill(os.getpid(), signal.SIGSEGV)\n"
    output = read_child(child(code), 30.0, LAST)
    assert output.stdout == b"before\n" and output.returncode == -signal.SIGSEGV and not output.timed_out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to tell a zombie from a live process")
def test_timeout_keeps_what_was_printed_and_kills_the_group() -> None:
    code = "import subprocess, time\nprint('partial', flush=True)\nsubprocess.Popen(['sleep', '60'])\ntime.sleep(60)\n"
    proc = child(code)
    start = time.monotonic()
    output = read_child(proc, 1.0, LAST)
    assert time.monotonic() - start < 4.0
    assert output.stdout == b"partial\n" and output.timed_out and output.returncode is None
    assert proc.wait(timeout=10.0) == -signal.SIGKILL
    try:
        os.killpg(proc.pid, 0)
        alive = True
    except ProcessLookupError:
        alive = False
    assert not alive or _only_zombies(proc.pid)


def test_a_child_that_closes_its_pipes_but_lives_on_times_out() -> None:
    proc = child("import os, time\nos.close(1); os.close(2)\ntime.sleep(60)\n")
    start = time.monotonic()
    output = read_child(proc, 1.0, LAST)
    assert time.monotonic() - start < 4.0
    assert output.timed_out and output.returncode is None
    kill_group(proc)
    proc.wait(timeout=10.0)


def _only_zombies(group: int) -> bool:
    """True when every process left in the group has exited and waits to be reaped by init."""
    states = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:  # field 5, pgrp, counted after the command name
            states.append(fields[0])
    return all(state == "Z" for state in states)
