"""`python -m bot`: triage a report offline, query the matrix (the service commands come with the bot extra)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from bot import cli_matrix
from bot.matrix import MatrixError
from bot.matrix import default as default_matrix
from bot.triage import Plan, triage
from collector import codec, templating
from collector.report import to_json_obj

MAX_INPUT = 5 * 1024 * 1024  # GitHub caps a body at 65,536 characters; a paste file may hold a few


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot", description="envtriage: diagnose GPU/PyTorch environments")
    commands = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    t = commands.add_parser("triage", help="diagnose a report or issue text; print the findings and the comment")
    t.add_argument("file", nargs="?", default="-", help="a file holding the issue body or report ('-': stdin)")
    t.add_argument("--title", default="", help="the issue title")
    t.add_argument("--json", action="store_true", help="print labels, findings, facts and comment as JSON")
    m = commands.add_parser("matrix", help="what a torch wheel needs and runs on")
    m.add_argument("--torch", required=True, metavar="VERSION", help='e.g. "2.7.1+cu128" or "2.7.1" (default variant)')
    m.add_argument("--json", action="store_true")
    s = commands.add_parser("serve", help="the webhook service (FastAPI on uvicorn) with its embedded worker")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--dry-run", action="store_true", help="read GitHub, log every write instead of making it")
    w = commands.add_parser("worker", help="a standalone worker (scaled out: Redis queue, PostgreSQL state)")
    w.add_argument("--threads", type=int, default=2)
    w.add_argument("--dry-run", action="store_true")
    j = commands.add_parser("jobs", help="deliveries by state and the dead letters")
    j.add_argument("--retry", nargs="+", metavar="DELIVERY_ID", help="put these dead letters back in the queue")
    a = commands.add_parser("action", help="GitHub Action mode: handle this workflow run's event once")
    a.add_argument("--dry-run", action="store_true")
    return p


def read_input(name: str) -> str:
    try:
        data = sys.stdin.buffer.read(MAX_INPUT + 1) if name == "-" else Path(name).read_bytes()[: MAX_INPUT + 1]
    except OSError as exc:
        raise SystemExit(f"python -m bot triage: cannot read {name}: {exc.strerror or exc}") from exc
    if len(data) > MAX_INPUT:
        raise SystemExit(f"python -m bot triage: {name} is larger than {MAX_INPUT // (1024 * 1024)} MiB")
    return data.decode("utf-8", errors="replace")


def plan_json(plan: Plan) -> dict[str, object]:
    return {
        "labels": plan.labels,
        "findings": [
            {"id": f.id, "category": f.category, "severity": f.severity, "title": f.title, "fix": f.fix,
             "evidence": f.evidence}
            for f in plan.findings
        ],
        "facts": to_json_obj(plan.case.report)["facts"],
        "errors": [codec.encode(quote) for quote in plan.case.errors],
        "comment": plan.comment,
    }  # fmt: skip


def run_triage(args: argparse.Namespace) -> int:
    text = read_input(args.file)
    plan = triage(default_matrix(), text, title=args.title)
    if args.json:
        sys.stdout.write(json.dumps(plan_json(plan), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(templating.render("triage.txt.j2", plan=plan))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.command == "triage":
            return run_triage(args)
        if args.command == "matrix":
            return cli_matrix.run(default_matrix(), args.torch, as_json=args.json)
        from bot import commands  # the service's dependencies (FastAPI, PyGithub, huey) load only here

        handler = {"serve": commands.serve, "worker": commands.worker, "jobs": commands.jobs, "action": commands.action}
        return handler[args.command](args)
    except MatrixError as exc:
        sys.stderr.write(f"python -m bot: the packaged compatibility matrix is broken: {exc}\n")
        return 3


if __name__ == "__main__":
    sys.exit(main())
