"""The matrix merged into one JSON document: what a wheel carries as bot/diagnosis/matrix/data/compiled.json.

collector/build_hook.py writes it when a wheel is built; `python -m bot.diagnosis.matrix.compile -o FILE` writes it by
hand. The YAML is validated first: a matrix that does not load is never compiled.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bot.diagnosis import matrix


def compiled_text(directory: Path | None = None) -> str:
    directory = directory or matrix.DATA_DIR
    sources = sorted(directory.glob("*.yaml"))
    merged = matrix.merged_yaml(sources)
    matrix.load_merged(merged, directory)  # raises MatrixError, naming the row, for data that does not load
    document = {
        "comment": "Written from the *.yaml files beside it when the wheel was built; do not edit.",
        "key": matrix.sources_key(sources),
        "matrix": merged,
    }
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.diagnosis.matrix.compile", description=__doc__)
    parser.add_argument("-o", "--output", type=Path, required=True, metavar="FILE", help="where to write the JSON")
    args = parser.parse_args(argv)
    try:
        text = compiled_text()
    except matrix.MatrixError as exc:
        sys.stderr.write(f"python -m bot.diagnosis.matrix.compile: {exc}\n")
        return 2
    args.output.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
