"""Versions, GPUs and errors written in prose: "torch 2.4.1+cu121", "driver 535", "on my RTX 5090", tracebacks.

The lowest-precedence reader: whatever a structured report says wins over what a sentence says.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import re
from collections.abc import Iterator

from bot.diagnosis.matrix import Index
from bot.diagnosis.matrix.screen import Screened
from bot.diagnosis.readers.base import MAX_ERRORS, PROSE, Partial, Quote, Section
from bot.diagnosis.readers.topics import MAX_WORDS, topic_spans
from bot.diagnosis.readers.versions import INSTALL_COMMAND, build_of, owned_by_torch, refused_by_pip, removed_by_pip
from bot.diagnosis.readers.wrapped import broken_inside_words
from collector.markdown import TWIN_OPEN
from collector.report.schema import (
    DRIVER,
    ENV,
    GPUS,
    OS,
    PACKAGES,
    PYTHON,
    RUNTIME,
    TORCH,
    DriverInfo,
    Gpu,
    OsInfo,
    Package,
    Packages,
    PythonInfo,
    Runtime,
    TorchInfo,
)

NAME = PROSE
# Blanks around a separator are written so that no two quantifiers can share a blank: `\s*(?:=|\s)\s*` tries every
# split of a long run of spaces (quadratic, and cubic with a third `\s*`: seconds for one 2,000-character line).
# Version parts are bounded: a 2,000-digit "version" is none, and would be quoted whole in findings.
# torch's major is one digit: "Torch 12.8" and "torch 11.8" are how people name the CUDA of a build.
TORCH_VERSION = Screened(
    r"\b(?:py)?torch(?:\s+version)?(?:\s*(?:==|:|=|\bv)|\s)\s*v?"
    r"(\d\.\d{1,9}(?:\.\d{1,9})?(?:\.dev\d{1,12}|a0|rc\d{1,3})?(?: ?\+ ?(?:cu\d{2,3}|cpu|rocm[\d.]{1,12}|xpu))?)\b"
)
# "2.5.1+cu124" without the word torch: a wheel's file name, a dist-info folder, a download URL ("%2B"), pip's
# "(2.5.1+cu124)". torchvision's versions carry the same tags: only one that versions.owned_by_torch is taken.
# xFormers' warning names the torch it was built for first and the installed one after "you have": "PyTorch
# 2.1.0+cu121 with CUDA 1201 (you have 2.1.0+cpu)".
YOU_HAVE = Screened(r"\(you have (\d{1,9}\.\d{1,9}(?:\.\d{1,9})?\+(?:cu\d{2,3}|cpu|rocm[\d.]{1,12}|xpu))\)")
TAG_ONLY = Screened(r"\b(\d{1,9}\.\d{1,9}\.\d{1,9})(?:\+|%2B)(cu\d{3}|cpu|xpu|rocm[\d.]{1,12})\b", shortest=2)
DRIVER_VERSION = Screened(r"\b(?:nvidia\s+)?driver(?:\s+version)?\s*(?:(?:is|:|=)\s*)?v?(\d{3}(?:\.\d{1,3}){0,2})\b")
COMPANION = Screened(
    r"\b(torchvision|torchaudio|xformers|flash[-_]attn|vllm|triton|bitsandbytes|deepspeed|transformers|"
    r"transformer[-_]engine|sglang|accelerate|numpy)(?:\s*(?:==|:|=)|\s)\s*v?(\d{1,9}\.\d{1,9}(?:\.\d{1,9})?(?:\.post\d{1,9})?(?:\+\w{1,40})?)\b"
)
PYTHON_VERSION = Screened(r"\bpython\s*(?:version\s*)?(?:[:=]\s*)?(3\.\d{1,2}(?:\.\d{1,2})?)\b")
WINDOWS = Screened(r"\bwindows\s*(1[01]|server)\b|\bwin(?:dows)?\s?1[01]\b|[A-Z]:\\\\?(?:Users|Program)")
# A Mac: torch for macOS has never had CUDA (Apple GPUs are reached through MPS).
MAC = Screened(
    r"\bmacOS\b|\bMac ?OS ?X\b|\bMacBook\b|\bApple M[1-5]\b|\bApple Silicon\b|\b(?:on|using) (?:a |my )?Mac\b"
)
WSL = Screened(r"\bWSL\s*[12]?\b|microsoft-standard-WSL2")
DOCKER = Screened(
    r"\bdocker run\b|\bnvidia-docker\b|\b(?:in|inside|within|using|from) (?:a |the |my )?docker\b|"
    r"\bdocker(?:file| image| container)\b|--gpus\b|\bkubernetes\b|\bk8s\b|\bpodman\b"
)
# `export CUDA_VISIBLE_DEVICES=1`, `CUDA_VISIBLE_DEVICES=$0 ./run.py`, `os.environ["CUDA_VISIBLE_DEVICES"]='1'`.
ASSIGNMENT = Screened(
    r"\b((?:CUDA|NVIDIA)_VISIBLE_DEVICES|CUDA_DEVICE_ORDER|LD_LIBRARY_PATH|NCCL_[A-Z_]+|PYTORCH_CUDA_ALLOC_CONF)"
    # A quoted value may follow spaces (Python); a bare one may not: in `env CUDA_VISIBLE_DEVICES= python3` the
    # variable is set to the empty string and python3 is the command. With spaces on both sides of `=`
    # (`export CUDA_VISIBLE_DEVICES = 0`) it is no shell assignment at all: the value meant is the one written after.
    r"""(?:["']\])?(?:\s+=\s*|\s*=(?=\s*["'])\s*|=)(?:["']([^"'\n]*)|([^\s"'`;]*))""",
    flags=re.A,
)
WSL_1 = re.compile(r"WSL\s*1", re.I)
# WSL 1's kernel string ("Linux version 4.4.0-19041-Microsoft"): WSL 2's says "-microsoft-standard". The kernel is the
# fact where an issue form's question ("WSL 2 and/or WSL 1") names both.
WSL_1_KERNEL = Screened(r"\b4\.4\.0-\d{4,5}-Microsoft\b", flags=re.A)
CUE_CHARS = 16_000  # what people say about their setup comes before the logs they paste: cues are read there
REPORT_HEADING = "### Environment (envtriage "  # templates/report.md.j2's first line
# A line of a listing: collect_env's package lines, an nvidia-smi table, `pip freeze` (name==1.2) and `conda list`
# (name, then two or more spaces). The last shape is also prose typed with a double space ("1.3.1   EXECUTION
# PROVIDERS only cpu"), so it counts only beside another listing line: a `conda list` is never one line.
LISTING_LINE = re.compile(r"^[ \t]*(?:\[(?:pip\d?|conda)\]|[|+]|[\w.-]+==)", re.M)
COLUMNS_LINE = re.compile(r"^[ \t]*[\w.-]+[ \t]{2,}\S", re.M)
PLAIN, COLUMNS, LISTED = 0, 1, 2  # a line's shape, as _prose_only reads it
# A Python traceback's frame, also behind a log prefix ("(EngineCore_DP0 pid=43623)   File ...")
FRAME_LINE = re.compile(r'\bFile "[^"\n]{0,400}", line \d+[^\n]*')
EXCEPTION = Screened(
    r"^[ \t]*(?:E[ \t]+)?((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning)):[ \t]+(\S.*)$", flags=re.M | re.A
)


class Text:
    """A section's lines as one string, so each pattern scans it in one call; offsets map back to lines."""

    def __init__(self, section: Section) -> None:
        self.section = section
        self.text = section.text
        self.lowered = section.lowered
        self.starts = [0]
        for line in section.lines[:-1]:
            self.starts.append(self.starts[-1] + len(line) + 1)

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset) - 1

    def quote(self, start: int, end: int) -> Quote:
        first, last = self.line_of(start), self.line_of(max(start, end - 1))
        text = " ".join(line.strip() for line in self.section.lines[first : last + 1])
        return Quote(text=text[:500], where=self.section.where(first))

    def all(self, pattern: Screened) -> Iterator[re.Match[str]]:
        return pattern.finditer(self.text, self.lowered)

    def first(self, pattern: Screened) -> re.Match[str] | None:
        return next(iter(self.all(pattern)), None)


def read(section: Section, matrix: Index) -> Partial:
    partial = Partial(NAME)
    text = Text(_without_our_report(section))
    _versions(partial, text)
    _environment(partial, text)
    _companions(partial, text)
    error_lines = _errors(partial, text, matrix)
    _gpus(partial, text, matrix, error_lines)
    for name, (start, end) in topic_spans(text.text, text.lowered).items():
        partial.topics[name] = text.quote(start, end)
    prose = _prose_only(text.section.lines)[:CUE_CHARS]
    # A traceback's frame names a module, not the setup ("vllm_flash_attn/ops/triton/rotary.py" is no word about
    # FlashAttention, vllm-project/vllm#31269); only the cues that exist to read frames (context_only) see them.
    found = matrix.cues_span(FRAME_LINE.sub(_blank, prose), context_only=False) + matrix.cues_span(prose, True)
    for start, end, cue in found:
        partial.cues.setdefault(cue.id, text.quote(start, end))
    variables: dict[str, tuple[int, str]] = {}
    for match in text.all(ASSIGNMENT):
        value = match.group(2) if match.group(2) is not None else match.group(3)
        variables.setdefault(match.group(1), (text.line_of(match.start()), value))
    if variables:
        first = min(index for index, _ in variables.values())
        partial.add(ENV, {name: value for name, (_, value) in variables.items()}, section, first)
    return partial


def _without_our_report(section: Section) -> Section:
    """The section with our own report blanked, from its heading to its twin: the report's facts are read from the
    twin, and what its Markdown lists (the environment's variables, library paths, module names) is not text the
    user wrote - `NCCL_P2P_DISABLE=1` in its variables section is not an error."""
    if TWIN_OPEN not in section.raw:
        return section
    twin = max((n for n, line in enumerate(section.lines) if TWIN_OPEN in line), default=-1)
    heading = next((n for n, line in enumerate(section.lines[: twin + 1]) if line.startswith(REPORT_HEADING)), twin)
    if twin < 0:
        return section  # the twin's opening was cut from the lines (a line too long): the reader of damage says so
    lines = [" " * len(line) if heading <= n <= twin else line for n, line in enumerate(section.lines)]
    return dataclasses.replace(section, lines=lines)


def _versions(partial: Partial, text: Text) -> None:
    refused = refused_by_pip(text.text)
    named = next((m for m in itertools.islice(text.all(TORCH_VERSION), MAX_WORDS) if not _removed(text, m)), None)
    found = [m for m in (named, _torch_tag(text)) if m and _version_of(m) not in refused]
    if found:
        match = min(found, key=lambda m: m.start())
        version = _version_of(match)
        if installed := YOU_HAVE.regex.search(text.section.lines[text.line_of(match.start())]):
            version = installed.group(1)
        tag = version.split("+", 1)[1] if "+" in version else None
        info = TorchInfo(version=version, tag=tag, build=build_of(tag))
        partial.add(TORCH, info, text.section, text.line_of(match.start()))
    if driver := text.first(DRIVER_VERSION):
        partial.add(DRIVER, DriverInfo(version=driver.group(1)), text.section, text.line_of(driver.start()))
    if python := text.first(PYTHON_VERSION):
        partial.add(PYTHON, PythonInfo(version=python.group(1)), text.section, text.line_of(python.start()))


def _version_of(match: re.Match[str]) -> str:
    """The matched torch version, as torch prints it: "PyTorch 2.8.0 + cu129", typed with spaces, is 2.8.0+cu129."""
    return match.group(1).replace(" ", "") if match.re is TORCH_VERSION.regex else f"{match.group(1)}+{match.group(2)}"


def _torch_tag(text: Text) -> re.Match[str] | None:
    for match in itertools.islice(text.all(TAG_ONLY), MAX_WORDS):
        line_start = text.starts[text.line_of(match.start())]
        if owned_by_torch(text.text[line_start : match.start()]) and not _removed(text, match):
            return match
    return None


def _removed(text: Text, match: re.Match[str]) -> bool:
    return removed_by_pip(text.section.lines[text.line_of(match.start())])


def _environment(partial: Partial, text: Text) -> None:
    for windows in text.all(WINDOWS):
        index = text.line_of(windows.start())
        if not WSL.regex.search(text.section.lines[index]):
            partial.add(OS, OsInfo(system="Windows", machine="unknown"), text.section, index)
            break
    else:
        if mac := text.first(MAC):
            partial.add(OS, OsInfo(system="Darwin", machine="unknown"), text.section, text.line_of(mac.start()))
    if kernel := text.first(WSL_1_KERNEL):
        runtime = Runtime(wsl=1, evidence=[kernel.group(0)])
        partial.add(RUNTIME, runtime, text.section, text.line_of(kernel.start()))
    elif wsl := text.first(WSL):
        version = 1 if WSL_1.fullmatch(wsl.group(0)) else 2
        runtime = Runtime(wsl=version, evidence=[wsl.group(0)])  # type: ignore[arg-type]
        partial.add(RUNTIME, runtime, text.section, text.line_of(wsl.start()))
    elif docker := text.first(DOCKER):
        runtime = Runtime(container="docker", evidence=[docker.group(0)])
        partial.add(RUNTIME, runtime, text.section, text.line_of(docker.start()))


def _companions(partial: Partial, text: Text) -> None:
    packages: dict[str, tuple[int, Package]] = {}
    for match in text.all(COMPANION):
        line = text.section.lines[text.line_of(match.start())]
        if INSTALL_COMMAND.search(line) or removed_by_pip(line):
            continue  # "pip install torchvision==0.19.1" says what to install (a fix tried), not what is installed
        name = match.group(1).lower().replace("_", "-")
        packages.setdefault(name, (text.line_of(match.start()), Package(name=name, version=match.group(2))))
    if packages:
        first = min(index for index, _ in packages.values())
        partial.add(PACKAGES, Packages(selected=[p for _, p in packages.values()]), text.section, first)


EXAMPLE_GPU = re.compile(r"\be\.g\.|\bsuch as\b|\bfor example\b|\blike\b", re.I)  # what precedes an example


def _gpus(partial: Partial, text: Text, matrix: Index, error_lines: set[int]) -> None:
    # A GPU named inside a known error text as the message's example ("e.g., RTX 4090") is not the user's; one the
    # user names on the line that quotes the error ("I use a GT 730 and get 'no kernel image'") is.
    mentions = [
        (at, name) for at, name in matrix.gpus_in(text.text)
        if text.line_of(at) not in error_lines or not EXAMPLE_GPU.search(text.text, max(0, at - 16), at)
    ]  # fmt: skip
    if not mentions:
        return
    names: dict[str, str] = {}  # a 64 KB body may name a GPU ten thousand times
    for _, found in mentions:
        names.setdefault(found.lower(), found)
    gpus = [Gpu(index=index, name=name) for index, name in enumerate(names.values())]
    partial.add(GPUS, gpus, text.section, text.line_of(mentions[0][0]))


def _errors(partial: Partial, text: Text, matrix: Index) -> set[int]:
    """Quote the errors in the text; the lines holding a known error text."""
    known = sorted((start, end) for start, end, _ in matrix.errors_span(text.text))
    other = [(m.start(), m.end()) for m in text.all(EXCEPTION)]
    spans: dict[int, tuple[int, int]] = {}
    for start, end in [*known, *other]:  # a known error's quote (with its wrapped tail) beats a bare exception line
        spans.setdefault(text.line_of(start), (start, end))
    known_lines = {text.line_of(start) for start, _ in known}
    unwrapped: dict[int, str] = {}  # a known text broken inside a word, unwrapped, by its first line
    # Only where no known text was found whole, and in the first CUE_CHARS: a second scan of a whole 64 KB paste
    # cost it a third more (benches/triage_bench.py).
    for start, quoted in [] if known else broken_inside_words(text.text[:CUE_CHARS], matrix):
        unwrapped.setdefault(text.line_of(start), quoted)
    known_lines |= set(unwrapped)
    quotes: dict[str, Quote] = {}  # a body can hold an error on each of its 4,000 lines; MAX_ERRORS are kept
    for line in sorted(spans.keys() | unwrapped.keys()):
        if line in unwrapped:
            quote = Quote(text=unwrapped[line][:500], where=text.section.where(line))
        else:
            quote = text.quote(*spans[line])
        quotes.setdefault(quote.text, quote)
        if len(quotes) == MAX_ERRORS:
            break
    partial.errors.extend(quotes.values())
    return known_lines


def _prose_only(lines: list[str]) -> str:
    """The section with its listing lines blanked (same length, so offsets hold): what a package list or a table
    names (`[pip3] nvidia-nccl-cu13`, `| 0  NVIDIA H100 ...`) is context for a fact, never a cue."""
    shapes = [_shape(line) for line in lines]
    listed = [
        shape == LISTED or (shape == COLUMNS and any(shapes[n - 1 : n] + shapes[n + 1 : n + 2]))
        for n, shape in enumerate(shapes)
    ]
    return "\n".join(" " * len(line) if listed[n] else line for n, line in enumerate(lines))


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


def _shape(line: str) -> int:
    return LISTED if LISTING_LINE.match(line) else COLUMNS if COLUMNS_LINE.match(line) else PLAIN
