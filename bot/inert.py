"""Markdown made inert: outside code, nothing from an issue stays a live @mention, link, image, HTML tag or marker.

The danger is a disagreement with GitHub about what is code: text we leave alone as code but GitHub shows as prose
keeps its @mention live. So the code we leave alone is only what GitHub cannot read otherwise, and every other
backtick is escaped so GitHub cannot pair it differently either:

- an inline code span whose opening and closing runs of backticks lie on one line (the closing run is the first of
  exactly the same length, CommonMark's rule) and whose content holds no unescaped "|" (in a GFM table row the pipe
  splits the cell before code spans are read, breaking the span in two);
- a fenced block opened at column 0 (at column 0 it can belong to no list item or quote, so only a closing fence
  or the end of the text ends it) and closed as CommonMark closes it.

Inside an HTML block (a line opening with one of the tags we keep, to the next blank line) GitHub reads no Markdown
at all, so there nothing is code. Everything else is prose: mentions get a zero-width space after the "@" (also when
spelled as an HTML entity, which GitHub decodes first), "(" after "]" and bare URLs other than ours lose their link
meaning, tags but a few layout ones are escaped, and backticks are escaped (with the backslashes before them, which
would otherwise escape the escape).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

KEPT = r"</?(?:details|summary|sub|sup|br|b)>"  # layout tags of our templates, without attributes
KEPT_TAGS = re.compile(KEPT, re.I)
HTML_BLOCK = re.compile(rf"^\s*{KEPT}", re.I)
FENCE_OPEN = re.compile(r"^(`{3,}|~{3,})(.*)$")
BACKTICKS = re.compile(r"`+")
MENTION = re.compile(r"@(?=[A-Za-z0-9_-])")
MENTION_ENTITY = re.compile(r"&(#0*64|#x0*40|commat);", re.I)
LINK = re.compile(r"\]\(")
# GitHub links bare URLs (GFM's autolink extension: "http://", "https://", "www."). Ours, in the finding templates,
# stay links; any other gets a zero-width space that breaks the pattern.
BARE_URL = re.compile(r"(?i)(?:https?(?=://)|www(?=\.))")
OUR_LINKS = (
    "https://pytorch.org/",
    "https://download.pytorch.org/",
    "https://github.com/pytorch/",
    "https://docs.nvidia.com/",
)
TAG = re.compile(r"<[^>\n]*>?")
ESCAPED_BACKTICK = re.compile(r"(?<!\\)(\\*)`")  # from a run's first backslash only: linear
UNESCAPED_PIPE = re.compile(r"(?<!\\)(?:\\\\)*\|")


def inert(markdown: str) -> str:
    # CommonMark ends a line at "\r" too: a lone one inside what we take for one line would start a new block.
    return "\n".join(_lines(markdown.replace("\r\n", "\n").replace("\r", "\n").split("\n")))


def _lines(lines: list[str]) -> Iterator[str]:
    fence: str | None = None
    in_html = False
    for line in lines:
        if fence is not None:
            if _closes(fence, line):
                fence = None
            yield line
            continue
        if not line.strip(" \t"):  # blank for CommonMark: spaces and tabs only, not every Unicode space
            in_html = False
            yield line
            continue
        opened = FENCE_OPEN.match(line)
        if not in_html and opened and not (opened.group(1)[0] == "`" and "`" in opened.group(2)):
            fence = opened.group(1)
            yield line
            continue
        in_html = in_html or HTML_BLOCK.match(line) is not None
        yield _prose(line, spans=()) if in_html else _line(line)


def _closes(fence: str, line: str) -> bool:
    return re.fullmatch(rf" {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*", line) is not None


def _line(line: str) -> str:
    return _prose(line, spans=tuple(code_spans(line)))


def code_spans(line: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each code span on one line that GitHub reads as one, opening and closing runs included."""
    runs = [(m.start(), m.end()) for m in BACKTICKS.finditer(line)]
    # The next run of the same length, for each run: one pass from the right keeps the pairing linear.
    following: list[int | None] = [None] * len(runs)
    last: dict[int, int] = {}
    for index in range(len(runs) - 1, -1, -1):
        length = runs[index][1] - runs[index][0]
        following[index], last[length] = last.get(length), index
    index = 0
    while index < len(runs):
        start, end = runs[index]
        close = following[index]
        # "\``x`": an escaped run is literal text here, all of it (`_prose` escapes it).
        if _escaped(line, start) or close is None or UNESCAPED_PIPE.search(line, end, runs[close][0]):
            index += 1
            continue
        yield start, runs[close][1]
        index = close + 1


def _escaped(text: str, at: int) -> bool:
    backslashes = 0
    while at > backslashes and text[at - backslashes - 1] == "\\":
        backslashes += 1
    return backslashes % 2 == 1


def _prose(line: str, spans: tuple[tuple[int, int], ...]) -> str:
    out, at = [], 0
    for start, end in spans:
        out += [_inert_text(line[at:start]), line[start:end]]
        at = end
    out.append(_inert_text(line[at:]))
    return "".join(out)


def _inert_text(text: str) -> str:
    text = MENTION.sub("@\u200b", text)
    text = MENTION_ENTITY.sub(r"&amp;\1;", text)
    text = LINK.sub("]\\(", text)  # [text](url) and ![image](url): a backslash makes them plain text
    text = TAG.sub(_tag, text)
    text = BARE_URL.sub(lambda m: m.group() if text.startswith(OUR_LINKS, m.start()) else m.group() + "\u200b", text)
    # Backslashes before a backtick are doubled (literal), then the backtick escaped: it can open no code span.
    text = ESCAPED_BACKTICK.sub(lambda m: m.group(1) * 2 + "\\`", text)
    return text


def _tag(match: re.Match[str]) -> str:
    return match.group(0) if KEPT_TAGS.fullmatch(match.group(0)) else match.group(0).replace("<", "&lt;")
