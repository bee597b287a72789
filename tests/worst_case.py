"""A regular expression's own worst inputs, built from its parse tree (tests/test_linear_regex.py, the fuzz bench).

A backtracking engine goes quadratic (or worse) when a run of characters can be split between quantifiers in
many ways, or when a match attempt that starts at every character of a run scans the rest of the run before it
fails. Both need a run of what the pattern itself repeats, so for every repeat in the tree we build runs of
each kind of character the repeat accepts (one per class of characters the whole pattern treats alike), of two
such characters alternating, of a sample of the repeat's body, and of the literal text before the repeat glued
to it ("-" before `[\\w-]*`, nested: "-a-a-a..."), alone, after the text that leads to the repeat, and followed
by the start of what comes after it. No input is hand-written, so a new pattern gets its own worst case.
"""

from __future__ import annotations

import itertools
import re
import string
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

if sys.version_info >= (3, 11):
    import re._constants as sre_constants
    import re._parser as sre_parse
else:  # pragma: no cover
    import sre_constants
    import sre_parse

C = sre_constants
# Every character the patterns might treat specially; one representative per behaviour is kept per pattern.
POOL = (
    "a1 -._:/=\t\n\r,;\"'`@#$%&*+?!^|~<>()[]{}\\"
    + string.ascii_letters
    + string.digits
    + "\x00\x1b\u00a0\u00e9\u0627\u200b\u200d\u202e\ufeff\u2028\U0001f600\u00a7"
)
REPEATS = {C.MAX_REPEAT, C.MIN_REPEAT} | ({C.POSSESSIVE_REPEAT} if hasattr(C, "POSSESSIVE_REPEAT") else set())
SINGLE = {C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN}
CATEGORIES = {
    C.CATEGORY_DIGIT: re.compile(r"\d"),
    C.CATEGORY_NOT_DIGIT: re.compile(r"\D"),
    C.CATEGORY_SPACE: re.compile(r"\s"),
    C.CATEGORY_NOT_SPACE: re.compile(r"\S"),
    C.CATEGORY_WORD: re.compile(r"\w"),
    C.CATEGORY_NOT_WORD: re.compile(r"\W"),
}
MAX_SAMPLE_REPEAT = 64  # `[0-9a-f]{64}` is sampled as 64 characters; `{20,255}` as 20
END = "\u00a7"  # no pattern accepts "§": it ends a run so the match must fail there


