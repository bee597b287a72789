"""bot/diagnosis/matrix/screen.py: the words it derives must occur in every match, or screening would hide real matches.

Every screened pattern the bot uses (the matrix's error texts and GPU names, the free-text readers' patterns) is
checked on strings generated from the pattern itself.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.diagnosis.matrix import default, screen
from bot.diagnosis.matrix.screen import Screened, keywords, stretched
from bot.diagnosis.readers import freeform, torch_messages


def screened() -> dict[str, Screened]:
    index = default()
    found = {f"error {sig.id}": pattern for pattern, sig in index._error_patterns}
    found |= {f"gpu {gpu.match}": pattern for pattern, gpu in index._gpu_patterns}
    for module in (freeform, torch_messages):
        found |= {f"{module.__name__} {n}": v for n, v in vars(module).items() if isinstance(v, Screened)}
    return {name: pattern for name, pattern in found.items() if pattern.words is not None}


PATTERNS = screened()


@pytest.mark.parametrize("name", sorted(PATTERNS))
@settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_match_holds_one_of_its_words(name: str, data: st.DataObject) -> None:
    pattern = PATTERNS[name]
    text = data.draw(st.from_regex(pattern.regex))
    match = pattern.regex.search(text)
    assert match is not None
    assert pattern.possible(text.lower()), (pattern.words, text)
    assert any(word in match.group().lower() for word in pattern.words or []), (pattern.words, match.group())


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        (r"\bP(4|40)\b", ["p4"]),  # the parser factors "4|40" into "4" then an optional "0"
        (r"\bA(10G?|16|2|40)\b", ["a10", "a16", "a2", "a40"]),
        (r"no kernel image (is )?available", ["no kernel image "]),
        (r"GTX 10[5-8]0|TITAN Xp", ["gtx 10", "titan xp"]),
        (r"(?:\d+)x", None),
    ],
)
def test_words_of_known_shapes(pattern: str, words: list[str] | None) -> None:
    assert keywords(pattern, shortest=2) == words


def test_a_screened_pattern_finds_what_the_regex_finds() -> None:
    pattern = Screened(r"\bA(10G?|16|2|40)\b", shortest=2)
    text = "GPUs: NVIDIA A10G and an A2, not an A100\n" * 3
    found = [m.group() for m in pattern.finditer(text, text.lower())]
    assert found == [m.group() for m in re.finditer(pattern.regex, text)]


def _spans(pattern: Screened, text: str) -> list[tuple[int, int]]:
    lowered = text.lower()
    return [m.span() for m in pattern.finditer(text, lowered, lowered.replace("\n", " "))]


def _long_bodies() -> list[str]:
    from tests.bot.corpus import load

    bodies = [issue.body for issue in load("tune") if len(issue.body) >= screen.MIN_INDEXED]
    return bodies[:40]


@pytest.mark.skipif(screen.ahocorasick is None, reason="pyahocorasick not installed (the bot extra installs it)")
def test_one_pass_word_index_finds_what_str_find_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    # Real long bodies (the index is used from MIN_INDEXED characters), with a word broken over a line and a word
    # inside another ("cuda" in "cudaerror"): every pattern's matches must be the same either way.
    texts = [
        *_long_bodies(),
        ("x" * 5000) + "\nCUDA error: no kernel image is\navailable for execution cudaErrorNoDevice",
    ]
    fast = [[_spans(pattern, text) for pattern in PATTERNS.values()] for text in texts]
    monkeypatch.setattr(screen, "ahocorasick", None)
    slow = [[_spans(pattern, text) for pattern in PATTERNS.values()] for text in texts]
    assert fast == slow
    assert any(any(spans) for spans in fast[-1])


@pytest.mark.skipif(screen.ahocorasick is None, reason="pyahocorasick not installed (the bot extra installs it)")
def test_the_word_index_is_built_once_per_text() -> None:
    text = ("torch not compiled with cuda enabled\n" * 200).lower()
    first = screen._offsets(text)
    assert first is not None and screen._offsets(text) is first
    line = len("torch not compiled with cuda enabled\n")
    assert first["torch not compiled with cuda enabled"][:2] == [0, line]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("a b", "a {1,80}b"),
        ("x (?:y |z )w", "x {1,80}(?:y {1,80}|z {1,80})w"),
        ("a ?b c{2}", "a ?b {1,80}c{2}"),  # a quantified space keeps its quantifier
        (r"a\ b [ x] y", r"a\ b {1,80}[ x] {1,80}y"),  # an escaped space and a class's space stay one
        ("[^]] x", "[^]] {1,80}x"),  # "]" first in a class is a literal
        ("(?<!a b)c d", "(?<!a b)c {1,80}d"),  # a look-behind must keep its fixed width
    ],
)
def test_stretched_spaces_take_a_wrapped_lines_padding(pattern: str, expected: str) -> None:
    assert stretched(pattern) == expected
    re.compile(expected)


def test_a_message_wrapped_by_a_logger_is_still_known() -> None:
    # nerfstudio-project/nerfstudio#1796 (tune): rich wrapped torch's warning at the terminal's width, padding each
    # broken line to a file:line column and indenting the rest.
    body = (
        "Get error:\n```\n"
        "           /home/user/.local/lib/python3.10/site-packages/torch/cuda/__init__.py:88: UserWarning: CUDA    "
        "install.py:114\n"
        "           before calling NumCudaDevices() that might have already set an error? Error 804: forward"
        "                     \n"
        "           compatibility was attempted on non supported HW (Triggered internally at"
        "                                     \n"
        "           ../c10/cuda/CUDAFunctions.cpp:109.)\n```"
    )
    assert "cuda_compat_on_unsupported_gpu" in {sig.id for _, _, sig in default().errors_span(body)}
