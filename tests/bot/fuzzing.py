"""Hostile issues and the checks every entry point must pass on them (tests/bot/diagnosis/test_fuzz.py,
benches/fuzz_bench.py).

Bodies are real reports and issues (the seeds) cut, spliced and salted with the Markdown and Unicode that break
naive parsers, or generated from those fragments alone; our own report's JSON twin is also mutated value by value
so the decoder and the rules see well-formed but wrong data. `check` runs one body through everything the bot
does with an issue and raises AssertionError when a property fails; any other exception is a crash.
"""

from __future__ import annotations

import json
import logging
import random
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from bot.diagnosis import render
from bot.diagnosis.config import RepoConfig
from bot.diagnosis.matrix import Index
from bot.diagnosis.plan import Duplicate, Plan, triage
from bot.insights.dedupe import evidence, extract
from bot.insights.dedupe.score import Match
from bot.service.webhook import digest
from collector import markdown
from collector.report.model import ReportFormatError, from_json
from tests.bot import github_markdown

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
TWIN_JSON = re.compile(r"(<!-- envtriage:report )(\{.*?\})( -->)", re.S)
FRAGMENTS = [
    "```", "~~~", "````", "```python\n", "~~~~~\n", "\n```\n", "\n~~~\n", "`", "``", "### ", "\n### Versions\n",
    "## ", "#### Environment\n", "<!--", "-->", "<!-- envtriage:report {", "<!-- envtriage:comment -->",
    '{"schema": "envtriage.report/1", "facts": {', "<details>", "</details>", "<summary>", "<script>", "\x00",
    "\ufffd", "\r\n", "\r", "\t", "\x1b[31m", "\u200b", "\u200d", "\ufeff", "\u202e", "\u2067", "\u0627\u0644",
    "😀", "👨‍👩‍👧", "@octocat", "@org/team", " @a-b_c ", "\\@x", "> ", ">>> ", "| ", " | ", "=", "==", "-", "--",
    "1.", "2.4.1+cu121", "12.", "535.", "sm_", "GPU 0: ", "PyTorch version: ", "Is CUDA available: ",
    "Driver Version: ", "NVIDIA-SMI ", "CUDA_VISIBLE_DEVICES=", "Traceback (most recent call last):\n",
    'File "/x.py", line 1, in f\n', "RuntimeError: ", "[pip3] torch==", "torch ", "_No response_", "\n\n",
]  # fmt: skip
JSON_VALUES: list[Any] = [
    None, True, 0, -1, 10**30, 1e308, -0.0, "", "x", "1.2.3.4.5", "abc", "9" * 40, "sm_", "@octocat", "```",
    [], {}, [None], {"": None}, ["x", 1], {"version": None},
]  # fmt: skip


@cache
def seeds() -> tuple[str, ...]:
    """Every real body and paste the tests hold: issue bodies, pastes, our reports (Markdown and JSON)."""
    texts: list[str] = []
    for folder in ("issues/real", "duplicates/issues"):
        for path in sorted((FIXTURES / folder).glob("*.yaml")):
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            texts += [data.get("body") or "", data.get("title") or ""]
    for pattern in ("pastes/*", "h200-1gpu/*.md", "h200-1gpu/*.json", "h200-1gpu/*.txt", "h200/*.txt"):
        texts += [path.read_text(encoding="utf-8", errors="replace") for path in sorted(FIXTURES.glob(pattern))]
    return tuple(text for text in texts if text.strip())


def _span(rng: random.Random, text: str) -> tuple[int, int]:
    start = rng.randrange(len(text) + 1)
    return start, min(len(text), start + int(rng.expovariate(1 / 200)))


def _splice(rng: random.Random, text: str) -> str:
    other = rng.choice(seeds())
    start, end = _span(rng, other)
    at = rng.randrange(len(text) + 1)
    return text[:at] + other[start:end] + text[at:]


def _cut(rng: random.Random, text: str) -> str:
    start, end = _span(rng, text)
    return text[:start] + text[end:] if rng.random() < 0.7 else text[:start]


