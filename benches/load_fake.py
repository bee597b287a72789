"""The fake GitHub of a load run (benches/load.py), as tests/fakegithub/standalone.py serves it, with the first
--hostile issues holding hostile bodies (issue 15's list) instead of real issue texts.

  python benches/load_fake.py --repo O/R --issues 300 [--hostile 5]

Prints `<api url> <control url>`, then serves until killed (the control server: tests/fakegithub/standalone.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fakegithub.standalone import bodies, serve_seeded

# Bodies that took seconds to minutes of the worker's time (issue 15): runs the secret patterns backtracked on,
# a sea of carriage returns, bidi and zero-width marks.
HOSTILE = [
    ("runs of dashes", "-" * 65_536),
    ("dash and letter", "-a" * 32_768),
    ("ampersand, letter and dash", "&" + "a-" * 32_767),
    ("lines of dashes", ("-" * 1_999 + "\n") * 32),
    ("carriage returns", "\r" * 65_536),
    ("bidi and zero-width", "\u202e\u200ba\u2066b\u200d" * 13_000),
]


def issue_text(number: int, hostile: int, texts: list[tuple[str, str]]) -> tuple[str, str]:
    """Issue `number`'s title and body: a hostile one for the first `hostile` issues, else one of `texts` (real)."""
    if number <= hostile:
        return HOSTILE[(number - 1) % len(HOSTILE)]
    return texts[number % len(texts)]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repo", required=True)
    parser.add_argument("--issues", type=int, default=0)
    parser.add_argument("--hostile", type=int, default=0)
    args = parser.parse_args()
    texts = bodies()
    return serve_seeded(args.repo, args.issues, lambda number: issue_text(number, args.hostile, texts))


if __name__ == "__main__":
    raise SystemExit(main())
