"""`python -m collector`: print an environment report to paste into a GPU/PyTorch bug report.

`import torch` is the floor of the collector's run time, so the torch child is started before anything heavier
than argparse is imported, by the probe process forked first thing; everything else happens while it imports.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from collector.run import Deadline

if TYPE_CHECKING:
    from collector.check import Engine
    from collector.context import Options, SmokeLevel
    from collector.report.model import Report


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m collector",
        description="Collect a private, paste-ready report of this machine's GPU / CUDA / PyTorch environment.",
    )
    smoke = p.add_mutually_exclusive_group()
    smoke.add_argument("--deep", action="store_true", help="run every smoke test (bf16, FP8, SDPA flash, P2P, NCCL)")
    smoke.add_argument("--no-smoke", action="store_true", help="run no smoke test (no GPU kernel is launched)")
    p.add_argument("--json", action="store_true", help="print only the machine-readable report (JSON)")
    p.add_argument("--python", default=sys.executable, metavar="PATH", help="interpreter whose torch to probe")
    p.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="S",
        help="global deadline in seconds (default 30; 120 with --deep)",
    )
    p.add_argument("--no-redact", action="store_true", help="keep host/user names, paths, IPs, UUIDs (private use)")
    p.add_argument("--check", action="store_true", help="also print the diagnosis (findings and fixes) to stderr")
    return p


def options_from(args: argparse.Namespace) -> Options:
    from collector.context import Options

    return Options(python=python_of(args), smoke=smoke_level(args), timeout=timeout_of(args), redact=not args.no_redact)


def python_of(args: argparse.Namespace) -> str:
    """A --python that cannot be started would give a report of nothing but failures: refused before anything."""
    python: str = args.python
    if any(sep and sep in python for sep in (os.sep, os.altsep)):
        found = os.path.isfile(python) and os.access(python, os.X_OK)
    else:
        import shutil  # a bare name (python3.8) is looked up on PATH as the child's start would

        found = shutil.which(python) is not None
    if not found:
        raise SystemExit(f"python -m collector: --python {python}: no executable interpreter there")
    return python


def timeout_of(args: argparse.Namespace) -> float:
    timeout: float = args.timeout if args.timeout is not None else (120.0 if args.deep else 30.0)
    if timeout <= 0:
        raise SystemExit("python -m collector: --timeout must be a positive number of seconds")
    return timeout


def smoke_level(args: argparse.Namespace) -> SmokeLevel:
    return "deep" if args.deep else "none" if args.no_smoke else "quick"


def warmed_up() -> Engine:
    """Jinja2 and the diagnosis engine imported, the template and the matrix loaded: done while the probes run in
    their own process. An engine that failed to load gives no verdicts; the report is the same."""
    from collector import markdown
    from collector.check import Engine

    markdown.prepare()
    engine = Engine()
    engine.load()
    return engine


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    options = options_from(args)  # refuses a bad --timeout before anything starts
    env = dict(os.environ)
    deadline = Deadline(options.timeout)
    report, engine = collected(options, env, deadline)
    from collector import markdown, templating
    from collector.check import verdicts
    from collector.report.model import to_json

    findings = engine.diagnose(report)
    utf8_output()
    sys.stdout.write(to_json(report, indent=2) + "\n" if args.json else markdown.render(report, verdicts(findings)))
    sys.stdout.flush()
    if args.check:
        sys.stderr.write(templating.render("check.txt.j2", findings=findings, loaded=engine.matrix is not None))
    return 0


def utf8_output() -> None:
    """Windows writes a redirected stdout (`> env.md`, a CI log) in its ANSI code page, which has no "≤" or "✅" (a
    UnicodeEncodeError after all the work): the report is UTF-8 wherever it goes, as GitHub reads it."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if encoding != "utf8" and hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8")


def collected(options: Options, env: dict[str, str], deadline: Deadline) -> tuple[Report, Engine]:
    """The redacted report and the diagnosis engine, each made while the other is: the probes run in a process
    of their own (collector/probe_process.py) while this one imports Jinja2 and the engine."""
    from collector.probe_process import ProbeProcess

    probing = ProbeProcess.start(options, env, deadline)  # before anything else: a fork copies only this thread
    engine = warmed_up()
    from collector.gather import meta_for, redacted

    return redacted(options, env, probing.report(meta_for(options))), engine


def leave(status: int) -> None:
    """Exit without Python's shutdown: a probe thread abandoned at the deadline may still sit in a driver call,
    and the teardown of what the report imported is a tenth of a run without torch spent on nothing."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # the reader went away early (`| head`): not all of the report got out
        status = status or 1
    os._exit(status)


if __name__ == "__main__":
    leave(main())