@dataclass(frozen=True)
class Case:
    name: str  # what the input is made of, for the failure message
    before: str  # the text leading to the run
    unit: str  # what the run repeats
    after: str  # what follows the run

    def text(self, size: int) -> str:
        room = max(1, (size - len(self.before) - len(self.after)) // max(1, len(self.unit)))
        return (self.before + self.unit * room + self.after)[:size]


class Tree:
    """A pattern's parse tree, with what each single-character node accepts."""

    def __init__(self, pattern: str, flags: int) -> None:
        self.flags = flags
        self.items = list(sre_parse.parse(pattern, flags).data)
        self.nodes: list[tuple[Any, Any]] = []
        self._collect(self.items)
        self.accepted = {(op, id(arg)): self._accepted(op, arg) for op, arg in self.nodes}
        by_behaviour: dict[tuple[bool, ...], str] = {}
        for ch in POOL:
            by_behaviour.setdefault(tuple(ch in self.accepted[op, id(arg)] for op, arg in self.nodes), ch)
        self.representatives = list(by_behaviour.values())  # one character per way the pattern treats it
        self.chosen = {
            key: next((ch for ch in self.representatives if ch in accepted), "")
            for key, accepted in self.accepted.items()
        }
        self.groups: dict[int, str] = {}

    def _collect(self, items: list[Any]) -> None:
        for op, arg in items:
            if op in SINGLE:
                self.nodes.append((op, arg))
            for inner in children(op, arg):
                self._collect(inner)

    def _accepted(self, op: Any, arg: Any) -> frozenset[str]:
        return _accepted_by(op, repr(arg), self.flags & (re.I | re.S), lambda ch: self.accepts(op, arg, ch))

    def accepts(self, op: Any, arg: Any, ch: str) -> bool:
        if op is C.ANY:
            return ch != "\n" or bool(self.flags & re.S)
        if op in (C.LITERAL, C.NOT_LITERAL):
            return self._same(chr(arg), ch) == (op is C.LITERAL)
        negate = bool(arg) and arg[0][0] is C.NEGATE
        return any(self._in(kind, value, ch) for kind, value in arg if kind is not C.NEGATE) != negate

    def _same(self, literal: str, ch: str) -> bool:
        return literal == ch or (bool(self.flags & re.I) and literal.lower() == ch.lower())

    def _in(self, kind: Any, value: Any, ch: str) -> bool:
        if kind is C.LITERAL:
            return self._same(chr(value), ch)
        if kind is C.RANGE:
            low, high = value
            folded = {ch, ch.lower(), ch.upper()} if self.flags & re.I else {ch}
            return any(low <= ord(c) <= high for c in folded if len(c) == 1)
        if kind is C.CATEGORY:
            return CATEGORIES[value].match(ch) is not None if value in CATEGORIES else False
        return False

    def first(self, items: list[Any]) -> list[str]:
        """Representative characters a match of `items` can start with."""
        for op, arg in items:
            if op in SINGLE:
                return [ch for ch in self.representatives if ch in self.accepted[op, id(arg)]]
            if op in REPEATS or op is C.SUBPATTERN or op is C.BRANCH or op is getattr(C, "ATOMIC_GROUP", None):
                found = [ch for inner in children(op, arg) for ch in self.first(inner)]
                if found:
                    return list(dict.fromkeys(found))
        return []

    def sample(self, items: list[Any]) -> str:
        """A short text that `items` matches, or comes close to matching."""
        return "".join(self._sample(op, arg) for op, arg in items)

    def _sample(self, op: Any, arg: Any) -> str:
        if op in SINGLE:
            return self.chosen[op, id(arg)]
        if op in REPEATS:
            return self.sample(list(arg[2])) * min(arg[0], MAX_SAMPLE_REPEAT)
        if op is C.SUBPATTERN:
            text = self.sample(list(arg[-1]))
            if arg[0]:
                self.groups[arg[0]] = text
            return text
        if op is C.BRANCH:
            return self.sample(list(arg[1][0]))
        if op is C.GROUPREF:
            return self.groups.get(arg, "")
        if op is C.GROUPREF_EXISTS:
            return self.sample(list(arg[1]))
        if op is getattr(C, "ATOMIC_GROUP", None):
            return self.sample(list(arg))
        return ""  # anchors and lookarounds take no text


_CACHE: dict[tuple[Any, str, int], frozenset[str]] = {}


def _accepted_by(op: Any, arg: str, flags: int, accepts: Callable[[str], bool]) -> frozenset[str]:
    """The characters of POOL a single-character node accepts (shared by every pattern holding the same node)."""
    key = (op, arg, flags)
    if key not in _CACHE:
        _CACHE[key] = frozenset(ch for ch in POOL if accepts(ch))
    return _CACHE[key]


def children(op: Any, arg: Any) -> list[list[Any]]:
    """The sub-sequences under a node."""
    if op in REPEATS:
        return [list(arg[2])]
    if op is C.SUBPATTERN:
        return [list(arg[-1])]
    if op is C.BRANCH:
        return [list(branch) for branch in arg[1]]
    if op in (C.ASSERT, C.ASSERT_NOT):
        return [list(arg[1])]
    if op is C.GROUPREF_EXISTS:
        return [list(part) for part in arg[1:] if part is not None]
    if op is getattr(C, "ATOMIC_GROUP", None):
        return [list(arg)]
    return []


def sample(pattern: str, flags: int = 0) -> str:
    """A short text the pattern matches, or comes close to matching (it holds the words a screen looks for)."""
    tree = Tree(pattern, flags)
    return tree.sample(tree.items)


def cases(pattern: str, flags: int = 0) -> list[Case]:
    """The inputs most likely to make `pattern` backtrack, from its own structure (deduplicated)."""
    tree = Tree(pattern, flags)
    whole = tree.sample(tree.items) or "a"
    found: dict[tuple[str, str, str], Case] = {}
    for case in [Case(f"{whole[:16]!r} repeated", "", whole, END), *_walk(tree, tree.items, "", "")]:
        found.setdefault((case.before, case.unit, case.after), case)
    return list(found.values())


def _walk(tree: Tree, items: list[Any], before: str, after: str) -> Iterator[Case]:
    for index, (op, arg) in enumerate(items):
        lead = before + tree.sample(items[:index])
        tail = tree.sample(items[index + 1 :]) + after
        if op in REPEATS and arg[1] > 1:
            yield from _runs(tree, list(arg[2]), lead, tail)
        consumed = op not in (C.ASSERT, C.ASSERT_NOT)
        for inner in children(op, arg):
            yield from _walk(tree, inner, lead, tail if consumed else "")


def _runs(tree: Tree, body: list[Any], lead: str, tail: str) -> Iterator[Case]:
    starts = tree.first(body)
    unit = tree.sample(body)
    literal = _literal_end(lead)
    units = dict.fromkeys([*starts, unit, *(a + b for a, b in itertools.combinations(starts[:6], 2))])
    if literal:
        units.update(dict.fromkeys(literal + u for u in [*starts, unit]))
    for text in filter(None, units):
        shown = repr(text[:16])
        yield Case(f"run of {shown}", "", text, END)
        yield Case(f"{lead[-16:]!r} then a run of {shown}", lead[-64:], text, END)
        if tail:
            yield Case(f"run of {shown} then {tail[:8]!r}", lead[-64:], text, tail[: max(1, len(tail) - 1)] + END)


def _literal_end(lead: str) -> str:
    """The last few characters of the text leading to a repeat (what a match attempt restarts on)."""
    return lead[-3:]
