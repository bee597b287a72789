"""What a change does to `tune`, issue by issue, with the fallback held out: the check behind every rule kept.

    python -m tests.bot.tune_diff save before.json     # tune through the whole diagnosis, fallback held out
    ... change a row, a cue, a reader ...
    python -m tests.bot.tune_diff save after.json
    python -m tests.bot.tune_diff compare before.json after.json

`save` runs learned_fit.held_out_tune (each issue's fallback fitted without its repository: the shipped model has
seen every tune issue, and would fill any gap a removed rule leaves with what it remembers) and writes each issue's
label, top category and whether it got an error. `compare` lists the environment cases gained and lost and the fine
issues whose error came or went. `tune` only: the locked `test` split is run as a whole (tests.bot.corpus).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tests.bot.corpus import Result

Snapshot = dict[str, tuple[str, str | None, bool]]  # url -> (label, top category, any error finding)


def snapshot(results: list[Result]) -> Snapshot:
    return {
        r.issue.url: (r.issue.category, r.top_category, any(f.severity == "error" for f in r.findings)) for r in results
    }


def compare(before: Snapshot, after: Snapshot) -> list[str]:
    """One line per issue that changed for the better or the worse, then the count."""
    lines, gained, lost = [], 0, 0
    for url in sorted(before.keys() & after.keys()):
        (label, was, erred), (_, now, errs) = before[url], after[url]
        if label == "fine":
            if erred != errs:
                lines.append(f"FINE {'error now' if errs else 'error gone'} ({was} -> {now}) {url}")
            continue
        if (was == label) != (now == label):
            gained, lost = gained + (now == label), lost + (was == label)
            lines.append(f"{'GAIN' if now == label else 'LOSS'} {label}: {was} -> {now} {url}")
    return [*lines, f"gained {gained}, lost {lost} of {sum(v[0] != 'fine' for v in after.values())} environment cases"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.tune_diff", description=__doc__.splitlines()[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    verbs.add_parser("save", help="tune, fallback held out, to a JSON file").add_argument("path", type=Path)
    comparing = verbs.add_parser("compare", help="what changed between two saved runs")
    comparing.add_argument("before", type=Path)
    comparing.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.verb == "save":
        from tests.bot.learned_fit import held_out_tune

        args.path.write_text(json.dumps(snapshot(held_out_tune()), indent=0), encoding="utf-8")
        return 0
    loaded = [{url: tuple(v) for url, v in json.loads(p.read_text(encoding="utf-8")).items()}
              for p in (args.before, args.after)]  # fmt: skip
    print("\n".join(compare(*loaded)))  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
