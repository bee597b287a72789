"""The duplicate index's parts: masking, features, the index's bookkeeping, ordering of suggestions."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
import sqlalchemy as sa

from bot.diagnosis.matrix import Index
from bot.diagnosis.readers import read_case
from bot.diagnosis.rules import diagnose
from bot.insights.dedupe import DuplicateIndex, Features, duplicates, extract
from bot.insights.dedupe.features import frames, mask
from bot.service.store import Store
from bot.service.tables import dup_df, dup_issues, dup_postings
from tests.servers import postgres_url  # noqa: F401 - fixture

TRACEBACK = """Traceback (most recent call last):
  File "/home/alice/proj/train.py", line 88, in <module>
    main()
  File "/home/alice/proj/train.py", line 80, in main
    model = build(cfg).cuda()
  File "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1160, in _call_impl
    return forward_call(*args, **kwargs)
  File "/home/alice/proj/model/attention.py", line 41, in forward
    out = flash_attn_func(q, k, v)
RuntimeError: CUDA error: no kernel image is available for execution on the device
"""


def features(matrix: Index, body: str, title: str = "") -> Features:
    case = read_case(matrix, body, title)
    return extract(case, diagnose(case, matrix), matrix, body)


def index() -> DuplicateIndex:
    made = DuplicateIndex(sa.create_engine("sqlite://"))
    made.create()
    return made


def test_masking_keeps_the_words_and_drops_what_differs_between_machines() -> None:
    first = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 23.69 GiB total capacity)"
    second = "RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 3; 79.15 GiB total capacity)"
    assert mask(first).replace("mib", "gib") == mask(second)
    assert mask("ImportError: /home/bob/.venv/lib/libcudnn.so.9: undefined symbol at 0x7f3a2b") == (
        "importerror: <path>: undefined symbol at <hex>"
    )


def test_frames_are_the_innermost_of_the_traceback_without_torch_plumbing() -> None:
    assert frames(TRACEBACK) == ["attention.py:forward", "train.py:main"]


def test_features_of_a_real_traceback(matrix: Index) -> None:
    found = features(matrix, "On my RTX 5090 with torch 2.5.1+cu124:\n```\n" + TRACEBACK + "```", "no kernel image")
    assert found.errors[0] == "runtimeerror: cuda error: no kernel image is available for execution on the device"
    assert found.exceptions == ["RuntimeError"] and found.archs == ["sm_120"] and found.torch == "2.5+cu124"
    assert "gpu_arch_unsupported" in found.categories and found.title_terms == ["image", "kernel"]
    assert "flash_attn_func" in found.terms and "home" not in found.terms, "paths are not words"


def test_removing_an_issue_leaves_no_trace_in_the_counts(matrix: Index) -> None:
    idx = index()
    idx.record("o/r", 1, "a", "open", features(matrix, TRACEBACK, "no kernel image"))
    idx.record("o/r", 1, "a", "open", features(matrix, TRACEBACK + "\nagain", "no kernel image"))  # replaced
    idx.record("o/r", 2, "b", "open", features(matrix, "RuntimeError: CUDA out of memory", "OOM"))
    assert idx.count("o/r") == 2
    assert idx.remove("o/r", 1) and idx.remove("o/r", 2) and not idx.remove("o/r", 2)
    with idx.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(dup_df)).scalar() == 0
        assert conn.execute(sa.select(sa.func.count()).select_from(dup_postings)).scalar() == 0


def test_suggestions_are_earlier_issues_open_ones_first_at_most_three(matrix: Index) -> None:
    idx = index()
    base = features(matrix, TRACEBACK, "no kernel image on RTX 5090")
    for number in range(1, 7):
        idx.record("o/r", number, f"#{number}", "closed" if number <= 2 else "open", base)
    idx.record("o/r", 9, "later", "open", base)
    idx.record("other/repo", 1, "elsewhere", "open", base)
    # The order and the cut are under test, not the model: a tracker of seven copies cannot say how rare they are.
    found = idx.similar("o/r", base, before=8, threshold=0.3)
    assert [c.number for c in found] == [3, 4, 5] and all(c.state == "open" for c in found)
    assert [c.number for c in idx.similar("o/r", base, before=3, threshold=0.3)] == [1, 2]
    shown = duplicates(found)
    assert shown[0].evidence[0].startswith("same error signature: `runtimeerror: cuda error: no kernel image")


def test_the_same_error_with_another_cause_is_not_suggested(matrix: Index) -> None:
    """A too-new GPU vs an extension built without the arch: same error line, different diagnosis and words."""
    idx = index()
    too_new = "RTX 5090 (sm_120), torch 2.5.1+cu124 from pip.\n```\n" + TRACEBACK + "```"
    idx.record("o/r", 1, "no kernel image on RTX 5090", "open", features(matrix, too_new, "no kernel image"))
    built = (
        "I compiled my custom extension with TORCH_CUDA_ARCH_LIST=7.5 on the login node; the job runs on A100.\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
    )
    query = features(matrix, built, "custom op fails on cluster nodes")
    assert idx.similar("o/r", query) == []
    assert idx.similar("o/r", replace(query, categories=["gpu_arch_unsupported"], archs=["sm_120"]), threshold=0.3)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: object) -> Iterator[DuplicateIndex]:
    """The index on a migrated SQLite file and on PostgreSQL (skipped with the reason when there is none)."""
    url = f"sqlite:///{tmp_path}/bot.db" if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    store = Store(url)
    store.create()
    yield DuplicateIndex(store.engine)
    store.engine.dispose()


def test_an_issue_without_any_key_is_indexed(matrix: Index, database: DuplicateIndex) -> None:
    """Title "bug", body "help": stop words only, so no posting at all; the issue still counts and is found."""
    short = features(matrix, "help", "bug")
    assert short.terms == {} and short.title_terms == [] and short.errors == []
    database.record("o/r", 1, "bug", "open", short)
    database.record("o/r", 1, "bug", "open", short)  # replaced
    assert database.count("o/r") == 1 and database.title_of("o/r", 1) == "bug"
    assert database.similar("o/r", short) == []
    assert database.remove("o/r", 1) and database.count("o/r") == 0


def test_nul_characters_in_an_issue_are_dropped_before_the_database(matrix: Index, database: DuplicateIndex) -> None:
    """PostgreSQL text cannot hold NUL; a title or a quoted error may (GitHub keeps what it was sent)."""
    body = TRACEBACK.replace("attention.py", "atten\x00tion.py")
    found = features(matrix, body, "no kernel\x00image on H200")
    assert "atten\x00tion.py:forward" in found.frames, "the traceback's frames keep what was quoted"
    database.record("o/r", 1, "no kernel\x00image on H200", "open", found)
    database.record("o/r", 2, "same \x00\x00", "open", found)
    assert database.title_of("o/r", 1) == "no kernelimage on H200"
    assert [c.number for c in database.similar("o/r", found, before=2, threshold=0.3)] == [1]
    with database.engine.connect() as conn:
        keys = list(conn.scalars(sa.select(dup_postings.c.key))) + list(conn.scalars(sa.select(dup_df.c.key)))
        titles = list(conn.scalars(sa.select(dup_issues.c.title)))
    assert keys and not any("\x00" in text for text in keys + titles)
    assert database.remove("o/r", 1) and database.remove("o/r", 2) and database.count("o/r") == 0


def test_rejected_pairs_are_never_suggested_either_way(matrix: Index, database: DuplicateIndex) -> None:
    base = features(matrix, TRACEBACK, "no kernel image on RTX 5090")
    for number in (1, 2, 3):
        database.record("o/r", number, f"#{number}", "open", base)
    assert database.reject("o/r", 3, [1, 3]) == 1 and database.reject("o/r", 3, [1]) == 0
    assert [c.number for c in database.similar("o/r", base, exclude=3, threshold=0.0)] == [2]
    assert [c.number for c in database.similar("o/r", base, exclude=1, threshold=0.0)] == [2]
    assert [c.number for c in database.similar("o/r", base, exclude=2, threshold=0.0)] == [1, 3]
    assert [c.number for c in database.similar("other/repo", base, exclude=3, threshold=0.0)] == []


def test_evidence_names_title_words_error_and_environment(matrix: Index) -> None:
    idx = index()
    body = "RTX 5090 (sm_120), torch 2.5.1+cu124 from pip.\n```\n" + TRACEBACK + "```"
    idx.record("o/r", 1, "no kernel image on RTX 5090", "open", features(matrix, body, "no kernel image on RTX 5090"))
    query = features(matrix, body.replace("alice", "bob"), "RTX 5090: no kernel image for flash attention")
    [found] = duplicates(idx.similar("o/r", query, threshold=0.0))
    assert found.evidence[0].startswith("same error signature: `runtimeerror: cuda error: no kernel image")
    assert "same title words: `image, kernel, rtx`" in found.evidence
    assert "same GPU arch (`sm_120`), torch minor (`2.5`), CUDA (`12.4`)" in found.evidence, found.evidence


def test_an_issue_named_by_number_is_a_candidate_whatever_its_words(matrix: Index) -> None:
    idx = index()
    idx.record("o/r", 40, "Fooocus crashes on my K80", "closed", features(matrix, "It crashes after loading.", "K80"))
    for number in range(41, 45):
        idx.record("o/r", number, "kernel image", "open", features(matrix, TRACEBACK, "no kernel image"))
    later = features(matrix, "_Originally posted in https://github.com/o/r/issues/40_\n" + TRACEBACK, "kernel")
    seen = {c.number: c for c in idx.compare("o/r", later)}
    assert seen[40].signals["named"] == 1.0 and seen[41].signals["named"] == 0.0
    assert [m.detail for m in seen[40].matches if m.kind == "named"] == ["#40"]
    # A link into another repository names nothing here; the command line's own index ("local") takes any link.
    assert 40 not in {c.number for c in idx.compare("x/y", later)}
    assert "o/r#40" in later.mentions and 40 in {c.number for c in idx.compare("o/r", later)}


def test_an_earlier_issue_holding_the_new_number_does_not_name_it(matrix: Index) -> None:
    idx = index()
    idx.record("o/r", 7, "x", "open", features(matrix, "CUDA error: invalid device ordinal (code #9)\n" + TRACEBACK))
    [seen] = idx.compare("o/r", features(matrix, TRACEBACK, "no kernel image"), exclude=9)
    assert seen.number == 7 and seen.signals["named"] == 0.0


def test_backtrace_frames_and_html_entities_name_no_issue() -> None:
    from bot.insights.dedupe.features import mentions

    text = "#0  0x00007f3a in cudaLaunchKernel ()\n#1 0x1 in main\nuse &#123; and see #12, GH-7 (not #0)"
    assert mentions(text) == ["#12", "#7"]


def test_shared_log_lines_count_only_when_few_candidates_have_them(matrix: Index) -> None:
    log = "Set vram state to: LOW_VRAM\nUsing pytorch cross attention in the VAE decoder stage now\n"
    template = "I have searched the existing issues and this one is new to me\n"
    idx = index()
    for number in range(1, 13):  # a tracker whose template every issue keeps
        idx.record("o/r", number, f"crash {number}", "open", features(matrix, template + f"step {number}", "crash"))
    idx.record("o/r", 20, "OOM in the VAE", "open", features(matrix, template + log + "CUDA out of memory", "OOM"))
    query = features(matrix, template + log + "RuntimeError: CUDA out of memory", "VAE crash")
    assert "os: ubuntu <n>" not in features(matrix, "OS: Ubuntu 22.04.3 LTS (x86_64)\n" * 2).lines
    seen = {c.number: c for c in idx.compare("o/r", query)}
    assert seen[20].signals["lines"] > 0 and all(seen[n].signals["lines"] == 0 for n in range(1, 13))
    assert any(m.kind == "lines" and "cross attention" in m.detail for m in seen[20].matches)
