"""The duplicate index, in the bot's database: each repository's issues, their features, and an inverted index.

Retrieval never asks GitHub anything. A query looks up how common its keys are (`dup_df`), reads the postings of
its rarest keys within a budget, keeps the best few dozen candidates, and scores those fully. Document
frequencies count every stored term of an issue, so idf is right even for terms that were not posted.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from bot.insights.dedupe.features import TITLE_CHARS, Features, named
from bot.insights.dedupe.pair import Match, Query, norm, signals
from bot.insights.dedupe.postings import (
    ISSUES_KEY,
    POSTED_TERMS,
    error_key,
    idf,
    keys_of,
    rarest,
    retrieve,
    term_key,
)
from bot.insights.dedupe.score import Model, Similarity, model
from bot.service.tables import dup_df, dup_issues, dup_postings, dup_rejections
from collector.report import codec

FIELDS = tuple(field.name for field in dataclasses.fields(Features))
COMMON_LINE = 3  # a line more candidates than this share is the tracker's template or its usual log, not evidence
LINE_POOL = 10  # fewer candidates cannot tell a template's line from a rare one: lines then say nothing


@dataclass(frozen=True)
class Candidate:
    number: int
    title: str
    state: str
    similarity: Similarity


@dataclass(frozen=True)
class Compared:
    """A retrieved issue with the pair's signals, before any model weighs them."""

    number: int
    title: str
    state: str
    signals: dict[str, float]
    matches: list[Match]


