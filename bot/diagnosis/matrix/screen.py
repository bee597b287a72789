"""Skip a pattern cheaply when a text cannot match it: the literal words every match must contain.

Scanning a 64 KB issue body with a hundred case-insensitive patterns costs tens of milliseconds, most of it on
patterns that cannot match. For each pattern we derive, from its parse tree, alternatives of literal text of
which at least one must occur in any match; a substring test on the lower-cased body then rules most patterns
out before the regular expression runs.

Finding those words is itself one scan of the body per word (about 480 words). With pyahocorasick installed (the
`bot` extra), every word of every pattern is found in one pass over a text instead, and each pattern reads its
words' offsets from that (`_offsets`); without it (the collector's one-file bundle), each word is looked for with
`str.find`, with the same result.

`stretched()` makes a pattern's spaces take the runs of spaces a terminal's or a logger's wrapping leaves in a message
(PADDED says which texts have them); the matrix runs those variants only there, since their keywords are single words.
"""

from __future__ import annotations

import functools
import itertools
import re
import sys
from collections.abc import Iterator, Sequence
from typing import Any

try:
    import ahocorasick
except ImportError:  # the collector's bundle, or a bot installed without its extras
    ahocorasick = None

if sys.version_info >= (3, 11):  # the parser moved into re (the old module names warn since 3.11)
    import re._constants as sre_constants
    import re._parser as sre_parse
else:  # pragma: no cover
    import sre_constants
    import sre_parse

MIN_WORD = 3
# Every Screened pattern's words, and the texts most recently indexed (each is scanned by many patterns in turn; a
# triage reads a few long texts - the body, its sections, the prose).
_WORDS: set[str] = set()
_INDEXED: list[tuple[str, dict[str, list[int]]]] = []
INDEXED_TEXTS = 8
MIN_INDEXED = 4096  # shorter texts: a few str.find calls cost less than a pass in Python over the matches


def keywords(pattern: str, shortest: int = MIN_WORD) -> list[str] | None:
    """Lower-case words, one of which occurs in every match; None when no such word is known."""
    try:
        return _parsed_keywords(pattern, re.I, shortest)
    except re.error:
        return None


def _parsed_keywords(pattern: str, flags: int, shortest: int) -> list[str] | None:
    """keywords(), but an invalid pattern raises re.error, as compiling it would."""
    return _sequence(list(sre_parse.parse(pattern, flags).data), shortest)


def _sequence(items: list[Any], shortest: int = MIN_WORD) -> list[str] | None:
    """The best requirement of a sequence: its longest literal run, or a required branch's alternatives."""
    best: list[str] | None = None
    run = ""
    for op, arg in [*items, (None, None)]:
        if op is sre_constants.LITERAL:
            run += chr(arg).lower()
            continue
        if len(run) >= shortest and (best is None or min(map(len, best)) < len(run)):
            best = [run]
        for inner in (_joined(run, op, arg), _required(op, arg, shortest)):
            if inner and min(map(len, inner)) >= shortest and (best is None or _shorter(best, inner)):
                best = inner
        run = ""
    return best


def _shorter(best: list[str], other: list[str]) -> bool:
    return min(map(len, best)) < min(map(len, other))


def _joined(run: str, op: Any, arg: Any) -> list[str] | None:
    """A literal run and the group right after it: "P(4|40)" must contain "p4" or "p40"."""
    if not run or op is not sre_constants.SUBPATTERN:
        return None
    body = list(arg[-1])
    options = body[0][1][1] if len(body) == 1 and body[0][0] is sre_constants.BRANCH else [body]
    prefixes = [_prefix(list(option)) for option in options]
    return sorted({run + prefix for prefix in prefixes}) if all(prefixes) else None


def _prefix(items: list[Any]) -> str:
    prefix = ""
    for op, arg in items:
        if op is not sre_constants.LITERAL:
            break
        prefix += chr(arg).lower()
    return prefix


def _required(op: Any, arg: Any, shortest: int) -> list[str] | None:
    if op is sre_constants.SUBPATTERN:
        return _sequence(list(arg[-1]), shortest)
    if op is sre_constants.BRANCH:
        options = [_sequence(list(branch), shortest) for branch in arg[1]]
        if any(option is None for option in options):
            return None
        return sorted({word for option in options for word in option or []})
    if op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT) and arg[0] >= 1:
        return _sequence(list(arg[2]), shortest)
    return None


