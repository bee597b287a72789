"""`python -m bot.matrix.compile [--check]`: write bot/matrix/data/compiled.json from the matrix's YAML files.

Run after editing anything in bot/matrix/data/ (tests/bot/test_matrix_compile.py fails until then, naming this
command). The YAML is validated first: a matrix that does not load is never compiled. `--check` writes nothing
and exits 1 when compiled.json is missing or stale.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bot import matrix


def compiled_text(directory: Path | None = None) -> str:
    directory = directory or matrix.DATA_DIR
    sources = sorted(directory.glob("*.yaml"))
    merged = matrix.merged_yaml(sources)
    matrix.load_merged(merged, directory)  # raises MatrixError, naming the row, for data that does not load
    document = {
        "comment": "Written by `python -m bot.matrix.compile` from the *.yaml files beside it; do not edit.",
        "key": matrix.sources_key(sources),
        "matrix": merged,
    }
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.matrix.compile", description=__doc__)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if compiled.json is stale")
    args = parser.parse_args(argv)
    target = matrix.DATA_DIR / matrix.COMPILED_NAME
    try:
        text = compiled_text()
    except matrix.MatrixError as exc:
        sys.stderr.write(f"python -m bot.matrix.compile: {exc}\n")
        return 2
    current = target.is_file() and target.read_text(encoding="utf-8") == text
    if args.check:
        if not current:
            sys.stderr.write(f"out of date: {target}\n")
        return 0 if current else 1
    if not current:
        target.write_text(text, encoding="utf-8")
    sys.stdout.write(f"{target.name}: {'unchanged' if current else 'written'}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
