"""What the learned fallback reads in an issue: the masked words of its title and body.

Two reports of one cause share words ("nouveau", "secure boot", "wsl", "no kernel image"), not numbers, paths or
ids, so those are masked to placeholders first: `12.4` and `2.5.1` become `_ver_`, `/usr/lib/x86_64-linux-gnu/...`
`_path_`, `C:\\Users\\...` `_winpath_` (a Windows path alone says something about the host), digits inside a word
collapse to one `0` (`cu124` and `cu118` are both `cu0`, `sm_86` is `sm_0`). Every pattern is compiled here, at
module level, where tests/test_linear_regex.py proves each linear; text is cut to BODY_CHARS first.
"""

from __future__ import annotations

import re

BODY_CHARS = 30_000  # long logs repeat themselves; the cause is stated near the top or in the first error
MAX_TOKEN = 40  # longer runs are base64, hashes or minified noise

HTML_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.S)  # issue-form hints, our report's JSON twin
MASKS = (
    (re.compile(r"https?://\S+", re.I), " _url_ "),
    (re.compile(r"\b[a-z]:\\[^\s\"'<>|]*", re.I), " _winpath_ "),
    (re.compile(r"/[\w.+~@-]+/[\w.+~@-][\w.+~@/-]*"), " _path_ "),  # no repeated group: sre keeps state per repeat
    (re.compile(r"0x[0-9a-f]+", re.I), " _hex_ "),
    (re.compile(r"\b(?=[0-9a-f]*\d)[0-9a-f]{8,}\b", re.I), " _hex_ "),  # hashes, uuids, addresses
    (re.compile(r"(?<![\d.])\d+(?:\.\d+)+"), " _ver_ "),  # starts only where a run of digits does
)
# A package listing's row ("torch==2.5.1", "[pip3] nvidia-cublas-cu12==12.4.5.8", "libcublas  12.1.0  h8a..."): what
# is installed is never evidence of a cause by its name alone (issue 17's policy), and the names in a healthy listing
# (libcublas, nvjitlink) otherwise read as library trouble.
LISTING_ROW = re.compile(
    r"^[ \t]*(?:\[(?:pip\d?|conda)\][ \t]+)?[A-Za-z0-9_.\-]{2,60}(?:==|[ \t]{2,}|[ \t]+v?)"
    r"\d[\w.+-]*(?:[ \t]+\S+){0,3}[ \t]*$",
    re.M,
)
TOKEN = re.compile(r"[a-z_][a-z0-9_]*")
DIGITS = re.compile(r"\d+")

_STOPWORDS = """
a an the and or of to in on at is it be as by if so do i me my we our you your he she they them this that these
those there here with for from into onto was were are am been being have has had will would could should can may
just also then than but yes all any some such very too more most much many one two its im ive
what which who when where why how after before while again please thanks thank hi hello regards anyone someone
"""
STOPWORDS = frozenset(_STOPWORDS.split())


def masked(text: str) -> str:
    """The text lower-cased, with its URLs, paths, hex ids and versions replaced by placeholders."""
    text = HTML_COMMENT.sub(" ", text[:BODY_CHARS])
    for pattern, placeholder in MASKS:
        text = pattern.sub(placeholder, text)
    return text.lower()


def tokens(text: str) -> list[str]:
    """The masked text's words, digits collapsed, stop words and overlong runs left out."""
    found = []
    for word in TOKEN.findall(masked(text)):
        if len(word) > MAX_TOKEN or word in STOPWORDS:
            continue
        found.append(DIGITS.sub("0", word) if any(ch.isdigit() for ch in word) else word)
    return found


def features(title: str, body: str) -> frozenset[str]:
    """The issue as a set of words: the title's marked `t:` (it names the problem), and those of title and body.

    Word pairs were tried as well and did worse on tune's grouped cross-validation: with two hundred issues most
    pairs are seen once. A package listing's rows are left out (LISTING_ROW): neutral in that cross-validation, and
    fewer guesses on fine issues.
    """
    title_words = tokens(title)
    body = LISTING_ROW.sub(" ", body[:BODY_CHARS])
    return frozenset([*(f"t:{word}" for word in title_words), *title_words, *_distinct_tokens(body)])


def _distinct_tokens(text: str) -> set[str]:
    """set(tokens(text)), each distinct word looked at once: a 30 KB log repeats its words thousands of times."""
    found = set()
    for word in set(TOKEN.findall(masked(text))):
        if len(word) <= MAX_TOKEN and word not in STOPWORDS:
            found.add(DIGITS.sub("0", word))
    return found