class DuplicateIndex:
    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine

    def create(self) -> None:
        from bot.service.migrate import upgrade

        upgrade(self.engine)

    # --- writing --------------------------------------------------------------------------------------------

    def record(self, repo: str, number: int, title: str, state: str, features: Features) -> None:
        """Add or replace one issue."""
        with self.engine.begin() as conn:
            self._drop(conn, repo, number)
            df = self._df(conn, repo, [term_key(t) for t in features.terms])
            total = max(1, df.get(ISSUES_KEY, 0) + 1)
            doc_norm = norm(features.terms, lambda t: idf(df.get(term_key(t), 0) + 1, total))
            rarest = sorted(features.terms, key=lambda t: (df.get(term_key(t), 0), t))[:POSTED_TERMS]
            row = {"repo": repo, "number": number, "title": title[:TITLE_CHARS], "state": state, "norm": doc_norm,
                   "features": json.dumps(codec.encode(features), separators=(",", ":"))}  # fmt: skip
            issue_id = conn.execute(dup_issues.insert().values(**row).returning(dup_issues.c.id)).scalar_one()
            posted = keys_of(features) | {term_key(t) for t in rarest}
            if posted:  # none for "bug" / "help": stop words only (an empty executemany is an empty INSERT)
                conn.execute(dup_postings.insert(), [{"repo": repo, "key": k, "issue_id": issue_id} for k in posted])
            counted = posted | {term_key(t) for t in features.terms} | {ISSUES_KEY}
            self._count(conn, repo, counted, +1)

    def title_of(self, repo: str, number: int) -> str | None:
        """The title the index holds for an issue (None: not indexed)."""
        with self.engine.connect() as conn:
            return conn.scalar(sa.select(dup_issues.c.title).where(*_is(repo, number)))

    def remove(self, repo: str, number: int) -> bool:
        with self.engine.begin() as conn:
            return self._drop(conn, repo, number)

    def set_state(self, repo: str, number: int, state: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(dup_issues.update().where(*_is(repo, number)).values(state=state))

    def _drop(self, conn: sa.Connection, repo: str, number: int) -> bool:
        row = conn.execute(sa.select(dup_issues.c.id, dup_issues.c.features).where(*_is(repo, number))).first()
        if row is None:
            return False
        posted = set(conn.scalars(sa.select(dup_postings.c.key).where(dup_postings.c.issue_id == row.id)))
        terms = stored(row.features).terms
        self._count(conn, repo, posted | {term_key(t) for t in terms} | {ISSUES_KEY}, -1)
        conn.execute(dup_postings.delete().where(dup_postings.c.issue_id == row.id))
        conn.execute(dup_issues.delete().where(dup_issues.c.id == row.id))
        return True

    def _count(self, conn: sa.Connection, repo: str, keys: Iterable[str], delta: int) -> None:
        rows = [{"repo": repo, "key": key, "df": max(delta, 0)} for key in sorted(keys)]  # sorted: one lock order
        if not rows:
            return
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        insert = dialect.insert(dup_df)
        conn.execute(insert.on_conflict_do_update(index_elements=["repo", "key"],
                                                  set_={"df": dup_df.c.df + delta}), rows)  # fmt: skip
        if delta < 0:
            conn.execute(dup_df.delete().where(dup_df.c.repo == repo, dup_df.c.df <= 0))

    @staticmethod
    def _df(conn: sa.Connection, repo: str, keys: Iterable[str]) -> dict[str, int]:
        wanted = sorted({*keys, ISSUES_KEY})
        query = sa.select(dup_df.c.key, dup_df.c.df).where(dup_df.c.repo == repo, dup_df.c.key.in_(wanted))
        return {key: int(df) for key, df in conn.execute(query)}

    # --- reading --------------------------------------------------------------------------------------------

    def similar(self, repo: str, features: Features, before: int | None = None, limit: int = 3,
                threshold: float | None = None, exclude: int | None = None, fitted: Model | None = None
                ) -> list[Candidate]:  # fmt: skip
        """Issues of `repo` that look like the same problem, best first, open ones before closed ones.

        `before`: only issues with a lower number (the ones a new issue could duplicate); `exclude`: the issue
        itself, whose rejected candidates are left out too; `threshold`: the model's unless given.
        """
        fitted = fitted or model()
        cut = fitted.threshold if threshold is None else threshold
        found = []
        for seen in self.compare(repo, features, before, exclude):
            alike = Similarity(fitted.probability(seen.signals), seen.matches)
            if alike.score >= cut:
                found.append(Candidate(seen.number, seen.title, seen.state, alike))
        found.sort(key=lambda c: (c.state != "open", -c.similarity.score, c.number))
        return found[:limit]

    def compare(self, repo: str, features: Features, before: int | None = None, exclude: int | None = None
                ) -> list[Compared]:  # fmt: skip
        """The retrieved candidates with their signals (the model's input; the fit reads them too). The issues
        the text names ("Duplicate of #40") are candidates whatever their words."""
        mentioned = named(features.mentions, repo)
        with self.engine.connect() as conn:
            keys = keys_of(features) | {term_key(t) for t in features.terms}
            df = self._df(conn, repo, keys)
            total = df.get(ISSUES_KEY, 0)
            if total == 0:
                return []
            chosen = rarest(keys, df, total)
            ids = retrieve(conn, repo, {key: idf(df[key], total) for key in chosen})
            rows = _rows(conn, ids) + _numbered(conn, repo, mentioned, set(ids))
            rejected = _rejected(conn, repo, exclude) if exclude is not None else set()
            rows = [row for row in rows if row.number != exclude and row.number not in rejected
                    and (before is None or row.number < before)]  # fmt: skip
            docs = [stored(row.features) for row in rows]
            # The candidates' title words are compared by idf too; look up the ones the query does not have.
            df |= self._df(conn, repo, {term_key(t) for doc in docs for t in doc.title_terms} - set(df))
        errors = {error: idf(df.get(error_key(error), 0) or 1, total) for error in features.errors}
        idf_of = _memo(lambda term: idf(df.get(term_key(term), 0) or 1, total))
        query = dataclasses.replace(Query.of(features, idf_of, idf(1, total), errors), named=frozenset(mentioned),
                                    lines=_uncommon(features.lines, docs))  # fmt: skip
        compared = []
        for row, doc in zip(rows, docs, strict=True):
            values, matches = signals(query, doc, row.title, row.norm, row.number)
            compared.append(Compared(row.number, row.title, row.state, values, matches))
        return compared

    def reject(self, repo: str, number: int, candidates: Iterable[int]) -> int:
        """Remember that `number` is not a duplicate of these issues (nor they of it); how many were new."""
        pairs = {(min(number, c), max(number, c)) for c in candidates if c != number}
        with self.engine.begin() as conn:
            known = _rejected(conn, repo, number)
            rows = [{"repo": repo, "low": low, "high": high} for low, high in sorted(pairs)
                    if (high if low == number else low) not in known]  # fmt: skip
            if rows:
                conn.execute(dup_rejections.insert(), rows)
            return len(rows)

    def refresh(self, repo: str) -> int:
        """Recompute every issue's norm with today's frequencies (after a backfill: the first issues indexed
        saw an almost empty index)."""
        with self.engine.begin() as conn:
            total = self._df(conn, repo, []).get(ISSUES_KEY, 0)
            df = dict(conn.execute(sa.select(dup_df.c.key, dup_df.c.df).where(dup_df.c.repo == repo)).all())
            rows = conn.execute(sa.select(dup_issues.c.id, dup_issues.c.features).where(dup_issues.c.repo == repo))
            norms = []
            for issue_id, raw in rows.all():
                terms = json.loads(raw).get("terms", {})
                norms.append({"i": issue_id, "n": norm(terms, lambda t: idf(df.get(term_key(t), 1), total))})
            if norms:
                update = dup_issues.update().where(dup_issues.c.id == sa.bindparam("i")).values(norm=sa.bindparam("n"))
                conn.execute(update, norms)
            return len(norms)

    def count(self, repo: str) -> int:
        with self.engine.connect() as conn:
            return self._df(conn, repo, []).get(ISSUES_KEY, 0)


def _memo(function: Callable[[str], float]) -> Callable[[str], float]:
    """One query's idf per word, computed once (every candidate's title asks again)."""
    known: dict[str, float] = {}

    def cached(term: str) -> float:
        value = known.get(term)
        if value is None:
            value = known[term] = function(term)
        return value

    return cached


def _is(repo: str, number: int) -> tuple[Any, Any]:
    return dup_issues.c.repo == repo, dup_issues.c.number == number


def stored(raw: str) -> Features:
    """A stored issue's features: written by record() from a Features, so read back without re-validation."""
    data = json.loads(raw)
    return Features(**{name: data[name] for name in FIELDS if name in data})


def _uncommon(lines: list[str], docs: list[Features]) -> frozenset[str]:
    """The query's lines that at most COMMON_LINE of the candidates share."""
    mine = set(lines) if len(docs) >= LINE_POOL else set()
    counts: dict[str, int] = {}
    for doc in docs:
        for line in mine.intersection(doc.lines):
            counts[line] = counts.get(line, 0) + 1
    return frozenset(line for line, count in counts.items() if count <= COMMON_LINE)


def _numbered(conn: sa.Connection, repo: str, numbers: set[int], known: set[int]) -> list[Any]:
    """The rows of these issue numbers not among the `known` ids."""
    if not numbers:
        return []
    columns = (dup_issues.c.number, dup_issues.c.title, dup_issues.c.state, dup_issues.c.norm, dup_issues.c.features)
    query = sa.select(*columns).where(dup_issues.c.repo == repo, dup_issues.c.number.in_(sorted(numbers)),
                                      dup_issues.c.id.not_in(sorted(known)))  # fmt: skip
    return list(conn.execute(query))


def _rejected(conn: sa.Connection, repo: str, number: int) -> set[int]:
    low = sa.select(dup_rejections.c.high).where(dup_rejections.c.repo == repo, dup_rejections.c.low == number)
    high = sa.select(dup_rejections.c.low).where(dup_rejections.c.repo == repo, dup_rejections.c.high == number)
    return set(conn.scalars(low.union_all(high)))


def _rows(conn: sa.Connection, ids: list[int]) -> list[Any]:
    if not ids:
        return []
    columns = (dup_issues.c.number, dup_issues.c.title, dup_issues.c.state, dup_issues.c.norm, dup_issues.c.features)
    return list(conn.execute(sa.select(*columns).where(dup_issues.c.id.in_(ids))))
