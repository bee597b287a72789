"""The adversarial 64 KB bodies benches/fuzz_bench.py times: structure that breaks naive parsers, the bodies that
once froze the service, and for every regular expression applied to issue text (tests/issue_patterns.py: the
redaction, the readers, the rules, the matrix's error and GPU patterns...) the inputs its own parse tree makes
costliest (tests/worst_case.py: runs of each kind of character it repeats, nested, and of the literals around
the repeats), as 64 KB of lines of 1,990 characters (what the line readers see) and as one 64 KB line (what the
redaction sees), each line ending with a near-match of the pattern so its screen lets it run.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path

from tests.issue_patterns import Entry, entries
from tests.worst_case import Case, cases, sample

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"
SIZE = 64 * 1024
TARGET_MS = 50
LINE = 1990  # lines are cut to base.MAX_LINE (2,000) before the line readers see them
SCREEN = 2048  # the size at which a pattern's cases are ranked (a quadratic one already stands out)
# Every reader sees the section: a collect_env signature, nvidia-smi's marks, torch's message words.
CONTEXT = "Is CUDA available: no\nnvidia-smi Driver Version: 1 (UUID: GPU-1) Product Name: x\ncapability too old\n"
TWIN = re.compile(r"(<!-- envtriage:report )(\{.*?\})( -->)", re.S)


def filled(lines: list[str], head: str = "") -> str:
    text = head
    while len(text) < SIZE:
        text += "\n".join(lines) + "\n"
    return text[:SIZE]


def costliest(entry: Entry, found: list[Case]) -> Case:
    """The pattern's case that takes longest at 2 KB, by the regular expression alone (best of three)."""
    regex = entry.compiled()

    def spent(case: Case) -> float:
        text, best = case.text(SCREEN), float("inf")
        for _ in range(3):
            began = time.perf_counter()
            for _ in regex.finditer(text):
                pass
            best = min(best, time.perf_counter() - began)
        return best

    return max(found, key=spent)


def regex_bodies(seed: int = 0) -> Iterator[tuple[str, str]]:
    """Per pattern, its costliest case and one drawn at random (seeded; the rest of the bot may be what a case
    slows down), each as 64 KB of lines of 1,990 characters and as one 64 KB line."""
    rng = random.Random(seed)
    for entry in entries():
        found = cases(entry.pattern, entry.flags)
        near = " " + sample(entry.pattern, entry.flags)
        for case in dict.fromkeys([costliest(entry, found), rng.choice(found)]):
            name = f"{entry.name[:36]} ({case.name[:40]})"
            yield f"{name} lines", filled([case.text(LINE - len(near)) + near], CONTEXT)
            yield f"{name} 1 line", CONTEXT + case.text(SIZE - len(CONTEXT) - len(near)) + near


def frozen() -> Iterator[tuple[str, str]]:
    """The bodies of issue 15, each of which once took from 190 ms to 150 s."""
    yield "64 KB of '-'", "-" * SIZE
    yield "'-a' x 32K", "-a" * (SIZE // 2)
    yield "'&' + 'a-' x 32K", "&" + "a-" * (SIZE // 2 - 1)
    yield "32 lines of 1,999 '-'", ("-" * 1999 + "\n") * 32
    yield "64 KB of '\\r'", "\r" * SIZE
    yield "our twin listing 800 GPUs", twin_with_gpus(800)
    yield "RTL and zero-width characters only", filled(["\u202e\u200b\u200d\ufeff\u2067" * 20])
    yield "a pip list of 3,000 packages", filled([f"package-{n}    {n % 9}.{n % 13}.{n % 7}" for n in range(3000)])
    yield "a pip freeze of 3,000 watched packages", filled([f"nvidia-x{n}==1.{n}" for n in range(3000)])
    yield "RTL, zero-width and combining marks around versions", filled(["\u202etorch\u200b 2.4.1\u0301\u2067 cu121"])
    yield "collect_env listing 3,000 GPUs", filled([f"GPU {n}: NVIDIA H200" for n in range(3000)], CONTEXT)
    yield "nvidia-smi -L of 3,000 GPUs", filled([f"GPU {n}: NVIDIA H200 (UUID: GPU-{n:08x}-1)" for n in range(3000)])


def twin_with_gpus(count: int) -> str:
    match = TWIN.search((FIXTURES / "h200-1gpu" / "collector.md").read_text())
    assert match
    data = json.loads(match.group(2))
    data["facts"]["gpus"]["value"] = [{"index": i, "name": "NVIDIA H200", "cc": "9.0"} for i in range(count)]
    return match.group(1) + json.dumps(data, separators=(",", ":")) + match.group(3)


def structure() -> Iterator[tuple[str, str]]:
    collect = (FIXTURES / "h200" / "torch-collect-env.txt").read_text()
    report = (FIXTURES / "h200-1gpu" / "collector.md").read_text()
    twin = report[report.index("<!-- envtriage:report ") :]
    noise = random.Random(1).randbytes(SIZE).decode("utf-8", errors="replace")
    yield "nested fences (``` in ~~~~ in ````` ...)", filled([f"{'`~'[n % 2] * (3 + n)}\n### x" for n in range(40)])
    yield "unclosed fence, then collect_env", filled([collect], "```python\n")
    yield "unclosed fences only (``` and ~~~)", filled(["```", "~~~", "x"])
    yield "10,922 headings (### a)", "### a\n" * (SIZE // 6)
    yield "5,041 issue-form fields (### Versions / _No response_)", filled(["### Versions\n_No response_"])
    yield "one 64 KB line (a known error)", filled(["RuntimeError: CUDA error: no kernel image is available "])[:-1]
    yield "one 64 KB line of backticks", "`" * SIZE
    yield "invalid UTF-8 decoded with errors='replace'", noise
    yield "NUL bytes only", "\x00" * SIZE
    yield "collect_env with a NUL after every character", filled(["\x00".join(collect)])
    yield "collect_env, every line doubled", filled([line + "\n" + line for line in collect.splitlines()])
    yield "collect_env with CRLF, then CR only", filled([collect.replace("\n", "\r\n"), collect.replace("\n", "\r")])
    yield "our report twin, 3,000 openings without a closing", filled(["<!-- envtriage:report {"])
    yield "our report (Markdown and twin) repeated", filled([report])
    yield "twin nested 30,000 deep", "<!-- envtriage:report {" + '"a":' + "[" * 30_000 + "} -->"
    yield "JSON report nested 30,000 deep", '{"schema": "envtriage.report/1", "a": ' + "[" * 30_000
    yield "twin with a 5,000-digit number", twin.replace('"duration_seconds":', '"duration_seconds":' + "9" * 5000, 1)
    yield "<!-- without end, <details> without close", filled(["<!-- x", "<details><summary>", "@octocat"])
    yield "@mentions in every reader's quote", filled([f"GPU 0: @octocat\nRuntimeError: @octocat {'`' * 3}@x"])
    yield "emoji, RTL and zero-width characters", filled(["😀👨‍👩‍👧\u202e\u2067\u200b\u200d\ufeff torch 2.4.1 🚀"])
    yield "pip freeze repeated", filled([(FIXTURES / "h200" / "pip-list.txt").read_text()])
    yield "nvidia-smi -q repeated", filled([(FIXTURES / "h200" / "nvidia-smi-q.txt").read_text()])


def hostile() -> Iterator[tuple[str, str]]:
    yield from frozen()
    yield from structure()
    yield from regex_bodies()
