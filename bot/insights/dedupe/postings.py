"""What the duplicate index posts each issue under, and how a query reads those postings back.

Keys: the error signatures ("e:"), exceptions ("x:"), innermost frames ("f:"), findings ("c:") and title words
("t:") of every issue, and the rarest words of its body. A query reads the postings of its rarest keys within a
budget and lets the database add up their idf per issue: the best few dozen are the candidates scored in full.
"""

from __future__ import annotations

import json
import math

import sqlalchemy as sa

from bot.insights.dedupe.features import Features
from bot.service.tables import without_nul

ISSUES_KEY = "#issues"
POSTED_TERMS = 20  # the rarest words of a body get postings; every title word does
POSTING_BUDGET = 6000  # postings read per query, rarest keys first
CANDIDATES = 40
COMMON = 0.2  # keys in more than this share of issues are useless for retrieval


def term_key(term: str) -> str:
    return "t:" + term


def error_key(error: str) -> str:
    return str(without_nul("e:" + error))[:250]  # as keys_of() keeps it


def keys_of(features: Features) -> set[str]:
    """The keys every issue is posted under, whatever their frequency."""
    keys = {"e:" + error for error in features.errors}
    keys |= {"x:" + name for name in features.exceptions} | {"f:" + frame for frame in features.frames}
    keys |= {"c:" + category for category in features.categories} | {term_key(t) for t in features.title_terms}
    return {without_nul(key)[:250] for key in keys}  # as dup_postings keeps them, and as JSON for PostgreSQL


def idf(df: int, total: int) -> float:
    return math.log(1 + total / max(df, 1))


def rarest(keys: set[str], df: dict[str, int], total: int) -> list[str]:
    """Keys worth reading postings for: present, not common, rarest first, within the budget."""
    usable = sorted((df[k], k) for k in keys if k in df and df[k] <= max(50, COMMON * total))
    chosen, spent = [], 0
    for count, key in usable:
        if spent + count > POSTING_BUDGET:
            break
        chosen.append(key)
        spent += count
    return chosen


# The chosen keys travel as one JSON parameter, so the statement is the same text every time (SQLAlchemy's
# compiled cache and the database's plan cache both hit) and the adding up happens inside the database.
RETRIEVE = {
    "sqlite": sa.text(
        "SELECT p.issue_id, SUM(c.value) AS score FROM json_each(:weights) AS c "
        "JOIN dup_postings AS p ON p.repo = :repo AND p.key = c.key "
        "GROUP BY p.issue_id ORDER BY score DESC LIMIT :limit"
    ),
    "postgresql": sa.text(
        "SELECT p.issue_id, SUM(CAST(c.value AS double precision)) AS score "
        "FROM jsonb_each_text(CAST(:weights AS jsonb)) AS c(key, value) "
        "JOIN dup_postings AS p ON p.repo = :repo AND p.key = c.key "
        "GROUP BY p.issue_id ORDER BY score DESC LIMIT :limit"
    ),
}


def retrieve(conn: sa.Connection, repo: str, weights: dict[str, float]) -> list[int]:
    """The best candidates: issues sharing the chosen keys, by summed idf (signature and frames count thrice)."""
    if not weights:
        return []
    boosted = {key: weight * (3.0 if key[:2] in ("e:", "f:") else 1.0) for key, weight in weights.items()}
    statement = RETRIEVE[conn.dialect.name]
    found = conn.execute(statement, {"weights": json.dumps(boosted), "repo": repo, "limit": CANDIDATES})
    return [issue_id for issue_id, _ in found]
