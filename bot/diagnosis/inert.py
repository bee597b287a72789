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

That is the last guard, over the whole comment. Values from a user get more, before they are put into a finding or
a table: `one_line` and `inert_value` (below) make each one line with nothing invisible in it, and nothing that
GitHub reads as a heading, a link or a reference, wherever a template puts it.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

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
    # Install pages of the packages whose CPU builds errors.yaml names (rows' `install`): each reviewed, page by
    # page, before it may be a live link in a comment (tests/bot/diagnosis/test_matrix.py holds the two together).
    "https://docs.jax.dev/en/latest/installation.html",
    "https://huggingface.co/docs/bitsandbytes/installation",
    "https://mmcv.readthedocs.io/en/latest/get_started/installation.html",
    "https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider",
    "https://github.com/facebookresearch/faiss/blob/main/INSTALL.md",
    "https://www.dgl.ai/pages/start.html",
    "https://www.paddlepaddle.org.cn/documentation/docs/en/install/index_en.html",
    "https://xgboost.readthedocs.io/en/latest/install.html",
    "https://github.com/traveller59/spconv",  # its README's install table (spconv-cu118, spconv-cu120, ...)
)
# A bare URL as GitHub could link it: to the next blank (GFM's extended autolink stops there at the latest).
URL_TOKEN = re.compile(r"\S+")
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
    text = _without_urls(text)
    # Backslashes before a backtick are doubled (literal), then the backtick escaped: it can open no code span.
    text = ESCAPED_BACKTICK.sub(lambda m: m.group(1) * 2 + "\\`", text)
    return text


def _tag(match: re.Match[str]) -> str:
    return match.group(0) if KEPT_TAGS.fullmatch(match.group(0)) else match.group(0).replace("<", "&lt;")


def _without_urls(text: str) -> str:
    return URL_TOKEN.sub(_dead_urls, text) if BARE_URL.search(text) else text


def _dead_urls(token: re.Match[str]) -> str:
    """A token's bare URLs with a zero-width space that breaks them, unless it holds one URL and that is ours."""
    text = token.group()
    starts = [match.start() for match in BARE_URL.finditer(text)]
    # "https://www.x" holds two starts; the link cut at "www." is the same page (an allowed link's own host).
    if len(starts) == 2 and text[starts[0] : starts[1]].lower() == "https://":
        starts = starts[:1]
    if len(starts) == 1 and allowed_link(text[starts[0] :]):
        return text
    return BARE_URL.sub(lambda m: m.group() + ZWSP, text)


QUERY_OR_FRAGMENT = re.compile(r"[?#]")


def allowed_link(url: str) -> bool:
    """Whether `url`, and every shorter link GitHub could cut from it, lands under one of OUR_LINKS once a browser
    has decoded it and resolved its dot segments: "https://github.com/pytorch/../../attacker/x" and "%2e%2e" do not.
    A backslash (a browser reads it as "/"), an encoded slash, or an encoding still left after three decodings is
    refused outright."""
    prefix = next((ours for ours in OUR_LINKS if url.startswith(ours)), None)
    if prefix is None or "\\" in url:
        return False
    host_end = prefix.index("/", len("https://"))
    path = QUERY_OR_FRAGMENT.split(url[host_end:], maxsplit=1)[0]
    for _ in range(3):
        decoded = unquote(path)
        if decoded == path:
            break
        if decoded.count("/") != path.count("/") or "\\" in decoded:
            return False
        path = decoded
    else:
        return False
    return _stays_under(prefix[host_end:].count("/") - 1, path)


def _stays_under(depth: int, path: str) -> bool:
    """Whether no ".." segment of `path` climbs above its first `depth` segments (RFC 3986 5.2.4). A segment that
    only starts with two dots counts too: a link cut after them ends in a ".." segment."""
    height = 0
    for segment in path.split("/")[1:]:
        if segment.startswith(".."):
            if height <= depth:
                return False
            if segment == "..":
                height -= 1
                continue
        if segment != ".":
            height += 1
    return True


