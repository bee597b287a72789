"""Issue-form bodies: `### Heading` sections, `_No response_` placeholders, headings matched loosely.

GitHub renders each form field as "### <label>" followed by the answer, or `_No response_` when the field was
left empty. Headings inside code fences are user text, not fields; maintainers rename labels over time, so a
section's role is guessed from words in its heading rather than from the exact label.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from bot.diagnosis.readers.base import Section, clean_lines, normalise_ends

# The closing "###" of "## Title ##" is stripped in code: `(.+?)\s*#*\s*$` tries every split of a run of spaces
# between the three quantifiers and takes seconds on a 2,000-character line of tabs.
HEADING = re.compile(r"^#{2,4}\s+(\S.*)$")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
# An issue form has a few dozen fields at most; a pasted log can hold ten thousand "###" lines, which are no fields.
MAX_FIELDS = 200
EMPTY = {"_no response_", "no response", "none", "n/a", "-", ""}
Role = Literal["environment", "error", "description", "other"]
ROLE_WORDS: list[tuple[Role, tuple[str, ...]]] = [
    (
        "environment",
        (
            "environment",
            "version",
            "system info",
            "collect_env",
            "setup",
            "configuration",
            "hardware",
            "platform",
            "env",
            "envtriage",
            "nvidia-smi",
            "python -m collector",
        ),
    ),
    ("error", ("error", "traceback", "log", "stack", "output", "message")),
    ("description", ("bug", "describe", "description", "problem", "issue", "what happened", "reproduc", "summary")),
]


# One search per role: a pasted log can hold ten thousand headings.
ROLE_PATTERNS = [(role, re.compile("|".join(map(re.escape, keys)))) for role, keys in ROLE_WORDS]


@dataclass(frozen=True)
class FormField:
    heading: str
    role: Role
    empty: bool


def role_of(heading: str) -> Role:
    words = heading.lower()
    return next((role for role, pattern in ROLE_PATTERNS if pattern.search(words)), "other")


def split(body: str) -> tuple[Section, list[FormField]]:
    """The body as one section that knows its headings, and the form fields it holds.

    Readers scan the body once, whatever the number of headings (a pasted log can hold thousands of "###").
    """
    lines = clean_lines(body)
    starts = _headings(lines)
    fields = []
    for number, (at, heading) in enumerate(starts[:MAX_FIELDS]):
        end = starts[number + 1][0] if number + 1 < len(starts) else len(lines)
        empty = "\n".join(lines[at + 1 : end]).strip().lower() in EMPTY
        fields.append(FormField(heading=heading, role=role_of(heading), empty=empty))
    return Section("body", lines, 1, normalise_ends(body), tuple(starts)), fields


def _headings(lines: list[str]) -> list[tuple[int, str]]:
    found = []
    fence: str | None = None
    for index, line in enumerate(lines):
        if line[:1] not in "#`~ \t" or not line:
            continue
        if match := FENCE.match(line):
            mark = match.group(1)[0] * 3
            fence = None if fence == mark else (fence or mark)
            continue
        if fence is None and (match := HEADING.match(line)):
            found.append((index, match.group(1).rstrip("#").rstrip() or match.group(1)))
    return found