def _duplicate(rng: random.Random, text: str) -> str:
    start, end = _span(rng, text)
    return text[:end] + text[start:end] * rng.randint(1, 20) + text[end:]


def _insert(rng: random.Random, text: str) -> str:
    at = rng.randrange(len(text) + 1)
    if rng.random() < 0.5:  # at a line start, where fences and headings count
        at = text.rfind("\n", 0, at) + 1
    return text[:at] + "".join(rng.choices(FRAGMENTS, k=rng.randint(1, 4))) + text[at:]


def _line_ends(rng: random.Random, text: str) -> str:
    return text.replace("\n", rng.choice(["\r\n", "\r", "\n\n", "\n\t", "\x00\n", " \\\n"]))


def _long_line(rng: random.Random, text: str) -> str:
    at = rng.randrange(len(text) + 1)
    return text[:at] + rng.choice(FRAGMENTS).replace("\n", " ") * rng.randint(100, 3000) + text[at:]


def _characters(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 20)):
        if chars:
            code = rng.choice([0, 0xFFFD, 0x200B, 0x202E, 0x1F600, rng.randrange(0x80)])
            chars[rng.randrange(len(chars))] = chr(code)
    return "".join(chars)


def twin_value(rng: random.Random, text: str) -> str:
    """Our report's twin, well-formed JSON with one value replaced: the decoder's and the rules' side."""
    match = TWIN_JSON.search(text)
    if not match:
        return _insert(rng, text)
    try:
        data = json.loads(match.group(2))
    except (ValueError, RecursionError):  # an earlier mutation broke it already
        return _insert(rng, text)
    paths = list(leaves(data, ()))
    if not paths:
        return _insert(rng, text)
    path = rng.choice(paths)
    holder = data
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = rng.choice([*JSON_VALUES, rng.choice(FRAGMENTS), _version(rng)])
    twin = json.dumps(data).replace("--", "-\\u002d")
    return text[: match.start(2)] + twin + text[match.end(2) :]


