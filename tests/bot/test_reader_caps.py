"""What one issue body may make the readers do: GPUs, lines and twin lists are capped, and a cut says so."""

from __future__ import annotations

import json
import re
import time

from bot.matrix import Index
from bot.readers import own, read_case
from bot.readers.base import MAX_GPUS, MAX_LINES, Section
from bot.triage import triage
from collector.schema import GPUS, PACKAGES
from tests.conftest import fixture_text

TWIN = re.compile(r"(<!-- envtriage:report )(\{.*?\})( -->)", re.S)


def twin_with(gpus: int, packages: int = 0) -> str:
    """Our H200 report's twin, its GPU list replaced by `gpus` GPUs (compact, as a hostile paste would be)."""
    match = TWIN.search(fixture_text("h200-1gpu", "collector.md"))
    assert match
    data = json.loads(match.group(2))
    data["facts"]["gpus"]["value"] = [{"index": i, "name": "NVIDIA H200", "cc": "9.0"} for i in range(gpus)]
    listed = data["facts"]["packages"]["value"]["selected"]
    listed += [dict(listed[0], name=f"pkg{i}") for i in range(packages)]
    return match.group(1) + json.dumps(data, separators=(",", ":")) + match.group(3)


def test_a_twin_of_800_gpus_is_read_up_to_the_cap_and_says_so(matrix: Index) -> None:
    body = twin_with(800)
    assert len(body) <= 65_536  # fits in one GitHub issue body
    fact = read_case(matrix, body).report.facts[GPUS.name]
    assert len(fact.value) == MAX_GPUS  # type: ignore[union-attr]
    assert fact.source.endswith(f"; the first {MAX_GPUS} of 800 GPUs read")  # type: ignore[union-attr]
    few = read_case(matrix, twin_with(8)).report.facts[GPUS.name]
    assert len(few.value) == 8 and "GPUs read" not in few.source  # type: ignore[union-attr]


def test_a_twin_of_800_gpus_costs_what_one_of_64_does(matrix: Index) -> None:
    def best_ms(body: str) -> float:
        times = []
        for _ in range(3):
            began = time.perf_counter()
            triage(matrix, body, title="t")
            times.append((time.perf_counter() - began) * 1000)
        return min(times)

    # Before the cap: 1.4 s for 800 GPUs, the decoding, redaction and rules growing with each GPU.
    assert best_ms(twin_with(800)) < 2 * best_ms(twin_with(MAX_GPUS)) + 10


def test_other_lists_of_a_twin_are_capped(matrix: Index) -> None:
    selected = read_case(matrix, twin_with(1, packages=1000)).report.get(PACKAGES).selected  # type: ignore[union-attr]
    assert len(selected) == own.MAX_ITEMS


def test_a_twin_is_decoded_once_per_body(matrix: Index) -> None:
    body = twin_with(2) + "\n"  # a text no earlier test decoded
    before = own._found.cache_info()
    read_case(matrix, body)
    after = own._found.cache_info()
    assert after.misses - before.misses == 1  # the dispatcher's "is it damaged?" asks the cache


def test_text_readers_gpu_lists_are_capped(matrix: Index) -> None:
    listing = "\n".join(f"GPU {i}: NVIDIA H200 (UUID: GPU-{i:08x}-0000-0000-0000-000000000000)" for i in range(500))
    fact = read_case(matrix, "nvidia-smi -L\n" + listing).report.facts[GPUS.name]
    assert len(fact.value) == MAX_GPUS  # type: ignore[union-attr]
    assert fact.source.endswith(f"; the first {MAX_GPUS} of 500 GPUs read")  # type: ignore[union-attr]


def test_lines_past_the_cap_are_not_read(matrix: Index) -> None:
    assert len(Section.of("body", "\r" * 65_536).lines) == MAX_LINES
    filler = "x\n" * (MAX_LINES - 2)
    assert read_case(matrix, filler + "torch 2.4.1").report.facts.get("torch")
    assert not read_case(matrix, filler + "x\nx\ntorch 2.4.1").report.facts.get("torch")
