"""How close `python -m collector` runs to its floor, `import torch` (run by hand; figures go in README).

Alternates, round by round, in one environment:
  collector (default quick smoke test), collector --no-smoke, collector with a torch-less target interpreter,
  python -m torch.utils.collect_env, a bare `import torch`, and `import torch` + one bf16 matmul on the GPU
  (on the CPU when there is none). Prints each median and the ratios the README promises.

  python benches/collector_bench.py [--rounds 7] [--python PATH]
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


def commands(python: str, bare: str) -> dict[str, list[str]]:
    return {
        "collector": [python, "-m", "collector"],
        "collector --no-smoke": [python, "-m", "collector", "--no-smoke"],
        "collector, no torch": [python, "-m", "collector", "--python", bare],
        "torch collect_env": [python, "-m", "torch.utils.collect_env"],
        "import torch": [python, "-c", "import torch"],
        "import torch + bf16 matmul": [python, "-c", MATMUL],
    }


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--python", default=sys.executable, help="the environment to measure (default: this one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        bare = Path(scratch) / "bare"
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
        table = commands(args.python, str(bare / "bin" / "python"))
        for argv in table.values():  # one warm-up run each, so the page cache is warm for every command
            timed(argv)
        times: dict[str, list[float]] = {name: [] for name in table}
        for number in range(1, args.rounds + 1):
            for name, argv in table.items():
                times[name].append(timed(argv))
            # Each round as it ends: a run stopped by a time limit still leaves its rounds behind.
            latest = ", ".join(f"{name} {values[-1]:.2f}" for name, values in times.items())
            print(f"round {number}: {latest}", flush=True)
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, value in medians.items():
        spread = f"{min(times[name]):.2f}-{max(times[name]):.2f}"
        print(f"{name:28s} median {value:6.2f} s   (range {spread} s, {args.rounds} rounds)")
    floor = medians["import torch + bf16 matmul"]
    print(f"collector / (import torch + bf16 matmul)   = {medians['collector'] / floor:.2f}")
    print(
        f"collector --no-smoke / import torch        = {medians['collector --no-smoke'] / medians['import torch']:.2f}"
    )
    print(f"collector, no torch                        = {medians['collector, no torch']:.2f} s")
    print(f"torch collect_env / collector              = {medians['torch collect_env'] / medians['collector']:.2f}")


if __name__ == "__main__":
    main()
