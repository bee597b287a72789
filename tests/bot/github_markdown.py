"""What GitHub would make live in a comment, found by rendering it with a real CommonMark parser.

markdown-it-py with raw HTML on, GFM tables and autolinks (linkify) stands in for GitHub's cmark-gfm. Its parsing is
independent of bot/diagnosis/inert.py (only the list of links we may post is shared), so a disagreement between inert's
idea of code and a CommonMark parser's shows up as a live thing here. Where linkify is broader than GFM (a bare "x.com"
or "a@b" with a zero-width space in the domain, "//host", "ftp:"), it is narrowed to GFM: http(s) links only, plus a
separate check for "www." links.

GitHub links more than Markdown does: in text outside code and links it turns "#1", "owner/repo#2", "GH-3" and
commit SHAs into references; `references` lists those (our own "#N" for a duplicate among them), and `headings`
the headings a comment renders.
"""

from __future__ import annotations

import re
from functools import cache
from html.parser import HTMLParser

from markdown_it import MarkdownIt

from bot.diagnosis.inert import allowed_link  # the policy: which links the comment may carry

# Tags a CommonMark + tables rendering produces by itself, and the layout tags our templates use.
STRUCTURE = {
    "p", "ul", "ol", "li", "code", "pre", "strong", "em", "del", "s", "blockquote", "hr", "br",
    "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td",
    "details", "summary", "sub", "sup", "b",
}  # fmt: skip
# GitHub links "@name" not glued to a word (an e-mail address is no mention), and "www." at a word's start.
MENTION = re.compile(r"(?<![A-Za-z0-9])@[A-Za-z0-9]")
WWW = re.compile(r"(?<![\w.])www\.[A-Za-z0-9]", re.I)
# GitHub's references, widened rather than narrowed: "#" before a digit anywhere ("#1", "owner/repo#2"), "GH-3",
# and 7 to 40 hex digits standing as a word (a commit SHA).
REFERENCE = re.compile(r"#[0-9]+|\bGH-[0-9]+|\b[0-9a-f]{7,40}\b", re.I)
HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


@cache
def parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True, "linkify": True}).enable(["table", "linkify", "strikethrough"])
    md.linkify.set({"fuzzy_link": False, "fuzzy_email": False})
    md.linkify.add("//", None)  # linkify-it links protocol-relative "//host/path"; GFM does not
    md.linkify.add("ftp:", None)  # nor ftp: (GFM links http://, https://, www. and e-mail addresses)
    return md


class _Live(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)  # entities decoded, as GitHub decodes them before linking
        self.found: list[str] = []
        self.references: list[str] = []
        self.headings: list[str] = []
        self.code_depth = 0
        self.link_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("code", "pre"):
            self.code_depth += 1
        elif tag == "a":
            self.link_depth += 1
            href = dict(attrs).get("href") or ""
            if not allowed_link(href):
                self.found.append(f"link to {href}")
        elif tag in HEADINGS:
            self.headings.append(tag)
        elif tag not in STRUCTURE:
            self.found.append(f"<{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("code", "pre"):
            self.code_depth = max(0, self.code_depth - 1)
        elif tag == "a":
            self.link_depth = max(0, self.link_depth - 1)

    def handle_data(self, data: str) -> None:
        if self.code_depth == 0:
            self.found += [f"mention {m.group()}" for m in MENTION.finditer(data)]
            if self.link_depth == 0:  # a link's own text ("https://www.x...") holds no second link: GFM nests none
                self.found += [f"link {m.group()}" for m in WWW.finditer(data)]
                self.references += [m.group() for m in REFERENCE.finditer(data)]

    def handle_comment(self, data: str) -> None:
        if "envtriage:comment" in data:
            self.found.append("our marker")


def _read(comment: str, marker: str = "") -> _Live:
    collector = _Live()
    collector.feed(parser().render(comment.replace(marker, "", 1) if marker else comment))
    collector.close()
    return collector


def live(comment: str, marker: str = "") -> list[str]:
    """Every mention, link, HTML tag and marker copy GitHub would make live in `comment` (`marker` removed)."""
    return _read(comment, marker).found


def references(comment: str) -> list[str]:
    """Every issue, pull request or commit reference GitHub would link in `comment`."""
    return _read(comment).references


def headings(comment: str) -> list[str]:
    """The heading tags `comment` renders to ("h1", ...)."""
    return _read(comment).headings
