"""What a reader gets (a section of text with its location) and what it gives back (facts with evidence)."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.diagnosis.matrix import Index
from collector.report.model import Fact, Missing
from collector.report.schema import Key

# Pasted text arrives with Windows line ends, tabs turned to spaces, and GitHub's invisible characters.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\u200b\ufeff]")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")  # colour codes from terminals and `nvidia-smi topo -m`
# A Markdown quote ("> PyTorch version: 1.5.0"), but not a Python prompt (">>> import torch").
QUOTE = re.compile(r"^ {0,3}>(?!>) ?", re.M)
# The label ends on a non-blank (or is one letter and a blank), so `\s*` alone takes the blanks before the colon: with
# a label that may end in blanks, each of its 60 lengths rescanned a long run of them. The value's trailing blanks
# go by rstrip: `(.*?)\s*$` retries `\s*` at every blank of a long run.
LABELLED = re.compile(r"^\s*([A-Za-z](?:[A-Za-z0-9_ ./()+-]{0,59}?[A-Za-z0-9_./()+-]|(?= )))\s*:\s*(.*)$")
MAX_LINE = 2000  # longer lines are cut: nothing we read is that long, and regexes stay linear
# Lines of one section the line readers see. GitHub's 65,536 characters hold 65,536 empty lines (a body of "\r"
# took 190 ms); a real paste, even `nvidia-smi -q` of eight GPUs, holds fewer than 2,000. The raw text (a report
# twin) is still read whole.
MAX_LINES = 4000
# A node holds 8 to 16 GPUs; a paste listing more was written by hand (a twin of 800 GPUs took 1.4 s), so only the
# first MAX_GPUS of each reader's list are read, and the GPUs fact's source says so.
MAX_GPUS = 64
MAX_ERRORS = 50  # error quotes kept for a case (the rules and the comment need a few)
PROSE = "text"  # the plain-text reader's name (readers/freeform.py), here so the rules need not import that reader


@dataclass
class Section:
    """A piece of the issue: the whole body, one issue-form section, or a comment."""

    name: str  # "body", "Versions", "comment 3"
    lines: list[str]  # cleaned and cut to MAX_LINE, for the line-by-line readers
    first_line: int = 1  # line number of lines[0] within the body
    raw: str = ""  # the section as written (line ends normalised), for readers of long lines: the report twin
    # Issue-form headings inside this section, (index of the heading's line, heading): evidence then says
    # "'Versions', line 12" although the whole body is read in one pass.
    headings: tuple[tuple[int, str], ...] = ()

    @classmethod
    def of(cls, name: str, text: str, first_line: int = 1) -> Section:
        return cls(name, clean_lines(text), first_line, normalise_ends(text))

    def where(self, index: int) -> str:
        name = self.name
        for start, heading in self.headings:
            if start > index:
                break
            name = f"'{heading}'"
        return f"{name}, line {self.first_line + index}"

    @functools.cached_property
    def text(self) -> str:
        return "\n".join(self.lines)

    @functools.cached_property
    def lowered(self) -> str:
        """For cheap "could this reader find anything here?" tests before any regular expression runs."""
        return self.text.lower()


def normalise_ends(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def clean_lines(text: str) -> list[str]:
    # On the whole text at once (none of the patterns spans a line end): ten thousand short lines cost no more.
    text = QUOTE.sub("", CONTROL.sub("", ANSI.sub("", normalise_ends(text))))
    return [line[:MAX_LINE].rstrip() for line in text.split("\n", MAX_LINES)[:MAX_LINES]]


@dataclass(frozen=True)
class Quote:
    """An error line (or the head of a traceback) found in the text, and where."""

    text: str
    where: str


@dataclass
class Partial:
    """What one reader found in one section."""

    reader: str
    facts: dict[str, Fact[Any]] = field(default_factory=dict)
    errors: list[Quote] = field(default_factory=list)
    missing: dict[str, Missing] = field(default_factory=dict)  # from our own report: why a fact is absent
    topics: dict[str, Quote] = field(default_factory=dict)  # what the issue is about: "fp8", "mig", "nccl_hang"...
    cues: dict[str, Quote] = field(default_factory=dict)  # matrix cue id -> where the prose says it

    def add(self, key: Key[Any], value: Any, section: Section, index: int, *, source: str | None = None) -> None:
        """Record a fact unless this reader already found one for the key (the first occurrence wins)."""
        if key.name not in self.facts:
            line = section.lines[index] if 0 <= index < len(section.lines) else ""
            self.facts[key.name] = Fact(
                value, source=f"{source or self.reader} ({section.where(index)})", evidence=line.strip()[:300]
            )

    def __bool__(self) -> bool:
        return bool(self.facts or self.errors or self.missing or self.topics or self.cues)


class Reader(Protocol):
    name: str

    def __call__(self, section: Section, matrix: Index) -> Partial: ...


def labelled(line: str) -> tuple[str, str] | None:
    """ "PyTorch version: 2.4.1" and vLLM's aligned "PyTorch version       : 2.4.1" -> (label, value)."""
    match = LABELLED.match(line)
    return (match.group(1).strip().lower(), match.group(2).rstrip()) if match else None


def unknown(value: str) -> bool:
    """collect_env's ways of saying nothing: "Could not collect", "N/A", "None", empty."""
    return value.strip().lower() in {"", "could not collect", "n/a", "none", "no cuda", "not available", "nan"}
