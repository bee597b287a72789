"""Fuzz the bot's entry points with generated and mutated issues, then time hostile 64 KB bodies (run by hand).

Issues come from tests/bot/fuzzing.py (real reports and issue bodies cut, spliced and salted with fences,
headings, unclosed comments, NULs, CRLF, emoji, RTL and zero-width characters; our twin with wrong values) and
go through read_case, diagnose, triage (the comment), digest, dedupe's extract and the twin readers, with the
properties of tests/bot/diagnosis/test_fuzz.py checked. Every failure is printed with its reproducer; the adversarial
bodies of benches/fuzz_hostile.py are timed (best of three) against a 50 ms target.

  python benches/fuzz_bench.py                       # 1,000,000 issues on every core, then the table
  python benches/fuzz_bench.py --count 20000 --seed 7
  python benches/fuzz_bench.py --only adversarial
  python benches/fuzz_bench.py --reproduce 1:123456  # one issue again, with its traceback
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benches"))

from fuzz_hostile import TARGET_MS, hostile  # noqa: E402

from bot.diagnosis.matrix import default as default_matrix  # noqa: E402
from bot.diagnosis.readers import read_case  # noqa: E402
from collector.redact import Redactor  # noqa: E402
from tests.bot import fuzzing  # noqa: E402

CHUNK = 500


@dataclass
class Tally:
    count: int = 0
    seconds: float = 0.0
    slowest: tuple[float, int] = (0.0, -1)
    failures: Counter[str] = field(default_factory=Counter)
    first: dict[str, tuple[int, str]] = field(default_factory=dict)  # failure -> (index, message)

    def add(self, other: Tally) -> None:
        self.count += other.count
        self.seconds += other.seconds
        self.slowest = max(self.slowest, other.slowest)
        self.failures.update(other.failures)
        for key, value in other.first.items():
            if key not in self.first or value[0] < self.first[key][0]:
                self.first[key] = value


def where(exc: BaseException) -> str:
    """The failure's kind: its type and the innermost frame in our code (the cause's, for a failed rule)."""
    cause = exc.__cause__ or exc
    frames = [f for f in traceback.extract_tb(cause.__traceback__) if str(REPO) in f.filename] or [None]
    frame = frames[-1]
    at = f"{Path(frame.filename).relative_to(REPO)}:{frame.lineno}" if frame else "?"
    return f"{type(exc).__name__}/{type(cause).__name__} at {at}"


def run_chunk(job: tuple[int, int, int]) -> Tally:
    seed, start, stop = job
    matrix = default_matrix()
    tally = Tally()
    for index in range(start, stop):
        title, body, comments = fuzzing.case(seed, index)
        began = time.perf_counter()
        try:
            fuzzing.check(matrix, body, title, comments)
        except Exception as exc:  # every failure counts; the bench goes on
            key = where(exc)
            tally.failures[key] += 1
            tally.first.setdefault(key, (index, repr(exc)[:300]))
        spent = time.perf_counter() - began
        tally.count += 1
        tally.seconds += spent
        tally.slowest = max(tally.slowest, (spent, index))
    return tally


def fuzz(seed: int, count: int, workers: int) -> Tally:
    jobs = [(seed, start, min(count, start + CHUNK)) for start in range(0, count, CHUNK)]
    total = Tally()
    began = time.perf_counter()
    with multiprocessing.Pool(workers) as pool:
        for done, tally in enumerate(pool.imap_unordered(run_chunk, jobs), start=1):
            total.add(tally)
            if done % max(1, len(jobs) // 50) == 0 or done == len(jobs):
                rate = total.count / (time.perf_counter() - began)
                failed = sum(total.failures.values())
                print(f"  {total.count:>9,} issues  {rate:6.0f}/s  failures {failed}", flush=True)
    elapsed = time.perf_counter() - began
    print(f"\nissues run: {total.count:,} (seed {seed}, {workers} workers) in {elapsed:.0f} s")
    print(f"issues/s: {total.count / elapsed:.0f} overall, {total.count / total.seconds:.0f} per core")
    spent, index = total.slowest
    _, body, _ = fuzzing.case(seed, index)
    print(f"slowest: {spent * 1000:.1f} ms, issue {seed}:{index} ({len(body):,} chars)")
    print(f"failures (uncaught exceptions and broken properties): {sum(total.failures.values())}")
    for key, number in total.failures.most_common():
        index, message = total.first[key]
        print(f"  {number:6d}  {key}\n          first: --reproduce {seed}:{index}  {message}")
    return total


def best_ms(run: Callable[[], object], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        run()
        times.append((time.perf_counter() - began) * 1000)
    return min(times)


def adversarial() -> int:
    """The hostile bodies: the properties checked once, then timed (best of three) through the readers alone
    (parse), the body's redaction alone, and all the bot does with an issue (readers, redaction, rules, comment,
    digest, dedupe signature); the target is for the last. A body over the target is timed again at the end (best
    of ten): on a box shared with other work, a burst of load can span one body's three runs."""
    matrix = default_matrix()
    fuzzing.check(matrix, "warm up: torch 2.4.1 on an RTX 4090")
    failed, wholes, again = 0, {}, {}
    print(f"\n{'adversarial body (64 KB)':80s} {'chars':>7s} {'parse ms':>8s} {'redact':>7s} {'all ms':>7s}")
    for name, body in hostile():
        try:
            fuzzing.check(matrix, body, "title")
        except Exception as exc:  # reported in the table; the other bodies still run
            print(f"{name:80s} {len(body):7,d}  FAILED {where(exc)}: {exc!r:.200}", flush=True)
            failed += 1
            continue
        parse = best_ms(partial(read_case, matrix, body))
        redaction = best_ms(partial(Redactor().secrets, body))
        wholes[name] = best_ms(partial(fuzzing.handle, matrix, body, "title"))
        if wholes[name] > TARGET_MS:
            again[name] = body
        print(f"{name:80s} {len(body):7,d} {parse:8.1f} {redaction:7.1f} {wholes[name]:7.1f}", flush=True)
    for name, body in again.items():
        wholes[name] = min(wholes[name], best_ms(partial(fuzzing.handle, matrix, body, "title"), runs=10))
        print(f"timed again: {name:80s} {wholes[name]:7.1f}{'  SLOW' if wholes[name] > TARGET_MS else ''}")
    ranked = sorted(((ms, name) for name, ms in wholes.items()), reverse=True)
    print(f"\nbodies: {len(ranked)}, median {ranked[len(ranked) // 2][0]:.1f} ms, slowest:")
    for whole, name in ranked[:5]:
        print(f"  {whole:6.1f} ms  {name}")
    over = failed + sum(ms > TARGET_MS for ms, _ in ranked)
    print(f"over {TARGET_MS} ms or failed: {over}")
    return over


def reproduce(which: str) -> None:
    seed, index = (int(part) for part in which.split(":"))
    title, body, comments = fuzzing.case(seed, index)
    out = Path(f"fuzz-{seed}-{index}.txt")
    out.write_text(body, encoding="utf-8", errors="surrogatepass")
    print(f"body written to {out} ({len(body):,} chars); title {title!r}; {len(comments)} comments")
    fuzzing.check(default_matrix(), body, title, comments)
    print("passes")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", choices=["fuzz", "adversarial"])
    parser.add_argument("--reproduce", metavar="SEED:INDEX")
    args = parser.parse_args()
    if args.reproduce:
        reproduce(args.reproduce)
        return
    failed = slow = 0
    if args.only != "adversarial":
        failed = sum(fuzz(args.seed, args.count, args.workers).failures.values())
    if args.only != "fuzz":
        slow = adversarial()
    sys.exit(1 if failed or slow else 0)


if __name__ == "__main__":
    main()
