"""Error messages broken inside a word by a hard line wrap.

A message copied from a console of fixed width, or from a page that wraps long lines, can come with a line break
in the middle of a word: "RuntimeError: nms_impl: implementation for device cu" then "da:0 not found." on the next
line (open-mmlab/mmrotate#395), "Loaded runtime CuD" then "NN library: 8.1.0 but ..." (tensorflow/docs#2251). The
known error texts are also looked for in a copy of the text with every break between two word characters taken out
(with the next line's indentation); a break anywhere else still reads as a space (Index.errors_span).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.diagnosis.matrix import Index

MID_WORD_BREAK = re.compile(r"(?<=\w)\n[ \t]*(?=\w)")


@dataclass(frozen=True)
class Unwrapped:
    """The text with its mid-word breaks taken out, and how to find each of its offsets in the original."""

    text: str
    cuts: list[int]  # offsets in `text` where a break was taken out
    removed: list[int]  # characters taken out before each cut, in all

    @classmethod
    def of(cls, original: str) -> Unwrapped:
        pieces, cuts, removed, last, total = [], [], [], 0, 0
        for match in MID_WORD_BREAK.finditer(original):
            pieces.append(original[last : match.start()])
            cuts.append(match.start() - total)  # where the break was, counted in the text without the earlier ones
            total += match.end() - match.start()
            removed.append(total)
            last = match.end()
        pieces.append(original[last:])
        return cls("".join(pieces), cuts, removed)

    def original(self, offset: int, *, end: bool = False) -> int:
        """Where `offset` of the unwrapped text lies in the original (an end offset stays before a cut it meets)."""
        index = bisect.bisect_left(self.cuts, offset) if end else bisect.bisect_right(self.cuts, offset)
        return offset + (self.removed[index - 1] if index else 0)

    def crosses(self, start: int, end: int) -> bool:
        """Whether the span [start, end) of the unwrapped text holds a cut (the original text lacks it whole)."""
        index = bisect.bisect_right(self.cuts, start)
        return index < len(self.cuts) and self.cuts[index] < end

    def lines_around(self, start: int, end: int) -> str:
        """The unwrapped lines the span lies on, one string (as a quote shows them)."""
        first = self.text.rfind("\n", 0, start) + 1
        last = self.text.find("\n", end)
        return " ".join(line.strip() for line in self.text[first : len(self.text) if last < 0 else last].split("\n"))


def broken_inside_words(text: str, matrix: Index) -> list[tuple[int, str]]:
    """The known error texts found only once the mid-word line breaks are taken out: where each starts in `text`,
    and its lines unwrapped (the quote, which the rules match again)."""
    if not MID_WORD_BREAK.search(text):
        return []
    unwrapped = Unwrapped.of(text)
    return [
        (unwrapped.original(start), unwrapped.lines_around(start, end))
        for start, end, _ in matrix.errors_span(unwrapped.text)
        if unwrapped.crosses(start, end)
    ]
