"""How close `python -m collector` runs to its floor, `import torch` (run by hand; figures go in README).

Alternates, round by round, in one environment:
  collector (default quick smoke test), collector --no-smoke, collector with a torch-less target interpreter,
  python -m torch.utils.collect_env, a bare `import torch`, and `import torch` + one bf16 matmul on the GPU
  (on the CPU when there is none). Prints each median and the ratios the README promises.

  The torch-less run is measured twice: as the environment is, and with bytecode for every module the collector
  imports (compiled beforehand into a scratch PYTHONPYCACHEPREFIX), as `pip install envtriage` leaves the
  collector and its dependencies. The two differ where the packages were installed without bytecode (uv's
  default) and Python may not write it (PYTHONDONTWRITEBYTECODE=1, common in container images): every run then
  compiles Jinja2, pynvml and the collector from source.

  python benches/collector_bench.py [--rounds 7] [--python PATH]
"""

from __future__ import annotations

import argparse
import os
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


# Run by the measured interpreter: the source files of every module a torch-less collector run imports.
IMPORTED = (
    "import contextlib, io, sys\n"
    "from collector.__main__ import main\n"
    "with contextlib.redirect_stdout(io.StringIO()):\n"
    "    main(['--python', sys.argv[1]])\n"
    "for module in list(sys.modules.values()):\n"
    "    path = getattr(module, '__file__', None) or ''\n"
    "    if path.endswith('.py'):\n"
    "        print(path)\n"
)
STDLIB = "import sysconfig; print(sysconfig.get_paths()['stdlib'])"


def commands(python: str, bare: str, pycache: str) -> dict[str, tuple[list[str], dict[str, str]]]:
    compiled = {"PYTHONPYCACHEPREFIX": pycache}
    return {
        "collector": ([python, "-m", "collector"], {}),
        "collector --no-smoke": ([python, "-m", "collector", "--no-smoke"], {}),
        "collector, no torch": ([python, "-m", "collector", "--python", bare], {}),
        "collector, no torch, bytecode": ([python, "-m", "collector", "--python", bare], compiled),
        "torch collect_env": ([python, "-m", "torch.utils.collect_env"], {}),
        "import torch": ([python, "-c", "import torch"], {}),
        "import torch + bf16 matmul": ([python, "-c", MATMUL], {}),
    }


def compile_imported(python: str, bare: str, pycache: str) -> None:
    """Bytecode, under `pycache`, for each module the collector imports and for the whole standard library (its
    child processes, which see the same PYTHONPYCACHEPREFIX, import parts of it the collector itself does not)."""
    found = subprocess.run([python, "-c", IMPORTED, bare], cwd=REPO, capture_output=True, text=True, check=True)
    stdlib = subprocess.run([python, "-c", STDLIB], capture_output=True, text=True, check=True).stdout.strip()
    env = {**os.environ, "PYTHONPYCACHEPREFIX": pycache}
    for paths in ([stdlib], found.stdout.split()):  # a few of the standard library's test files do not compile
        compile_all = [python, "-m", "compileall", "-q", "-j", "0", *paths]
        subprocess.run(
            compile_all, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
        )


def timed(argv: list[str], extra_env: dict[str, str]) -> float:
    env = {**os.environ, **extra_env}
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
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
        bare = str(Path(scratch) / "bare" / "bin" / "python")
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(Path(scratch) / "bare")], check=True)
        pycache = str(Path(scratch) / "pycache")
        compile_imported(args.python, bare, pycache)
        table = commands(args.python, bare, pycache)
        for argv, env in table.values():  # one warm-up run each, so the page cache is warm for every command
            timed(argv, env)
        times: dict[str, list[float]] = {name: [] for name in table}
        for number in range(1, args.rounds + 1):
            for name, (argv, env) in table.items():
                times[name].append(timed(argv, env))
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
    print(f"collector, no torch                        = {medians['collector, no torch']:.2f} s")
    print(f"collector, no torch, with bytecode         = {medians['collector, no torch, bytecode']:.2f} s")
    print(f"torch collect_env / collector              = {medians['torch collect_env'] / medians['collector']:.2f}")


if __name__ == "__main__":
    main()
