"""Taking new real issues into the corpus without touching the locked split: check, claim, validate, measure.

Whoever gathers issues (a person, or helpers working side by side) runs, before reading an issue:

    python -m tests.bot.corpus_intake check URL [URL ...]
    python -m tests.bot.corpus_intake claim NAME URL --claims FILE   # helpers side by side: one taker per issue

`check` says OK-tune-repo (a repository already in `tune`), OK-new-repo (a new repository the blind rule of
corpus_split.py puts in `tune`), or SKIP-known (already in the corpus), SKIP-test-repo (a locked `test` repository,
or a new one the rule would put there: never read or take it), SKIP-cited (a source the matrix's rows were written
from: not fresh). Then, on the gathered files (one YAML file per issue, the format of tests/fixtures/issues/README.md):

    python -m tests.bot.corpus_intake validate DIR [DIR ...]
    python -m tests.bot.corpus_intake measure DIR [DIR ...] [--misses]

`measure` scores them with the code of the moment - the "fresh" figure the README reports for each round, taken
before anything is written from the round - by what ranked first (facts, an error text, another package's build, a
cue, the learned guess, the ask for a report alone, nothing). A renamed repository is not seen here: the split
compares names, so a new name of a `test` repository must be skipped by hand (tests/fixtures/issues/README.md lists
those met so far).
"""

from __future__ import annotations

import argparse
import fcntl
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from bot.diagnosis.findings import CATEGORIES, Finding
from bot.diagnosis.matrix import default as default_matrix
from bot.diagnosis.plan import triage
from tests.bot.corpus import CORPUS, test_repositories
from tests.bot.corpus_split import is_test, repos

MATRIX_DATA = Path(__file__).resolve().parents[2] / "bot" / "diagnosis" / "matrix" / "data"
ISSUE_URL = re.compile(r"https?://github\.com/([\w.-]+)/([\w.-]+)/(?:issues|pull|discussions)/(\d+)")
FORMS = frozenset({"prose", "error_text", "collect_env", "nvidia_smi", "report", "mixed"})
KEYS = ("url", "repo", "number", "title", "category", "form", "why", "body")
SOURCES = {"known_error": "error text", "prose_cue": "cue", "missing_env_report": "ask",
           "learned_fallback": "learned", "package_without_cuda": "package"}  # fmt: skip
ORDER = ("facts", "error text", "package", "cue", "learned", "ask", "none")


@dataclass(frozen=True)
class Corpus:
    """What a verdict needs: the corpus's files, its split, and the matrix's cited sources."""

    known: frozenset[str]  # "owner__repo__n", lower case
    tune: frozenset[str]  # repositories, lower case
    test: frozenset[str]
    original: frozenset[str]  # repositories of the original 100 (always tune)
    cited: str  # the matrix data, lower case

    @classmethod
    def load(cls) -> Corpus:
        files, original = repos()
        test = test_repositories()
        cited = "".join(path.read_text(encoding="utf-8") for path in sorted(MATRIX_DATA.glob("*.yaml")))
        known = frozenset(path.stem.lower() for path in CORPUS.glob("*.yaml"))
        tune = frozenset(repo.lower() for repo in files) - test
        return cls(known, tune, test, frozenset(original), cited.lower())


def verdict(url: str, corpus: Corpus) -> str:
    """OK-tune-repo, OK-new-repo, or why not (module docstring)."""
    match = ISSUE_URL.match(url.strip())
    if not match:
        return "BAD-URL"
    owner, name, number = match.groups()
    repo = f"{owner}/{name}".lower()
    if f"{owner}__{name}__{number}".lower() in corpus.known:
        return "SKIP-known"
    if repo in corpus.test or (repo not in corpus.tune and is_test(repo, set(corpus.original))):
        return "SKIP-test-repo"
    if re.search(rf"{re.escape(repo)}(?:#|/issues/|/pull/){number}(?!\d)", corpus.cited):
        return "SKIP-cited"
    return "OK-tune-repo" if repo in corpus.tune else "OK-new-repo"


def claim(name: str, url: str, claims: Path, corpus: Corpus) -> str:
    """Take an issue for `name` where the verdict is OK and nobody took it: "CLAIMED", else why not."""
    found = verdict(url, corpus)
    if not found.startswith("OK"):
        return found
    key = ISSUE_URL.match(url.strip()).group(0).lower()  # type: ignore[union-attr]
    with claims.open("a+", encoding="utf-8") as file:
        fcntl.flock(file, fcntl.LOCK_EX)  # helpers claim side by side
        file.seek(0)
        taken = {line.split()[1]: line.split()[0] for line in file if len(line.split()) == 2}
        if key in taken:
            return f"SKIP-claimed (by {taken[key]})"
        file.write(f"{name} {key}\n")
    return "CLAIMED"


