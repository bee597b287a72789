"""`python -m bot`: triage a report offline, query the matrix (the service commands come with the bot extra)."""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.diagnosis.matrix import MatrixError
from bot.diagnosis.matrix import default as default_matrix
from bot.diagnosis.matrix import query as cli_matrix
from bot.diagnosis.plan import Plan, triage
from collector import templating
from collector.report import codec
from collector.report.model import to_json_obj

MAX_INPUT = 5 * 1024 * 1024  # GitHub caps a body at 65,536 characters; a paste file may hold a few


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot", description="envtriage: diagnose GPU/PyTorch environments")
    commands = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    t = commands.add_parser("triage", help="diagnose a report or issue text; print the findings and the comment")
    t.add_argument("file", nargs="?", default="-", help="a file holding the issue body or report ('-': stdin)")
    t.add_argument("--title", default="", help="the issue title")
    t.add_argument("--json", action="store_true", help="print labels, findings, facts and comment as JSON")
    t.add_argument("--db", metavar="URL", help="a duplicate index (sqlite:///index.db, postgresql://...): list "
                   "the issues it holds that look like this one")  # fmt: skip
    t.add_argument("--record", type=int, metavar="NUMBER", help="with --db: add this text to the index as issue NUMBER")
    t.add_argument("--repo", default="local", metavar="OWNER/REPO", help="with --db: the repository's index to use")
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
    b = commands.add_parser("backfill", help="load a repository's existing issues into the duplicate index")
    b.add_argument("repo", metavar="OWNER/REPO")
    b.add_argument("--since", type=since_date, metavar="DATE", help="only issues updated since (YYYY-MM-DD[THH:MM])")
    b.add_argument("--triage", action="store_true", help="also triage every open issue (labels, comment)")
    b.add_argument("--dry-run", action="store_true", help="with --triage: log the writes instead of making them")
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    r = commands.add_parser("report", help="write the maintainer dashboard to an HTML file, from the database")
    r.add_argument("repo", nargs="?", metavar="OWNER/REPO", help="one repository (default: all in the database)")
    r.add_argument("--html", required=True, metavar="FILE")
    r.add_argument("--since", metavar="DATE", help="issues opened on or after (YYYY-MM-DD)")
    r.add_argument("--until", metavar="DATE", help="issues opened on or before (YYYY-MM-DD)")
    return p


def since_date(text: str) -> datetime.datetime:
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date like 2025-01-31 or 2025-01-31T12:00") from exc
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.timezone.utc)


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
    if args.record is not None and not args.db:
        raise SystemExit("python -m bot triage: --record needs --db URL (the index to add the issue to)")
    text = read_input(args.file)
    matrix = default_matrix()
    plan, recorded = triage(matrix, text, title=args.title), None
    if args.db:
        from bot.insights.dedupe.local import with_duplicates

        plan, recorded = with_duplicates(plan, text, matrix, args.db, args.repo, args.record)
    if args.json:
        data = plan_json(plan)
        if args.db:
            data["duplicates"] = [{"number": d.number, "score": d.score, "evidence": d.evidence, "title": d.title,
                                   "state": d.state} for d in plan.duplicates]  # fmt: skip
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(templating.render("triage.txt.j2", plan=plan, recorded=recorded))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.command == "triage":
            return run_triage(args)
        if args.command == "matrix":
            return cli_matrix.run(default_matrix(), args.torch, as_json=args.json)
        from bot.service import commands  # the service's dependencies (FastAPI, PyGithub, huey) load only here

        handler = {"serve": commands.serve, "worker": commands.worker, "jobs": commands.jobs, "action": commands.action,
                   "backfill": commands.backfill, "report": commands.report}  # fmt: skip
        return handler[args.command](args)
    except MatrixError as exc:
        sys.stderr.write(f"python -m bot: the packaged compatibility matrix is broken: {exc}\n")
        return 3


if __name__ == "__main__":
    sys.exit(main())
