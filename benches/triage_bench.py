"""Parse + diagnose time per issue body (run by hand; figures go in README). Target: a 64 KB body in <= 20 ms.

Bodies: every issue of the real corpus (typical), the collector's own H200 report, a torch collect_env paste,
and 64 KB bodies built from real text (a collect_env paste, a pip freeze and a traceback, repeated to size).

  python benches/triage_bench.py [--repeat 50]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.diagnosis.matrix import default as default_matrix  # noqa: E402
from bot.diagnosis.plan import triage  # noqa: E402
from tests.bot.corpus import load  # noqa: E402

FIXTURES = REPO / "tests" / "fixtures"
SIZE = 64 * 1024


def padded(text: str, size: int = SIZE) -> str:
    return (text * (size // max(len(text), 1) + 1))[:size]


def bodies() -> dict[str, list[str]]:
    collect_env = (FIXTURES / "h200" / "torch-collect-env.txt").read_text()
    pip = (FIXTURES / "h200" / "pip-list.txt").read_text()
    report = (FIXTURES / "h200-1gpu" / "broken-ld-cudnn.md").read_text()
    traceback = next(issue.body for issue in load() if "Traceback" in issue.body)
    return {
        "corpus issue (typical)": [issue.body for issue in load()],
        "collector report (26 KB)": [report],
        "collect_env paste": [collect_env],
        "64 KB: collect_env + pip freeze + traceback": [padded(collect_env + pip + traceback)],
        "64 KB: one line": [padded("RuntimeError: CUDA error: no kernel image is available " * 50)],
        "64 KB: 10,000 headings": [padded("### Versions\n_No response_\n")],
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    matrix = default_matrix()
    triage(matrix, "warm up: torch 2.4.1+cu121 on an RTX 4090")
    for name, texts in bodies().items():
        times = []
        for _ in range(args.repeat):
            for text in texts:
                start = time.perf_counter()
                triage(matrix, text, title="bench")
                times.append((time.perf_counter() - start) * 1000)
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        size = max(len(text) for text in texts)
        print(f"{name:45s} median {statistics.median(times):7.2f} ms  p99 {p99:7.2f} ms  (largest {size:,} chars)")


if __name__ == "__main__":
    main()
