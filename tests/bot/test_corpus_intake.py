"""The corpus's intake (tests/bot/corpus_intake.py): which issues may be taken, the gathered files' checks, the fresh
figure."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
import yaml

from tests.bot import corpus_intake as intake
from tests.bot.corpus import CORPUS, load
from tests.bot.corpus import test_repositories as locked_repositories


@pytest.fixture(scope="module")
def corpus() -> intake.Corpus:
    return intake.Corpus.load()


def new_repo(first_digits: str) -> str:
    """A repository name not in the corpus whose sha256 starts with one of `first_digits`."""
    n = 0
    while hashlib.sha256(f"someone/project-{n}".encode()).hexdigest()[0] not in first_digits:
        n += 1
    return f"someone/project-{n}"


def test_verdicts(corpus: intake.Corpus) -> None:
    issue = load("tune")[0]
    assert intake.verdict(issue.url, corpus) == "SKIP-known"
    number = int(issue.url.rsplit("/", 1)[1]) + 10_000_000
    assert intake.verdict(f"https://github.com/{issue.repo}/issues/{number}", corpus) == "OK-tune-repo"
    locked = sorted(locked_repositories())[0]
    assert intake.verdict(f"https://github.com/{locked}/issues/1", corpus) == "SKIP-test-repo"
    # A new repository goes where the blind rule would put it (corpus_split.is_test): 0-9 is test.
    assert intake.verdict(f"https://github.com/{new_repo('0123456789')}/issues/1", corpus) == "SKIP-test-repo"
    assert intake.verdict(f"https://github.com/{new_repo('abcdef')}/issues/1", corpus) == "OK-new-repo"
    assert intake.verdict("https://example.com/not/an/issue", corpus) == "BAD-URL"


def test_an_issue_the_matrix_cites_is_not_fresh(corpus: intake.Corpus) -> None:
    # errors.yaml cites vllm-project/vllm#1710 as a source (the fresh rounds of 2026-12-07 met it).
    assert "vllm-project/vllm#1710" in corpus.cited
    assert intake.verdict("https://github.com/vllm-project/vllm/issues/1710", corpus) == "SKIP-cited"
    # A number that merely starts the same is another issue.
    assert intake.verdict("https://github.com/vllm-project/vllm/issues/17109", corpus) != "SKIP-cited"


def test_one_taker_per_issue(corpus: intake.Corpus, tmp_path: Path) -> None:
    repo = new_repo("abcdef")
    claims = tmp_path / "claims.txt"
    assert intake.claim("first", f"https://github.com/{repo}/issues/7", claims, corpus) == "CLAIMED"
    # GitHub's names are case-insensitive: the same issue spelled otherwise is taken too.
    again = f"https://github.com/{repo.upper()}/issues/7"
    assert intake.claim("second", again, claims, corpus) == "SKIP-claimed (by first)"
    assert intake.claim("second", load("tune")[0].url, claims, corpus) == "SKIP-known"


def test_validate_names_what_is_wrong(tmp_path: Path) -> None:
    real = next(iter(sorted(CORPUS.glob("*.yaml"))))
    data = yaml.safe_load(real.read_text(encoding="utf-8"))
    data.setdefault("form", "prose")
    good = tmp_path / real.name
    good.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert intake.problems(good) == []
    bad = tmp_path / "someone__else__1.yaml"
    bad.write_text(yaml.safe_dump({**data, "category": "gpu_broken", "also": ["fine"], "form": "essay"}))
    found = " | ".join(intake.problems(bad))
    for part in ("category 'gpu_broken'", "also 'fine'", "form 'essay'", "file name"):
        assert part in found
    (tmp_path / "broken__yaml__2.yaml").write_text("url: [unclosed", encoding="utf-8")
    assert intake.problems(tmp_path / "broken__yaml__2.yaml")[0].startswith("unreadable")
    assert intake.main(["validate", str(tmp_path)]) == 1


def test_measure_counts_environment_cases_and_fine_errors(tmp_path: Path) -> None:
    tune = load("tune")
    fine = next(i for i in tune if i.category == "fine")
    cases = [i for i in tune if i.category == "cpu_only_wheel"][:3]
    for issue in [fine, *cases]:
        owner, repo, _, number = issue.url.split("/")[3:7]
        shutil.copy(CORPUS / f"{owner}__{repo}__{number}.yaml", tmp_path)
    fresh = intake.measure(intake.files([str(tmp_path)]))
    assert (fresh.cases, fresh.fine) == (3, 1)
    assert sum(fresh.by_source.values()) == 3 and fresh.right == sum(fresh.right_by_source.values())
    assert "of 3 environment cases right" in fresh.summary()
