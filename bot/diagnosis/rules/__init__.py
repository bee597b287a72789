"""The rule registry: each rule is a small pure function View -> findings, registered with `@rule`.

Every module in this package is imported by `all_rules()`; a rule's wording lives in
templates/findings/<rule id>.md.j2 (blocks `title` and `fix`), so adding a rule is one function and one
template (`finding` is bot/diagnosis/findings.py's `templated`, which makes every value it prints one inert line).
`diagnose` runs them all, isolating failures, and ranks the findings.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from collections.abc import Callable, Iterable

from bot.diagnosis.findings import Finding, ranked
from bot.diagnosis.findings import templated as finding
from bot.diagnosis.matrix import Index
from bot.diagnosis.readers import Case
from bot.diagnosis.rules.view import View

__all__ = ["all_rules", "diagnose", "finding", "rule"]
log = logging.getLogger(__name__)
RuleFunc = Callable[[View], Iterable[Finding]]
_RULES: dict[str, RuleFunc] = {}


def rule(func: RuleFunc) -> RuleFunc:
    _RULES[func.__name__] = func
    return func


def all_rules() -> dict[str, RuleFunc]:
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    return dict(_RULES)


def diagnose(case: Case, matrix: Index) -> list[Finding]:
    view = View(case, matrix)
    findings: list[Finding] = []
    for name, func in all_rules().items():
        try:
            findings.extend(func(view))
        except Exception:  # one broken rule must not hide the others' findings
            log.exception("rule %s failed", name)
    # An error text only speaks for its category when no rule reached the same conclusion from the facts.
    from_facts = {f.category for f in findings if f.id != "known_error"}
    return ranked([f for f in findings if f.id != "known_error" or f.category not in from_facts])
