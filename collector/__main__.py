"""`python -m collector`: print an environment report to paste into a GPU/PyTorch bug report."""

from __future__ import annotations

import argparse
import datetime
import getpass
import os
import socket
import sys
import threading
from collections.abc import Sequence

from collector.collect import collect
from collector.context import Context, NvmlSession, Options, load_pynvml
from collector.host import Host
from collector.probes import all_probes
from collector.redact import Redactor
from collector.report import Meta, Report, to_json
from collector.run import Deadline, ProcessGroups, SubprocessRunner
from collector.version import VERSION


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
    p.add_argument("--timeout", type=float, default=None, metavar="S",
                   help="global deadline in seconds (default 30, or 120 with --deep)")
    p.add_argument("--no-redact", action="store_true", help="keep host/user names, paths, IPs, UUIDs (private use)")
    p.add_argument("--check", action="store_true", help="also diagnose the report; findings go to stderr")
    return p


def options_from(args: argparse.Namespace) -> Options:
    level = "deep" if args.deep else "none" if args.no_smoke else "quick"
    timeout = args.timeout if args.timeout is not None else (120.0 if args.deep else 30.0)
    return Options(python=args.python, smoke=level, timeout=timeout, redact=not args.no_redact)


def gather(options: Options, env: dict[str, str]) -> Report:
    deadline = Deadline(options.timeout)
    groups = ProcessGroups()
    ctx = Context(
        run=SubprocessRunner(deadline, env, groups), host=Host("/"), env=env, options=options, deadline=deadline,
        nvml=NvmlSession(load_pynvml), groups=groups,
    )
    meta = Meta(
        generator=VERSION,
        created=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
        options={"smoke": options.smoke, "timeout": f"{options.timeout:g}", "python": options.python},
    )
    report = collect(ctx, all_probes(), meta)
    return redactor_for(env).report(report) if options.redact else report


def redactor_for(env: dict[str, str]) -> Redactor:
    host = socket.gethostname()  # never getfqdn(): that may ask DNS, and the collector makes no network call
    users = {env.get("USER", ""), env.get("LOGNAME", ""), env.get("SUDO_USER", "")}
    try:
        users.add(getpass.getuser())
    except (KeyError, OSError):
        pass
    homes = {env.get("HOME", ""), os.path.expanduser("~")}
    return Redactor(host_names={host, host.split(".")[0]}, user_names=users, homes=homes)


def _warm_up() -> None:
    """Import Jinja2 and compile the template while the probes wait on torch, off the critical path."""
    from collector import markdown

    markdown.prepare()


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    options = options_from(args)
    warm_up = threading.Thread(target=_warm_up, daemon=True)
    warm_up.start()
    report = gather(options, dict(os.environ))
    warm_up.join()
    from collector import markdown

    sys.stdout.write(to_json(report, indent=2) + "\n" if args.json else markdown.render(report))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
