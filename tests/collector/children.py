"""Real child processes that misbehave on purpose, for the pipe readers' tests (test_run.py: select();
test_pipes.py: threads, as on Windows)."""

from __future__ import annotations

import subprocess
import sys

LAST = b"@@test done\n"  # the line a well-behaved child ends with


def child(code: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # POSIX: a group of its own for kill_group; Windows ignores it
    )