def leaves(value: Any, path: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    if path:
        yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from leaves(item, (*path, key))


def _version(rng: random.Random) -> str:
    return ".".join(str(rng.choice([0, 1, 9, 12, 535, 10**6])) for _ in range(rng.randint(0, 6))) + rng.choice(
        ["", "+cu121", "+", "rc", ".", "a0"]
    )


MUTATIONS: list[Callable[[random.Random, str], str]] = [
    _splice, _cut, _duplicate, _insert, _insert, _line_ends, _long_line, _characters, twin_value,
]  # fmt: skip


def mutated(rng: random.Random) -> str:
    """A real body or paste with one to four mutations."""
    text = rng.choice(seeds())
    for _ in range(rng.randint(1, 4)):
        text = rng.choice(MUTATIONS)(rng, text)
    return text


def generated(rng: random.Random) -> str:
    """Text made of the hostile fragments, words and numbers only."""
    words = [*FRAGMENTS, "torch", "cuda", "nvidia", "rtx 4090", "h100", "a100", "12.1", " ", "\n", "x" * 50]
    return "".join(rng.choices(words, k=rng.randint(0, 300)))


def case(seed: int, index: int) -> tuple[str, str, list[str]]:
    """Issue number `index` of run `seed` (title, body, comments): the same pair always gives the same issue."""
    rng = random.Random(seed * 1_000_003 + index)
    body = generated(rng) if rng.random() < 0.2 else mutated(rng)
    title = rng.choice([generated(rng)[:200], rng.choice(seeds())[:200], ""])
    comments = [mutated(rng) for _ in range(rng.choice([0] * 18 + [1, 2]))]
    return title, body, comments


# --- the properties ------------------------------------------------------------------------------------------

FENCE_OPEN = re.compile(r"^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(`{3,}|~{3,})(.*)$")
BACKTICKS = re.compile(r"`+")
CELL_EDGE = re.compile(r"(?<!\\)\|")
# A mention GitHub would link: "@name" not glued to a word (e-mail addresses are not mentions), also when
# spelled as an HTML entity, which GitHub decodes before it looks for mentions.
LIVE_MENTION = re.compile(r"(?<![A-Za-z0-9])(?:@|&#0*64;|&#x0*40;|&commat;)[A-Za-z0-9]", re.I)


def prose(text: str) -> Iterator[str]:
    """What GitHub renders outside code: CommonMark's fences and code spans, modelled independently of
    bot/diagnosis/render.py's `inert` (a fence opens only at a line start; a span closes only on a run of equal
    length)."""
    fence: str | None = None
    block: list[str] = []
    for line in text.split("\n"):
        if fence is not None:
            if re.fullmatch(rf"[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*", line):
                fence = None
            continue
        opened = FENCE_OPEN.match(line)
        if opened and not (opened.group(1)[0] == "`" and "`" in opened.group(2)):
            yield from _outside_spans("\n".join(block))
            block, fence = [], opened.group(1)
        elif line.lstrip().startswith("|"):  # a table row: cells are split before code spans are read
            yield from (part for cell in CELL_EDGE.split(line) for part in _outside_spans(cell))
        elif not line.strip():
            yield from _outside_spans("\n".join(block))
            block = []
        else:
            block.append(line)
    if fence is None:
        yield from _outside_spans("\n".join(block))


def _outside_spans(paragraph: str) -> Iterator[str]:
    start = at = 0
    while run := BACKTICKS.search(paragraph, at):
        if _escaped(paragraph, run.start()):
            at = run.start() + 1  # an escaped backtick is a literal one
            continue
        close = next((m for m in BACKTICKS.finditer(paragraph, run.end()) if len(m.group()) == len(run.group())), None)
        if close is None:
            at = run.end()
            continue
        yield paragraph[start : run.start()]
        start = at = close.end()
    yield paragraph[start:]


def _escaped(text: str, at: int) -> bool:
    count = 0
    while at > count and text[at - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def live_mentions(comment: str) -> list[str]:
    return [m.group() for part in prose(comment) for m in LIVE_MENTION.finditer(part)]


class RuleFailed(Exception):
    """A rule raised on this body; `diagnose` logs and skips it, which hides its findings."""


@contextmanager
def rules_must_not_fail() -> Iterator[None]:
    failures: list[logging.LogRecord] = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = failures.append  # type: ignore[method-assign]
    logger = logging.getLogger("bot.diagnosis.rules")
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)
    if failures:
        cause = failures[0].exc_info[1] if failures[0].exc_info else None
        raise RuleFailed(failures[0].getMessage()) from cause


def handle(matrix: Index, text: str, title: str = "", comments: Sequence[str] = ()) -> tuple[Plan, str]:
    """What the bot does with an issue: triage (redaction, readers, rules, the comment), the digest that spots
    edits, dedupe's signature, and the comment again with a duplicate's evidence quoted. Returns the plan and
    that second comment."""
    with rules_must_not_fail():
        plan = triage(matrix, text, title, comments)
    digest(plan.case)
    extract(plan.case, plan.findings, matrix, text)
    kinds = ("error", "frames", "title", "rare", "arch", "torch", "cuda")  # every kind that quotes issue text
    quoted = [Match(kind, quote.text) for quote in plan.case.errors[:2] for kind in kinds]
    duplicates = [Duplicate(1, 0.9, evidence(quoted), title)]
    return plan, render.comment(plan.case, plan.findings, duplicates, matrix, RepoConfig().collector_command)


def check(matrix: Index, text: str, title: str = "", comments: Sequence[str] = ()) -> int:
    """`handle`, then the properties, which fail as AssertionError; returns the comment's length."""
    plan, shown = handle(matrix, text, title, comments)
    for comment in filter(None, (plan.comment, shown)):
        assert len(comment) <= render.MAX_COMMENT, len(comment)
        assert not live_mentions(comment), live_mentions(comment)
    # The CommonMark parser is the costlier check: on the comment that also quotes the duplicate's evidence.
    assert not (found := github_markdown.live(shown, render.MARKER)), found
    for read_twin in (markdown.parse, from_json):
        try:
            read_twin(text)
        except ReportFormatError:
            pass  # the documented refusal; anything else is a crash
    return len(shown)
