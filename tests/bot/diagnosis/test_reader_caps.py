"""What one issue body may make the readers do: GPUs, lines and twin lists are capped, and a cut says so."""

from __future__ import annotations

import json
import re
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.diagnosis.matrix import Index
from bot.diagnosis.plan import triage
from bot.diagnosis.readers import own, read_case
from bot.diagnosis.readers.base import MAX_ERRORS, MAX_GPUS, MAX_LINES, Section
from collector.report.schema import GPUS, PACKAGES
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


def test_nccl_hang_is_said_the_way_it_was() -> None:
    from bot.diagnosis.readers import topics

    def found(text: str) -> bool:
        return "nccl_hang" in topics.topic_spans(text, text.lower())

    assert found("NCCL all_reduce hangs forever") and found("it hangs in ncclCommInitRank")
    assert found("DDP training is stuck") and found("distributed job freezes")
    assert not found("hanging NCCL") and not found("collective\nhang")  # a hang word must end; one line
    assert not found("nccl" + " " * 61 + "hangs") and found("nccl" + " " * 59 + "hangs")
    # The first MAX_WORDS words of each kind are paired.
    assert found("nccl\n" * (topics.MAX_WORDS - 1) + "nccl hangs")
    assert not found("nccl\n" * topics.MAX_WORDS + "nccl hangs")


def test_a_body_of_collective_words_costs_what_any_body_does(matrix: Index) -> None:
    def best_ms(body: str) -> float:
        times = []
        for _ in range(3):
            began = time.perf_counter()
            read_case(matrix, body)
            times.append((time.perf_counter() - began) * 1000)
        return min(times)

    collectives = "nccl " * 398 + "\n"
    plain = best_ms((collectives + "xxxx " * 398 + "\n") * 16)
    # `(nccl|...).{0,60}\b(hang|...)` scanned 60 characters from every "nccl" of a line near a hang word: 100 ms.
    # Linear costs ~2.7 times the plain body (6 -> 16 ms on the 2-core box): the multi-GPU hang cue reads the two
    # 2,000-character lines around each of its first 32 hang words; 2x + 5 ms failed on noise alone.
    assert best_ms((collectives + "hang " * 398 + "\n") * 16) < 4 * plain + 5


def test_labelled_lines_cost_no_more_for_blanks_before_the_colon() -> None:
    from bot.diagnosis.readers.base import labelled

    def best_ms(line: str) -> float:
        times = []
        for _ in range(3):
            began = time.perf_counter()
            for _ in range(32):
                labelled(line)
            times.append((time.perf_counter() - began) * 1000)
        return min(times)

    # A label that could end in blanks rescanned the run of blanks for each of its 60 lengths (60 ms for 32 lines).
    assert best_ms("aa" + " " * 1990 + " x") < 20 * best_ms("a" * 1992 + " x") + 1


@settings(max_examples=500, deadline=None, derandomize=True)
@given(st.text(alphabet="aZ1_ ./()+-:\t\u00e9", max_size=70))
def test_labelled_reads_what_it_read_before(line: str) -> None:
    from bot.diagnosis.readers.base import labelled

    before = re.match(r"^\s*([A-Za-z][A-Za-z0-9_ ./()+-]{1,60}?)\s*:\s*(.*)$", line)
    assert labelled(line) == ((before.group(1).strip().lower(), before.group(2).rstrip()) if before else None)


def test_an_error_quoted_on_every_line_is_quoted_once_per_line(matrix: Index, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from bot.diagnosis.readers import freeform

    made = []
    quote = freeform.Text.quote
    monkeypatch.setattr(freeform.Text, "quote", lambda self, *span: made.append(span) or quote(self, *span))
    body = ("RuntimeError: CUDA error: no kernel image is available for execution on the device " * 20 + "\n") * 100
    errors = read_case(matrix, body).errors
    assert len(made) <= 100  # one per line; before, one per occurrence (2,000 here, each joining its lines)
    assert 1 <= len(errors) <= MAX_ERRORS


def test_at_most_max_errors_distinct_quotes_are_made(matrix: Index) -> None:
    from bot.diagnosis.readers import freeform

    body = "".join(f"RuntimeError: CUDA error: no kernel image is available ({n})\n" for n in range(3000))
    partial = freeform.read(Section.of("body", body), matrix)
    assert [quote.text.rsplit(" ", 1)[1] for quote in partial.errors] == [f"({n})" for n in range(MAX_ERRORS)]


def test_a_version_longer_than_any_is_no_listing(matrix: Index) -> None:
    listing = "torch==2.4.1+" + "cu121" * 400 + "\ntorchvision    0." + "1" * 2000 + "\n"
    assert read_case(matrix, listing).report.get(PACKAGES) is None
    assert read_case(matrix, "torch==2.4.1+cu121\n").report.get(PACKAGES).selected[0].version == "2.4.1+cu121"  # type: ignore[union-attr]


def test_a_listing_pasted_twice_names_each_install_once(matrix: Index) -> None:
    listing = "torch==2.4.1\n" * 30 + "torch==2.5.0\n"
    packages = read_case(matrix, listing).report.get(PACKAGES)
    assert packages and [copy.version for copy in packages.duplicates[0].copies] == ["2.4.1", "2.5.0"]


def test_a_listing_of_thousands_of_watched_packages_is_read_up_to_the_cap(matrix: Index) -> None:
    from bot.diagnosis.readers.packages import MAX_PACKAGES

    listing = "".join(f"nvidia-x{n}==1.{n}\n" for n in range(3000))
    fact = read_case(matrix, listing).report.facts[PACKAGES.name]
    assert len(fact.value.selected) == MAX_PACKAGES  # type: ignore[union-attr]
    assert fact.source.startswith(f"package list: the first {MAX_PACKAGES} packages read")  # type: ignore[union-attr]
    short = read_case(matrix, "torch==2.4.1\nnvidia-nccl-cu12==2.20.5\n").report.facts[PACKAGES.name]
    assert short.source.startswith("package list (")  # type: ignore[union-attr]


def test_a_long_listing_costs_what_a_capped_one_does(matrix: Index) -> None:
    def best_ms(body: str) -> float:
        times = []
        for _ in range(3):
            began = time.perf_counter()
            triage(matrix, body, title="t")
            times.append((time.perf_counter() - began) * 1000)
        return min(times)

    # Every watched line became a package, compared and rendered: 3,000 of them took 70 ms, against 20 ms for as
    # many lines of distributions nobody watches.
    watched = "".join(f"nvidia-x{n}==1.{n}\n" for n in range(3000))
    assert best_ms(watched) < 1.5 * best_ms(watched.replace("nvidia-x", "others-x")) + 5
