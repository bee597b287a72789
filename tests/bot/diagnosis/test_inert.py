"""bot/diagnosis/inert.py against a CommonMark parser: whatever the text, nothing in it stays live, and real code stays
code."""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.diagnosis.inert import allowed_link, code_spans, inert, inert_value, inert_values, one_line
from tests.bot import fuzzing, github_markdown

MARKDOWN_PIECES = [
    "`", "``", "```", "~~~", "\\", "\\`", "|", "\\|", "\n", "\n\n", "\r", "   ", "    ", "\t", "- ", "1. ", "> ",
    "<details>", "</details>", "<summary>x</summary>", "<sub>", "<b>", "<img src=x>", "<a href='https://e.x'>",
    "<!--", "-->", "<!-- envtriage:comment -->", "<script>", "@octocat", "&#64;octocat", "&commat;x", "a@b.co",
    "[x](https://evil.example)", "![p](https://evil.example/p.png)", "<https://evil.example>", "https://evil.example",
    "www.evil.example", "https://pytorch.org/get-started/", "| a | b |\n|---|---|\n", "\u200b", "x", " ", "*", "_",
]  # fmt: skip
SHA = "3f786850e387550fdab836ed7e6dc881de23001b"
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


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("https://pytorch.org/get-started/locally/", True),
        ("https://github.com/pytorch/vision#installation)", True),
        ("https://github.com/pytorch/vision/../pytorch/issues", True),  # resolves under github.com/pytorch/
        ("https://github.com/pytorch/./vision", True),
        ("https://github.com/pytorch/../../attacker/x", False),
        ("https://github.com/pytorch/..", False),
        ("https://github.com/pytorch/%2e%2e/%2E%2E/attacker/x", False),
        ("https://github.com/pytorch/.%2e/attacker", False),
        ("https://github.com/pytorch/%252e%252e/attacker", False),  # decoded twice by some server
        ("https://github.com/pytorch/%25252525252e", False),  # still encoded after three decodings
        ("https://github.com/pytorch/..%2fattacker", False),  # an encoded slash
        ("https://github.com/pytorch/x%5c..%5c..%5cattacker", False),  # an encoded backslash
        ("https://github.com/pytorch/x\\..\\..\\attacker", False),  # a browser reads "\" as "/"
        ("https://github.com/pytorch/..attacker", False),  # cut after "..", it climbs
        ("https://github.com/pytorchx/", False),
        ("https://github.com.evil.example/pytorch/", False),
        ("https://evil.example/https://pytorch.org/", False),
    ],
)
def test_allowed_links_are_compared_decoded_and_resolved(url: str, allowed: bool) -> None:
    assert allowed_link(url) is allowed
    out = inert(f"see {url} now")
    assert (url in out) is allowed
    assert github_markdown.live(out) == []


def test_two_urls_in_one_token_are_both_dead() -> None:
    out = inert("https://pytorch.org/x/https://github.com/pytorch/../../attacker")
    assert out.count("https\u200b://") == 2 and github_markdown.live(out) == []


def test_long_tokens_of_our_prefix_stay_linear() -> None:
    text = " ".join(["https://github.com/pytorch/" + "../" * 20_000] * 3)
    assert github_markdown.live(inert(text)) == []


LINE_BREAKS = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


@pytest.mark.parametrize("char", [*LINE_BREAKS, "\r\n", "\t", "\x00", "\x1b", "\x7f", "\x9b", "\u3000"])
def test_one_line_makes_breaks_and_controls_a_space(char: str) -> None:
    assert one_line(f"RTX{char}5090") == "RTX 5090"
    assert one_line(f"  a{char}{char} b {char}") == "a b"


@pytest.mark.parametrize("char", ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u202e", "\u2066"])
def test_one_line_drops_invisible_characters(char: str) -> None:
    assert one_line(f"RTX {char}5090{char}") == "RTX 5090"


def test_one_line_covers_every_control_separator_and_format_character() -> None:
    """The character classes in bot/diagnosis/inert.py against this Python's Unicode database."""
    kept = [
        hex(point)
        for point in range(sys.maxunicode + 1)
        if unicodedata.category(chr(point)) in ("Cc", "Cf", "Cs", "Zl", "Zp")
        and one_line(f"a{chr(point)}b") not in ("a b", "ab", "a\ufffdb")
    ]
    assert kept == []
    assert one_line("a\ud800b") == "a\ufffdb"  # a lone surrogate from a JSON escape cannot be sent


@pytest.mark.parametrize(
    "value",
    [
        "# Heading", "## two", "#1", "acme/other#2", "GH-3", "gh-12", "ugh-3 GH-4", SHA, SHA[:7], SHA.upper(),
        f"owner/repo@{SHA[:12]}", f"user@{SHA}", "@octocat", "&#35;1", "&num;1", "&#64;x", "[x]: https://e.example",
        "[x][y]", "[x](https://e.example)", "<details>", "</details>", "<img src=x>", "- item", "* item", "+ item",
        "1. item", "2) item", "> quote", "===", "---", "| a | b |", "```", "~~~", "<!-- envtriage:comment -->",
    ],
)  # fmt: skip
def test_an_inert_value_is_plain_text_wherever_it_lands(value: str) -> None:
    made = inert_value(value)
    assert made.replace("\u200b", "") == value
    for where in (made, f"   {made}", f"1. **{made}**", f"text {made}", f"{made}\n{made}", f"a\n{made}"):
        for shown in (where, inert(where)):  # by itself, and as the whole comment is made inert
            assert github_markdown.live(shown) == [], shown
            assert github_markdown.references(shown) == [] and github_markdown.headings(shown) == [], shown
            # One paragraph (or our own list item): the value opened no block of its own.
            blocks = re.findall(r"<(p|ol|ul|li|blockquote|pre|table|hr|h[1-6]|details)\b", render(shown))
            assert blocks in (["p"], ["ol", "li"]), (shown, render(shown))


def render(markdown: str) -> str:
    return str(github_markdown.parser().render(markdown))


def test_a_value_keeps_its_ordinary_text() -> None:
    assert inert_value("NVIDIA GeForce RTX 4090") == "NVIDIA GeForce RTX 4090"
    assert inert_value("2.6.0+cu124") == "2.6.0+cu124"
    assert inert_value("/usr/lib/x86_64-linux-gnu/libcudnn.so.9") == "/usr/lib/x86_64-linux-gnu/libcudnn.so.9"
    assert inert_value("Tesla V100-PCIE-16GB") == "Tesla V100-PCIE-16GB"


@dataclass(frozen=True)
class Refusing:
    name: str
    sizes: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if "\n" in self.name or "\u200b" in self.name:
            raise ValueError("refused")


def test_inert_values_reach_into_containers_and_dataclasses() -> None:
    value: dict[str, Any] = {"gpu": [Refusing("a\t#1", [1])], "names": ("ok", "GH-3"), "n": 3, "none": None}
    made = inert_values(value)  # the copy is made without __post_init__, which would refuse it
    assert made["gpu"][0].name == "a #\u200b1" and made["gpu"][0].sizes == [1]
    assert made["names"] == ("ok", "GH-\u200b3") and made["n"] == 3 and made["none"] is None
    assert value["gpu"][0].name == "a\t#1"  # the rule's own objects are not changed
    same = {"gpu": [Refusing("RTX 4090")], "cc": "8.9"}
    assert inert_values(same) is same  # nothing to change, nothing copied
    with pytest.raises(TypeError, match="inert"):
        inert_values(object())
