"""Start-up of the one-file collector, `python envtriage-collect.pyz`, against `python -m collector` (run by hand;
figures go in README's Speed section).

Alternates, round by round, all with --no-smoke:
  "installed": `python -m collector` from a scratch venv where envtriage is pip-installed (bytecode compiled, the
  wheel's compiled templates and matrix) and torch is not; "archive": the same venv's Python running the archive,
  whose modules come from its bytecode for that Python where it carries some (--bytecode when it was built; the
  archive built here carries this Python's), compiled from source at every run otherwise; "archive, Python 3.8": a
  bare 3.8 running it, where one is given. With --torch-python, the same two with that interpreter's torch as the
  target (--python), where `import torch` is the floor of both.

  python benches/bundle_bench.py [--rounds 7] [--python38 PATH] [--torch-python PATH] [--find-links DIR]
                                 [--archive PATH]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from collector_bench import REPO, Row, timed, venv_without_torch


def commands(no_torch: str, archive: Path, python38: str | None, torch_python: str | None) -> dict[str, Row]:
    scratch = archive.parent  # outside the checkout: `-m collector` there would import the checkout
    table: dict[str, Row] = {
        "installed": ([no_torch, "-m", "collector", "--no-smoke"], scratch),
        "archive": ([no_torch, str(archive), "--no-smoke"], scratch),
    }
    if python38:
        table["archive, Python 3.8"] = ([python38, str(archive), "--no-smoke"], scratch)
    if torch_python:
        target = ["--no-smoke", "--python", torch_python]
        table["installed, torch target"] = ([no_torch, "-m", "collector", *target], scratch)
        table["archive, torch target"] = ([no_torch, str(archive), *target], scratch)
    return table


def measure(table: dict[str, Row], rounds: int) -> dict[str, list[float]]:
    for argv, cwd in table.values():  # one warm-up run each: the page cache is warm for every command
        timed(argv, cwd)
    times: dict[str, list[float]] = {name: [] for name in table}
    for number in range(1, rounds + 1):
        for name, (argv, cwd) in table.items():
            times[name].append(timed(argv, cwd))
        print(f"round {number}: " + ", ".join(f"{n} {v[-1]:.2f}" for n, v in times.items()), flush=True)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--python38", metavar="PATH", help="a bare Python 3.8 to run the archive with too")
    parser.add_argument("--torch-python", metavar="PATH", help="an interpreter with torch, probed with --python")
    parser.add_argument("--find-links", metavar="DIR", help="install the torch-less venv from DIR alone (offline)")
    parser.add_argument("--archive", metavar="PATH", help="an archive already built (default: build one now)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        scratch = Path(directory)
        no_torch = venv_without_torch(scratch, args.find_links)
        archive = scratch / "envtriage-collect.pyz"
        if args.archive:
            shutil.copyfile(args.archive, archive)
        else:
            subprocess.run([sys.executable, "-m", "collector.bundle", "-o", str(archive)], cwd=REPO, check=True)
        times = measure(commands(no_torch, archive, args.python38, args.torch_python), args.rounds)
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, value in medians.items():
        spread = f"{min(times[name]):.2f}-{max(times[name]):.2f}"
        print(f"{name:26s} median {value:5.2f} s   (range {spread} s, {args.rounds} rounds)")
    print(f"archive / installed        = {medians['archive'] / medians['installed']:.2f}")
    if "archive, torch target" in medians:
        ratio = medians["archive, torch target"] / medians["installed, torch target"]
        print(f"archive / installed, torch = {ratio:.2f}")


if __name__ == "__main__":
    main()
