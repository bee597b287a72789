"""What identifies a problem, read from an issue: its error signature, its environment fingerprint, its words.

Two reports of one problem rarely share wording but do share the error, once the parts that differ between
machines are masked (numbers, paths, addresses, hex ids), and usually the GPU architecture, the torch build and
the diagnosis. Pure functions; the index stores what `extract` returns.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from bot.diagnosis.findings import Finding
from bot.diagnosis.learned import RULE_ID as LEARNED
from bot.diagnosis.matrix import Index
from bot.diagnosis.readers import Case
from bot.diagnosis.readers.freeform import REPORT_HEADING  # our report: its facts are the environment signals
from bot.diagnosis.rules.view import View

# Findings that are not a diagnosis of the environment: an error text's usual cause (the error signature already
# carries it, and two issues with one error can have different causes), the lack of a report, or the learned
# fallback's guess from the words (the index compares the words itself; an issue re-indexed on close gets none).
NOT_A_DIAGNOSIS = {"known_error", "package_without_cuda", "missing_env_report", "matrix_does_not_know", LEARNED}
MAX_TERMS = 100
MAX_ERRORS = 8
MAX_FRAMES = 3
BODY_CHARS = 20_000
TITLE_CHARS = 300  # as dup_issues.title keeps it

MASKS = [
    (re.compile(r"0x[0-9a-fA-F]+"), "<hex>"),
    (re.compile(r"\b(?=[0-9a-fA-F]*\d)[0-9a-fA-F]{8,}\b"), "<hex>"),  # hashes, uuid parts, addresses
    (re.compile(r"(?:[A-Za-z]:)?(?:[\\/][\w.+~@-]+){2,}[\\/]?"), "<path>"),
    (re.compile(r"\d+(?:\.\d+)*"), "<n>"),
    (re.compile(r"\s+"), " "),
]
EXCEPTION = re.compile(r"^(?:[\w.]+\.)?(\w*(?:Error|Exception|Interrupt|Failure))\b")
FRAME = re.compile(r'File "(?P<path>[^"\n]+)", line \d+, in (?P<func>[\w<>.]+)')
# Frames every PyTorch traceback passes through; they say nothing about the problem.
NOISE_FRAMES = {"_call_impl", "_wrapped_call_impl", "<module>", "wrapper", "decorate_context", "_fn", "inner"}
WORD = re.compile(r"[a-z][a-z0-9_]{2,29}")
# "#123", "GH-123" and issue/PR links name another issue ("Duplicate of #40", "same as
# https://github.com/o/r/issues/40"). A line that starts with "#N" is a backtrace frame (gdb, glibc, CUDA-GDB print
# "#0  0x00007f..."), not a reference, and is skipped; so is "&#123;" (an HTML entity).
MENTION = re.compile(
    r"(?:(?<![\w&#/])(?:#|GH-)|github\.com/(?P<slug>[\w.-]{1,100}/[\w.-]{1,100})/(?:issues|pull)/)(?P<number>\d{1,7})(?![A-Za-z0-9])"
)
FRAME_LINE = re.compile(r"^\s*#\d+\s")
MAX_MENTIONS = 16
# A log line two reports share (masked like errors) says they ran the same program the same way: "Set vram state
# to: LOW_VRAM", a template's own wording. Only lines of some length count; how common a line is gets judged
# against the candidates at query time (a line every issue of the tracker has is its template, not evidence).
# Not log lines: an environment listing's "Key: value" rows and tables (collect_env, nvidia-smi, issue forms) are
# alike between any two reports once their numbers are masked; the environment is compared field by field.
LISTING_LINE = re.compile(r"^[ \t]*(?:[|+=]|(?:[-*][ \t]?)?[\w.()/-][\w .()/-]{0,39}:(?:\s|$))")
MIN_LINE_CHARS = 24
MIN_LINE_WORDS = 3
MAX_LINES = 32
LINE_CHARS = 100
HTML_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.S)  # our report's JSON twin, issue-form hints
_STOPWORDS = """
the and for with this that from have has had not but are was were you your when what which there their
then than them they will would could should can cannot does did doing done been being into onto over under
also just only some any all each other more most such very same here how why who get got use used using run
running ran try tried trying work works working worked issue issues bug error errors problem please help
thanks thank hello know like want need make made see seems seem following below above after before still
while because about out one two via per yes none true false null file line lines code describe expected
behavior behaviour response version versions environment information info output traceback recent call last
most reproduce steps step context additional system report details summary python
"""
STOPWORDS = frozenset(_STOPWORDS.split())
_PATH_WORDS = """
home usr lib lib64 local bin opt site packages dist python3 conda envs anaconda3 miniconda3 venv users appdata
programs root tmp include share
"""
PATH_WORDS = frozenset(_PATH_WORDS.split())


@dataclass(frozen=True)
class Features:
    """One issue as the duplicate index sees it."""

    errors: list[str] = field(default_factory=list)  # masked error messages
    exceptions: list[str] = field(default_factory=list)
    frames: list[str] = field(default_factory=list)  # "file.py:function", innermost first
    archs: list[str] = field(default_factory=list)  # "sm_90"
    torch: str | None = None  # minor + wheel tag: "2.4+cu121"
    cuda: str | None = None  # major.minor torch was built with
    driver: str | None = None  # driver branch: "535"
    categories: list[str] = field(default_factory=list)
    terms: dict[str, int] = field(default_factory=dict)  # title and body words -> count
    title_terms: list[str] = field(default_factory=list)
    title: str = ""  # lower-cased, for the title's character n-grams (a title-only comparison's whole signal)
    mentions: list[str] = field(default_factory=list)  # "#40", or "owner/name#40" from a link
    lines: list[str] = field(default_factory=list)  # masked log and template lines, errors excepted


def mask(message: str) -> str:
    for pattern, replacement in MASKS:
        message = pattern.sub(replacement, message)
    return message.strip().lower()[:200]


def extract(case: Case, findings: list[Finding], matrix: Index, body: str) -> Features:
    view = View(case, matrix)
    errors = list(dict.fromkeys(mask(quote.text) for quote in case.errors if quote.text.strip()))[:MAX_ERRORS]
    exceptions = [m.group(1) for quote in case.errors if (m := EXCEPTION.match(quote.text.strip()))]
    torch = view.torch
    minor = ".".join((torch.version or "").split(".")[:2]) if torch and torch.version else None
    tag = (torch.tag if torch else None) or view.variant
    driver = view.driver.version if view.driver else None
    title_terms = words(case.title)
    # Without our report's JSON twin and issue-form hints; the words and lines are the user's own text, before our
    # report: two reports from one machine share nearly all their words whatever their problems (the report's facts
    # are compared field by field instead).
    written = HTML_COMMENT.sub(" ", body[:BODY_CHARS]).split(REPORT_HEADING, 1)[0]
    return Features(
        errors=errors,
        exceptions=list(dict.fromkeys(exceptions)),
        frames=frames(body),
        archs=sorted({"sm_" + gpu.cc.replace(".", "") for gpu in view.gpus if gpu.cc}),
        torch=f"{minor}+{tag}" if minor and tag else minor,
        cuda=view.torch_cuda,
        driver=driver.split(".")[0] if driver else None,
        categories=sorted({f.category for f in findings if f.category and f.id not in NOT_A_DIAGNOSIS}),
        terms=terms(title_terms, written),
        title_terms=sorted(set(title_terms)),
        title=case.title.lower()[:TITLE_CHARS],
        mentions=mentions(case.title + "\n" + body[:BODY_CHARS]),
        lines=lines(written, errors),
    )


def mentions(text: str) -> list[str]:
    """The issues a text names, in order: "#40", or "owner/name#40" for a link (any repository's)."""
    found: list[str] = []
    for line in text.splitlines():
        if FRAME_LINE.match(line) or ("#" not in line and "github.com" not in line and "GH-" not in line):
            continue
        for m in MENTION.finditer(line):
            number = int(m["number"])
            if number:
                found.append(f"{m['slug'].lower()}#{number}" if m["slug"] else f"#{number}")
    return list(dict.fromkeys(found))[:MAX_MENTIONS]


def named(mentioned: list[str], repo: str) -> set[int]:
    """The issue numbers of `repo` among mentions: every "#N", and links into `repo` (or into any repository
    when `repo` is not an owner/name, as in the command line's own index)."""
    slug, numbers = repo.lower(), set()
    for mention in mentioned:
        where, _, number = mention.rpartition("#")
        if not where or where == slug or "/" not in slug:
            numbers.add(int(number))
    return numbers


def lines(written: str, errors: list[str]) -> list[str]:
    """The body's longer lines (comments and our report already dropped), masked, that are not its error messages."""
    found: list[str] = []
    skip = set(errors)
    for raw in written.splitlines():
        if len(raw) < MIN_LINE_CHARS or LISTING_LINE.match(raw):
            continue
        line = mask(raw)[:LINE_CHARS]
        if len(line) >= MIN_LINE_CHARS and len(line.split()) >= MIN_LINE_WORDS and line not in skip:
            found.append(line)
            if len(found) >= MAX_LINES * 2:
                break
    return list(dict.fromkeys(found))[:MAX_LINES]


def frames(body: str) -> list[str]:
    """The innermost frames of the last Python traceback in the text."""
    found = [
        f"{m['path'].replace(chr(92), '/').rsplit('/', 1)[-1]}:{m['func']}"
        for m in FRAME.finditer(body[-BODY_CHARS:])
        if m["func"] not in NOISE_FRAMES
    ]
    return list(dict.fromkeys(reversed(found)))[:MAX_FRAMES]


def words(text: str) -> list[str]:
    # A path's file and module names are words (spconv/src/reordering_cuda.cu says a lot); its common parts are
    # stop words.
    return [word for word in WORD.findall(text.lower()) if word not in STOPWORDS and word not in PATH_WORDS]


def terms(title_terms: list[str], written: str) -> dict[str, int]:
    counts = Counter(words(written))
    for word in title_terms:  # the title says what the issue is about: it counts thrice
        counts[word] += 3
    return dict(counts.most_common(MAX_TERMS))