class Screened:
    """A pattern with its keywords; `finditer` runs the pattern only on lines holding a keyword.

    The pattern is compiled the first time a text holds one of its keywords: most of the matrix's hundred-odd
    patterns never get that far in a run of the collector or the CLI, and compiling them all costs more than
    the rest of loading the matrix.
    """

    # ASCII word boundaries by default: Chinese and Japanese prose runs its words into Latin ones
    # ("如果设置CUDA_VISIBLE_DEVICES会"), and with Unicode \b a CJK character is a word character.
    def __init__(self, pattern: str, flags: int = re.I | re.A, shortest: int = MIN_WORD, lines_before: int = 0) -> None:
        self.pattern, self.flags = pattern, flags
        self.lines_before = lines_before  # a message wrapped before its keyword starts on an earlier line
        self.words = _parsed_keywords(pattern, flags, shortest)  # parsing finds what compiling would refuse
        _WORDS.update(self.words or ())

    @functools.cached_property
    def regex(self) -> re.Pattern[str]:
        return re.compile(self.pattern, self.flags)

    def possible(self, lowered: str) -> bool:
        return self.words is None or any(word in lowered for word in self.words)

    def finditer(
        self, text: str, lowered: str, unwrapped: str | None = None, per_word: int | None = None
    ) -> Iterator[re.Match[str]]:
        """Matches in `text` (`lowered` is text.lower()), looking only around the keywords' occurrences.

        Each window is the keyword's line and the next one, so a match may still continue onto a wrapped line.
        `unwrapped`, where given, is `lowered` with its line breaks as spaces (same length): keywords are looked
        for there, so a keyword broken over two lines is still found. `per_word` bounds the windows tried for each
        keyword to its first occurrences (where the first match is all that is wanted).
        """
        if self.words is None:
            yield from self.regex.finditer(text)
            return
        search = unwrapped or lowered
        offsets = _offsets(search)
        found = (
            itertools.islice(_windows(lowered, word, search, _of(offsets, word), self.lines_before), per_word)
            for word in self.words
        )
        windows = sorted(itertools.chain.from_iterable(found))
        done = 0
        for start, end in windows:
            start = max(start, done)
            if start < end:
                yield from self.regex.finditer(text, start, end)
                done = end


def _windows(
    lowered: str, word: str, search: str, offsets: Sequence[int] | None = None, lines_before: int = 0
) -> Iterator[tuple[int, int]]:
    """The windows around `word`'s occurrences in `search`: its line and the next (and `lines_before` lines before
    it), none overlapping. `offsets`, where given, are the word's start offsets in `search` (found already, in
    order); else `str.find` looks."""
    starts = iter(offsets) if offsets is not None else None
    at = _next(search, word, 0, starts)
    while at >= 0:
        start = lowered.rfind("\n", 0, at) + 1
        for _ in range(lines_before):
            start = lowered.rfind("\n", 0, max(start - 1, 0)) + 1
        end = lowered.find("\n", at + len(word))
        end = len(lowered) if end < 0 else lowered.find("\n", end + 1)
        end = len(lowered) if end < 0 else end
        yield start, end
        at = _next(search, word, end, starts)


def _of(offsets: dict[str, list[int]] | None, word: str) -> Sequence[int] | None:
    return None if offsets is None else offsets.get(word, ())


def _next(search: str, word: str, after: int, starts: Iterator[int] | None) -> int:
    if starts is None:
        return search.find(word, after)
    return next((at for at in starts if at >= after), -1)


def _offsets(search: str) -> dict[str, list[int]] | None:
    """Every screening word's start offsets in `search`, found in one pass; None without pyahocorasick."""
    if ahocorasick is None or len(search) < MIN_INDEXED:
        return None
    for text, offsets in _INDEXED:
        if text is search or text == search:  # a reader may lower-case the same text again
            return offsets
    matcher = _matcher(len(_WORDS))
    offsets = {}
    for end, word in matcher.iter(search):
        offsets.setdefault(word, []).append(end - len(word) + 1)
    _INDEXED.insert(0, (search, offsets))
    del _INDEXED[INDEXED_TEXTS:]
    return offsets


@functools.lru_cache(maxsize=1)
def _matcher(words: int) -> Any:
    """The automaton of every word registered so far; keyed by their number, so patterns added since rebuild it."""
    automaton = ahocorasick.Automaton()
    for word in sorted(_WORDS):
        automaton.add_word(word, word)
    automaton.make_automaton()
    return automaton


# A line indented deeper than a traceback's frames: where a terminal or a logger (rich, loguru) wrapped a message,
# it pads the broken line to the screen's width (the readers strip that) and indents the rest under its first column.
PADDED = "\n" + " " * 9
STRETCH = "{1,80}"  # a wrapped line's padding and the next line's indent, as rich pads a 120-column terminal


def stretched(pattern: str) -> str:
    """`pattern` with each literal space (outside a character class and a look-behind, not quantified) taking a run
    of 1 to 80 spaces.

    Terminals and loggers that wrap a long message pad the broken line to the width of the screen and indent the
    rest (rich and loguru print a file:line column at the right: "Error 804: forward      install.py:114" then
    "      compatibility was attempted"); read with its line breaks as spaces, the message has a run of spaces
    where it printed one. The run is bounded (STRETCH): an unbounded one after a class that takes spaces too would
    scan the rest of a long run from every start (quadratic, tests/test_linear_regex.py)."""
    out, class_at, escaped = [], -1, False  # class_at: where the open character class began
    depth, behind = 0, []  # open groups; the depths of the open look-behinds (fixed width: no stretching there)
    for at, char in enumerate(pattern):
        out.append(char)
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif class_at >= 0:
            if char == "]" and pattern[class_at + 1 : at] not in ("", "^"):  # "[]" / "[^]": a literal ]
                class_at = -1
        elif char == "[":
            class_at = at
        elif char == "(":
            depth += 1
            if pattern.startswith(("(?<=", "(?<!"), at):
                behind.append(depth)
        elif char == ")":
            if behind and behind[-1] == depth:
                behind.pop()
            depth -= 1
        elif char == " " and not behind and pattern[at + 1 : at + 2] not in ("?", "*", "+", "{"):
            out.append(STRETCH)
    return "".join(out)
