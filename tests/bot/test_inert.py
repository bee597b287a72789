"""bot/inert.py against a CommonMark parser: whatever the text, nothing in it stays live, and real code stays code."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.inert import code_spans, inert
from tests.bot import fuzzing, github_markdown

MARKDOWN_PIECES = [
    "`", "``", "```", "~~~", "\\", "\\`", "|", "\\|", "\n", "\n\n", "\r", "   ", "    ", "\t", "- ", "1. ", "> ",
    "<details>", "</details>", "<summary>x</summary>", "<sub>", "<b>", "<img src=x>", "<a href='https://e.x'>",
    "<!--", "-->", "<!-- envtriage:comment -->", "<script>", "@octocat", "&#64;octocat", "&commat;x", "a@b.co",
    "[x](https://evil.example)", "![p](https://evil.example/p.png)", "<https://evil.example>", "https://evil.example",
    "www.evil.example", "https://pytorch.org/get-started/", "| a | b |\n|---|---|\n", "\u200b", "x", " ", "*", "_",
]  # fmt: skip
markdown_text = st.lists(st.sampled_from(MARKDOWN_PIECES) | st.text(max_size=5), max_size=60).map("".join)


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(text=markdown_text)
def test_nothing_stays_live(text: str) -> None:
    out = inert(text)
    assert github_markdown.live(out) == [], (text, out)
    assert fuzzing.live_mentions(out) == [], (text, out)


@pytest.mark.parametrize(
    ("text", "live"),
    [
        ("`` @a", "@\u200ba"),  # a run with no closing run of its length is text
        ("`` x ` @a ``", None),  # closed only by a run of exactly its length
        ("| `x | @a` |", "@\u200ba"),  # a table cell ends at the pipe, before code spans are read
        ("\\`@a`", "@\u200ba"),  # an escaped backtick opens nothing
        ("a `` b\n@c ``", "@\u200bc"),  # spans we keep open and close on one line
        ("<details>\n`@a`", "@\u200ba"),  # in an HTML block Markdown is not read
        ("~~~\n@a\n~~~", None),
        ("  ```\n@a\n```", "@\u200ba"),  # an indented fence could belong to a list item; not trusted
    ],
)
def test_what_counts_as_code(text: str, live: str | None) -> None:
    out = inert(text)
    assert github_markdown.live(out) == []
    if live:
        assert live in out
    else:
        assert "@a" in out


def test_code_is_left_as_written() -> None:
    text = "hi @octocat <b>ok</b> <img src=x> `@keep <tags>` and\n```\n@block <img>\n```\n"
    out = inert(text)
    assert "@\u200boctocat" in out and "<b>ok</b>" in out and "&lt;img src=x>" in out
    assert "`@keep <tags>`" in out and "```\n@block <img>\n```" in out


def test_our_links_stay_links_and_others_do_not() -> None:
    out = inert("see https://pytorch.org/get-started/locally/ not https://evil.example or www.evil.example")
    assert "https://pytorch.org/get-started/locally/" in out
    assert "https\u200b://evil.example" in out and "www\u200b.evil.example" in out


def test_the_oracle_links_what_gfm_links() -> None:
    """The oracle, narrowed to GFM: a broken URL (found by fuzzing) is no link; a whole one is."""
    broken = inert("driver from https://www.nvidia.com/Download/index.aspx")
    assert github_markdown.live(broken) == []
    assert github_markdown.live("https://evil.example www.evil.example") == [
        "link to https://evil.example",
        "link www.e",
    ]


def test_pairing_is_linear_on_hostile_lines() -> None:
    line = "".join("`" * length + "x" for length in range(1, 400)) + "\\" * 50_000 + "|" * 50_000
    assert list(code_spans(line)) == []
