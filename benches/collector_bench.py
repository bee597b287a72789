"""How close `python -m collector` runs to its floor, `import torch` (run by hand; figures go in README).

Alternates, round by round, in one environment:
  collector (default quick smoke test), collector --no-smoke, python -m torch.utils.collect_env, a bare
  `import torch`, and `import torch` + one bf16 matmul on the GPU (on the CPU when there is none). Prints each
  median and the ratios the README promises.

  Without torch, two more rows. "venv without torch": a scratch venv where envtriage is pip-installed and torch is
  not, the collector run from there: what a user without torch runs, and the target. "target without torch": the
  measured environment's interpreter probing a bare venv (--python), which also pays for that environment's
  start-up hooks and, where its packages were installed without bytecode (uv's default) and Python may not write
  it (PYTHONDONTWRITEBYTECODE=1, common in container images), compiles Jinja2 and pynvml on every run.

  python benches/collector_bench.py [--rounds 7] [--python PATH] [--find-links DIR]

  --find-links DIR: install the scratch venv's packages from DIR alone (no index), for machines without a
  network: DIR holds an envtriage wheel (`pip wheel --no-deps -w DIR .`) and its dependencies' wheels.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MATMUL = (
    "import torch\n"
    "device = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
    "a = torch.randn(256, 256, device=device, dtype=torch.bfloat16)\n"
    "(a @ a).float().sum().item()\n"
)
Row = tuple[list[str], Path]  # argv, working directory


def commands(python: str, bare: str, no_torch: str, scratch: Path) -> dict[str, Row]:
    return {
        "collector": ([python, "-m", "collector"], REPO),
        "collector --no-smoke": ([python, "-m", "collector", "--no-smoke"], REPO),
        # Run outside the checkout: `-m collector` would otherwise import the checkout, not the installed copy.
        "collector, venv without torch": ([no_torch, "-m", "collector"], scratch),
        "collector, target without torch": ([python, "-m", "collector", "--python", bare], REPO),
        "torch collect_env": ([python, "-m", "torch.utils.collect_env"], REPO),
        "import torch": ([python, "-c", "import torch"], REPO),
        "import torch + bf16 matmul": ([python, "-c", MATMUL], REPO),
    }


def venv_without_torch(scratch: Path, find_links: str | None) -> str:
    """A venv with envtriage installed as `pip install envtriage` leaves it (bytecode compiled), and no torch."""
    venv = scratch / "no-torch"
    python = str(venv / "bin" / "python")
    try:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
        pip = [python, "-m", "pip"]
    except subprocess.CalledProcessError:  # no ensurepip (Debian's python3 without python3-venv, some images)
        subprocess.run([sys.executable, "-m", "venv", "--clear", "--without-pip", str(venv)], check=True)
        wheels = sorted(Path(find_links).glob("pip-*.whl")) if find_links else []
        if not wheels:
            sys.exit("this Python cannot make a venv with pip: put a pip wheel in --find-links DIR")
        pip = [python, str(wheels[-1] / "pip")]  # pip runs from its own wheel
    source = ["--no-index", "--find-links", find_links, "envtriage"] if find_links else [str(REPO)]
    subprocess.run([*pip, "install", "-q", *source], check=True)
    return python


def timed(argv: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--python", default=sys.executable, help="the environment to measure (default: this one)")
    parser.add_argument("--find-links", metavar="DIR", help="install the torch-less venv from DIR alone (offline)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        scratch = Path(directory)
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(scratch / "bare")], check=True)
        no_torch = venv_without_torch(scratch, args.find_links)
        table = commands(args.python, str(scratch / "bare" / "bin" / "python"), no_torch, scratch)
        for argv, cwd in table.values():  # one warm-up run each, so the page cache is warm for every command
            timed(argv, cwd)
        times: dict[str, list[float]] = {name: [] for name in table}
        for number in range(1, args.rounds + 1):
            for name, (argv, cwd) in table.items():
                times[name].append(timed(argv, cwd))
            # Each round as it ends: a run stopped by a time limit still leaves its rounds behind.
            latest = ", ".join(f"{name} {values[-1]:.2f}" for name, values in times.items())
            print(f"round {number}: {latest}", flush=True)
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, value in medians.items():
        spread = f"{min(times[name]):.2f}-{max(times[name]):.2f}"
        print(f"{name:30s} median {value:6.2f} s   (range {spread} s, {args.rounds} rounds)")
    floor = medians["import torch + bf16 matmul"]
    print(f"collector / (import torch + bf16 matmul)   = {medians['collector'] / floor:.2f}")
    print(
        f"collector --no-smoke / import torch        = {medians['collector --no-smoke'] / medians['import torch']:.2f}"
    )
    print(f"collector, venv without torch              = {medians['collector, venv without torch']:.2f} s")
    print(f"collector, target without torch            = {medians['collector, target without torch']:.2f} s")
    print(f"torch collect_env / collector              = {medians['torch collect_env'] / medians['collector']:.2f}")


if __name__ == "__main__":
    main()
