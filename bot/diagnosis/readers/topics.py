"""Subjects named in prose that some rules need beside the facts: FP8, FlashAttention, MIG, torch itself, a machine
without an NVIDIA GPU, and a collective said to hang ("NCCL all-reduce hangs")."""

from __future__ import annotations

import bisect
import itertools
import re

from bot.diagnosis.matrix.screen import Screened

MAX_WORDS = 1000  # of each kind, the first in the text: a 64 KB body holds 13,000 words
# An A100 alone says nothing about FP8: the subject named in prose is what some rules need beside the facts.
TOPICS = {
    "fp8": Screened(r"\bfp8\b|\bfloat8|e4m3"),
    "flash_attention_3": Screened(r"flash[-_ ]?attn[-_ ]?3|flash[-_ ]?attention[- ]?3|\bFA3\b|flash_attn_interface"),
    "flash_attention": Screened(r"flash[-_ ]?attn|flash[-_ ]?attention"),
    "mig": Screened(r"(?<!\| )\bMIG\b(?! ?(?:\||M\.))", flags=re.A),  # not the "| MIG |" / "MIG M." headers
    "torch": Screened(r"\b(?:py)?torch\b"),  # torch is in play: named, installed, or in a traceback's paths
    # The reporter says the machine has no NVIDIA GPU, or runs on the CPU on purpose (not "no GPU found", which is the
    # symptom; not torch.load's "running on a CPU-only machine", which is its advice): an application's `--cpu`
    # flag, "a cpu without cuda", "in a non-cuda env".
    "no_nvidia_gpu": Screened(
        r"\b(?:i|we) (?:don.?t|do not|didn.?t) (?:have|own|got) (?:an? |any )?(?:nvidia |cuda[- ]capable |dedicated )?"
        r"(?:gpu|graphics card)"
        r"|\bwithout (?:an? |any )(?:nvidia |cuda[- ]capable |cuda |dedicated )?(?:gpu|graphics card)\b"
        r"|\bcpu[- ]only (?:computer|pc|laptop|server|host)\b"
        r"|\bhas no (?:nvidia |dedicated |cuda )?(?:gpu|graphics card)"
        r"|\bcpu without (?:cuda|an? (?:nvidia )?gpu|a graphics card)\b"
        r"|\b(?:in|on|under) an? non[- ]?(?:cuda|gpu)[- ]?(?:env\w*|machines?|hosts?|systems?)\b"
        r"|(?<![\w-])--cpu\b(?![-\w])"
        # Only another vendor's graphics named as the machine's (Rudrabha/Wav2Lip#502: "My PC is Intel R lris Xe
        # Graphics"); a laptop with an NVIDIA GPU beside them names that one too, and a named GPU wins (_without_nvidia)
        r"|\bmy (?:pc|laptop|computer|machine|gpu|graphics card) (?:is|has) (?:an? |only (?:an? )?)?"
        r"(?:radeon\b|(?:intel|amd)\b[^.\n]{0,30}?\b(?:graphics|gpu|iris|uhd|radeon|arc)\b)"
        r"|\b(?:i|we) (?:only )?(?:have|use|got) (?:an? )?(?:intel|amd|radeon) "
        r"(?:gpu|graphics|card|integrated|iris|uhd|arc|rx)\b"
    ),
}
# "nccl_hang": a collective's name and a word for hanging within NEAR characters of one line, either first. As one
# pattern, `(nccl|...).{0,60}\b(hang|...)` scanned 60 characters from every occurrence of a word (60 ms for 64 KB
# of "nccl "); the words are found in one scan each, and paired by position.
COLLECTIVE_WORDS = Screened(r"nccl|all[-_ ]?reduce|collective|ddp|distributed")
HANG_WORDS = Screened(r"\b(?:hangs?|hung|stuck|freez\w*|deadlock)")
NEAR = 60


def topic_spans(text: str, lowered: str) -> dict[str, tuple[int, int]]:
    """Each topic's first mention in the text (its span), and "nccl_hang" where a collective is said to hang."""
    found = {}
    for name, pattern in TOPICS.items():
        if match := next(iter(pattern.finditer(text, lowered)), None):
            found[name] = match.span()
    if span := _collective_hang(text, lowered):
        found["nccl_hang"] = span
    return found


def _collective_hang(text: str, lowered: str) -> tuple[int, int] | None:
    """Where a collective (NCCL, all-reduce, DDP...) is said to hang, hang first or last; None if nowhere."""
    hangs = [m.span() for m in itertools.islice(HANG_WORDS.finditer(text, lowered), MAX_WORDS)]
    if not hangs:
        return None
    collectives = [m.span() for m in itertools.islice(COLLECTIVE_WORDS.finditer(text, lowered), MAX_WORDS)]
    # After a hang word, only NCCL or all-reduce counts, and the hang word must end a word ("hanging NCCL" does not).
    ended = [(start, end) for start, end in hangs if not text[end : end + 1].replace("_", "a").isalnum()]
    named = [(start, end) for start, end in collectives if text[start] in "nNaA"]
    found = [span for span in (_followed(collectives, hangs, text), _followed(ended, named, text)) if span]
    return min(found) if found else None


def _followed(firsts: list[tuple[int, int]], thens: list[tuple[int, int]], text: str) -> tuple[int, int] | None:
    """The first span of `firsts` followed on its line by one of `thens` within NEAR characters, joined."""
    starts = [start for start, _ in thens]
    for start, end in firsts:
        at = bisect.bisect_left(starts, end)
        if at < len(thens) and thens[at][0] - end <= NEAR and "\n" not in text[end : thens[at][0]]:
            return start, thens[at][1]
    return None