ZWSP = "\u200b"
# Nothing invisible: format characters (Unicode category Cf: zero-width spaces and joiners, bidi marks, overrides
# and isolates, the BOM, soft hyphens, tags; tests/bot/diagnosis/test_inert.py checks the list against unicodedata)
# and the combining grapheme joiner. A lone surrogate (from a JSON escape) cannot be encoded to send to GitHub.
FORMAT = (
    "\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200c-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)
INVISIBLE = re.compile(f"[{ZWSP}{FORMAT}]+")
INVISIBLE_BUT_OURS = re.compile(f"[{FORMAT}]+")  # in text we composed, the zero-width spaces are ours
SURROGATE = re.compile("[\ud800-\udfff]")
# One line: every control character (C0, DEL, C1 with U+0085) and every separator (U+2028, U+2029, all blanks).
BREAKS = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u2028\u2029]+")
# What GitHub makes live in prose, each broken by a zero-width space (as a mention is) so it reads the same:
# "#" (a heading, "#1", "owner/repo#2"), "@" (a mention, "user@sha"), "GH-3" (after its hyphen),
# 7 or more hex digits (a commit SHA, cut into pieces of 6), an entity ("&#35;1" is "#1"), a tag, and "]" before
# "(", "[" or ":" (a link, a reference link, a link reference definition).
LIVE = re.compile(
    r"(?P<hex>[0-9A-Fa-f]{7,})|[#@]|(?<![A-Za-z0-9])[Gg][Hh]-(?=[0-9])|&(?=[#A-Za-z0-9])|<(?=[A-Za-z/!?])|\](?=[(\[:])"
)
# A value at the start of a line could open a block (a list, a quote, a table, a fence, HTML, a setext underline):
# such a value starts with a zero-width space, which is no blank to CommonMark, so the line is a paragraph's.
BLOCK_START = re.compile(r"[#>+*=_|<\[`~-]|[0-9]{1,9}[.)](?: |$)")


def one_line(value: object, *, composed: bool = False) -> str:
    """`value` as one line of visible text: line breaks and controls are spaces, runs of blanks one space, and
    invisible characters gone; `composed`: a line a template made of values, where zero-width spaces are ours."""
    text = "" if value is None else str(value)
    text = SURROGATE.sub("\ufffd", (INVISIBLE_BUT_OURS if composed else INVISIBLE).sub("", text))
    return BREAKS.sub(" ", text).strip(" ")


def inert_value(value: object, *, composed: bool = False) -> str:
    """`value` as one line that nothing in Markdown or GitHub's references makes live, wherever it is printed."""
    text = LIVE.sub(_broken, _without_urls(one_line(value, composed=composed)))
    return ZWSP + text if BLOCK_START.match(text) else text


def _broken(match: re.Match[str]) -> str:
    text = match.group()
    if match.group("hex"):  # no run of 7 hex digits is left, however GitHub bounds a SHA
        return ZWSP.join(text[at : at + 6] for at in range(0, len(text), 6))
    return text + ZWSP


def inert_values(value: Any) -> Any:
    """`value` with every string inside it (in lists, tuples, sets, dicts, dataclasses) made an `inert_value`; the
    same object where nothing changes. Any other object is refused: a string in it would escape."""
    if value is None or isinstance(value, (bool, int, float)):  # a tuple: also on 3.8 (collector/bundle.py)
        return value
    if isinstance(value, str):
        return value if (made := inert_value(value)) == value else made
    if type(value) in (list, tuple, set, frozenset):
        items = [inert_values(item) for item in value]
        # zip without strict=: the lengths are equal, and strict= is 3.10+ (collector/bundle.py runs on 3.8)
        return value if all(a is b for a, b in zip(items, value)) else type(value)(items)
    if type(value) is dict:
        pairs = [(inert_values(key), inert_values(item)) for key, item in value.items()]
        same = all(k is key and v is item for (k, v), (key, item) in zip(pairs, value.items()))
        return value if same else dict(pairs)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _inert_dataclass(value)
    raise TypeError(f"cannot make a {type(value).__name__} inert; pass strings, containers or dataclasses")


def _inert_dataclass(value: Any) -> Any:
    changed = {}
    for item in dataclasses.fields(value):
        old = getattr(value, item.name)
        if (new := inert_values(old)) is not old:
            changed[item.name] = new
    if not changed:
        return value
    clone = copy.copy(value)  # not dataclasses.replace: a __post_init__ must not refuse the made-inert copy
    for name, new in changed.items():
        object.__setattr__(clone, name, new)
    return clone
