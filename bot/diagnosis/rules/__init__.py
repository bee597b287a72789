"""The rule registry: each rule is a small pure function View -> findings, registered with `@rule`.

Every module in this package is imported by `all_rules()`; a rule's wording lives in
templates/findings/<rule id>.md.j2 (blocks `title` and `fix`), so adding a rule is one function and one
template (`finding` is bot/diagnosis/findings.py's `templated`, which makes every value it prints one inert line).
`diagnose` runs them all, isolating failures, and hands the findings to bot/diagnosis/policy.py.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from typing import Callable, Iterable, List  # subscripted at import, also on 3.8 (collector/bundle.py)

from bot.diagnosis import policy
from bot.diagnosis.findings import Finding
from bot.diagnosis.findings import templated as finding
from bot.diagnosis.matrix import Index
from bot.diagnosis.readers import Case
from bot.diagnosis.rules.view import View

__all__ = ["all_rules", "diagnose", "finding", "refutes", "rule"]
log = logging.getLogger(__name__)
RuleFunc = Callable[[View], Iterable[Finding]]
Refuter = Callable[[View], bool]
Fallback = Callable[[List[Finding]], "Finding | None"]
_RULES: dict[str, RuleFunc] = {}
_REFUTERS: dict[str, Refuter] = {}


def rule(func: RuleFunc) -> RuleFunc:
    _RULES[func.__name__] = func
    return func


def refutes(category: str) -> Callable[[Refuter], Refuter]:
    """Register a check that the facts rule a category out (an H100 runs FP8 whatever a pasted text says); findings
    from words alone (an error text, a cue, a learned guess) for a refuted category are dropped."""

    def register(func: Refuter) -> Refuter:
        _REFUTERS[category] = func
        return func

    return register


def all_rules() -> dict[str, RuleFunc]:
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    return dict(_RULES)


def diagnose(case: Case, matrix: Index, fallback: Fallback | None = None) -> list[Finding]:
    """Every rule's findings, decided by bot/diagnosis/policy.py. `fallback`, given the rules' findings, may add a
    guess of its own (the bot's learned fallback); it is weighed like any finding from words."""
    view = View(case, matrix)
    findings: list[Finding] = []
    for name, func in all_rules().items():
        try:
            findings.extend(func(view))
        except Exception:  # one broken rule must not hide the others' findings
            log.exception("rule %s failed", name)
    guess = fallback(findings) if fallback else None
    findings.extend([guess] if guess else [])
    # An error text only speaks for its category when no rule reached the same conclusion from the facts, and
    # words never speak for a category the facts rule out.
    from_words = {"known_error", *policy.FALLBACKS}
    from_facts = {f.category for f in findings if f.id not in from_words}
    refuted = {category for category, check in _REFUTERS.items() if _refuted(check, view, category)}
    kept = [f for f in findings if f.id not in from_words or f.category not in from_facts | refuted]
    return policy.decide([f for f in kept if f.id != "known_error" or f.category not in from_facts])


def _refuted(check: Refuter, view: View, category: str) -> bool:
    try:
        return check(view)
    except Exception:  # a broken check refutes nothing
        log.exception("refuter for %s failed", category)
        return False