def problems(path: Path) -> list[str]:
    """What is wrong with one gathered file (empty when nothing)."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        return [f"unreadable: {error}"]
    if not isinstance(data, dict):
        return ["not a mapping"]
    found = [f"missing {key}" for key in KEYS if data.get(key) in (None, "")]
    allowed = {*CATEGORIES, "fine"}
    if data.get("category") not in allowed:
        found.append(f"category {data.get('category')!r} is not one of the categories or 'fine'")
    found += [f"also {a!r} is not a category" for a in data.get("also") or () if a not in CATEGORIES]
    if data.get("form") not in FORMS:
        found.append(f"form {data.get('form')!r} is not one of {sorted(FORMS)}")
    repo, number = str(data.get("repo", "")), data.get("number")
    if path.name != f"{repo.replace('/', '__')}__{number}.yaml":
        found.append("the file name is not <owner>__<repo>__<number>.yaml")
    if f"github.com/{repo}/" not in str(data.get("url", "")):
        found.append("url and repo name different repositories")
    return found


@dataclass
class Fresh:
    """A round's figures: environment cases right, fine issues given an error, by what ranked first."""

    right: int = 0
    cases: int = 0
    fine: int = 0
    fine_errors: int = 0
    by_source: Counter[str] = field(default_factory=Counter)
    right_by_source: Counter[str] = field(default_factory=Counter)
    misses: list[str] = field(default_factory=list)

    def summary(self) -> str:
        share = f"{self.right / self.cases:.1%}" if self.cases else "-"
        sources = ", ".join(f"{s} {self.right_by_source[s]}/{self.by_source[s]}" for s in ORDER if self.by_source[s])
        return (f"{self.right} of {self.cases} environment cases right ({share}); {self.fine_errors} of {self.fine} "
                f"fine issues given an error\nby what ranked first: {sources}")  # fmt: skip


def source_of(finding: Finding | None) -> str:
    return "none" if finding is None else SOURCES.get(finding.id, "facts")


def measure(paths: Iterable[Path]) -> Fresh:
    """Each file through `triage` as the bot reads an issue (title and body), against its label."""
    matrix, fresh = default_matrix(), Fresh()
    for path in paths:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        findings = triage(matrix, data["body"], data["title"]).findings
        top = next((f for f in findings if f.severity != "info"), None)
        if data["category"] == "fine":
            fresh.fine += 1
            if any(f.severity == "error" for f in findings):
                fresh.fine_errors += 1
                fresh.misses.append(f"fine given an error ({top.category if top else None}): {data['url']}")
            continue
        source, right = source_of(top), top is not None and top.category == data["category"]
        fresh.cases += 1
        fresh.right += right
        fresh.by_source[source] += 1
        fresh.right_by_source[source] += right
        if not right:
            fresh.misses.append(f"{data['category']} -> {top.category if top else None} [{source}]: {data['url']}")
    return fresh


def files(dirs: Sequence[str]) -> list[Path]:
    return sorted(path for d in dirs for path in Path(d).glob("*.yaml"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.corpus_intake", description=__doc__.splitlines()[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    verbs.add_parser("check", help="is an issue usable?").add_argument("urls", nargs="+")
    taking = verbs.add_parser("claim", help="take an issue (helpers side by side)")
    taking.add_argument("name")
    taking.add_argument("url")
    taking.add_argument("--claims", type=Path, required=True, help="the file every helper claims in")
    verbs.add_parser("validate", help="check gathered files").add_argument("dirs", nargs="+")
    scoring = verbs.add_parser("measure", help="score gathered files with the code of the moment")
    scoring.add_argument("dirs", nargs="+")
    scoring.add_argument("--misses", action="store_true", help="list each miss (never for a locked split)")
    args = parser.parse_args(argv)
    if args.verb in ("check", "claim"):
        corpus = Corpus.load()
        if args.verb == "claim":
            said = claim(args.name, args.url, args.claims, corpus)
            print(said)
            return 0 if said == "CLAIMED" else 1
        for url in args.urls:
            print(verdict(url, corpus), url)
        return 0
    paths = files(args.dirs)
    if args.verb == "validate":
        bad = {path: found for path in paths if (found := problems(path))}
        for path, found in bad.items():
            print(f"{path}: {'; '.join(found)}")
        print(f"{len(paths)} files, {len(bad)} with problems")
        return 1 if bad else 0
    fresh = measure(paths)
    print("\n".join([*(fresh.misses if args.misses else []), fresh.summary()]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
