"""Combine what several readers found about one fact: the higher-precedence reader wins, gaps are filled.

A collect_env paste gives the torch version but not the wheel's arch list; torch's own warning in the same issue
gives the arch list and the GPU's capability. Merging keeps the first reader's value and fills its empty fields
from the others, keeping the first reader's evidence.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from bot.diagnosis.readers.base import MAX_GPUS, Partial
from collector.child.packages_child import normalise
from collector.report.model import Fact, Result
from collector.report.schema import DRIVER, GPUS, PACKAGES, RUNTIME, TORCH, Gpu, Packages


def merge(partials: list[Partial]) -> dict[str, Result]:
    """Partials arrive in precedence order (reader first, then section order)."""
    candidates: dict[str, list[Fact[Any]]] = {}
    for partial in partials:
        for name, fact in partial.facts.items():
            candidates.setdefault(name, []).append(fact)
    merged: dict[str, Result] = {}
    for partial in partials:
        for name, missing in partial.missing.items():
            merged.setdefault(name, missing)
    for name, facts in candidates.items():
        combine = COMBINERS.get(name, _first)
        merged[name] = combine(facts)
    return merged


def _first(facts: list[Fact[Any]]) -> Fact[Any]:
    return facts[0]


def _fill_fields(facts: list[Fact[Any]]) -> Fact[Any]:
    """Dataclass values: empty fields of the first are taken from the next ones that have them."""
    base = facts[0]
    value = base.value
    for other in facts[1:]:
        if type(other.value) is not type(value):
            continue
        updates = {
            f.name: getattr(other.value, f.name)
            for f in dataclasses.fields(value)
            if getattr(value, f.name) in (None, [], {}) and getattr(other.value, f.name) not in (None, [], {})
        }
        if updates and _compatible(value, other.value):
            value = dataclasses.replace(value, **updates)
    return dataclasses.replace(base, value=value)


def _compatible(first: Any, other: Any) -> bool:
    """Two torch facts about different versions are not merged (an old paste quoted beside a new one)."""
    version_a, version_b = getattr(first, "version", None), getattr(other, "version", None)
    if not (version_a and version_b):
        return True
    return str(version_a).split("+")[0] == str(version_b).split("+")[0]


def _gpus(facts: list[Fact[Any]]) -> Fact[Any]:
    facts = [_first_gpus(fact) for fact in facts]  # each GPU is compared with every other reader's
    base = facts[0]
    gpus: list[Gpu] = list(base.value)
    for other in facts[1:]:
        for index, gpu in enumerate(gpus):
            match = next((o for o in other.value if _same_gpu(gpu.name, o.name)), None)
            if match and gpu.cc is None and match.cc:
                gpus[index] = dataclasses.replace(gpu, cc=match.cc)
    return dataclasses.replace(base, value=gpus)


def _first_gpus(fact: Fact[Any]) -> Fact[Any]:
    if len(fact.value) <= MAX_GPUS:
        return fact
    cut = f"{fact.source}; the first {MAX_GPUS} of {len(fact.value)} GPUs read"
    return dataclasses.replace(fact, value=fact.value[:MAX_GPUS], source=cut)


def _same_gpu(a: str, b: str) -> bool:
    a, b = a.lower().replace("nvidia ", ""), b.lower().replace("nvidia ", "")
    return a in b or b in a


def _packages(facts: list[Fact[Any]]) -> Fact[Any]:
    selected: dict[str, Any] = {}
    duplicates: dict[str, Any] = {}
    for fact in facts:
        for package in fact.value.selected:
            selected.setdefault(normalise(package.name), package)
        for duplicate in fact.value.duplicates:
            duplicates.setdefault(normalise(duplicate.name), duplicate)
    value = Packages(selected=list(selected.values()), duplicates=list(duplicates.values()), total=facts[0].value.total)
    return dataclasses.replace(facts[0], value=value)


COMBINERS: dict[str, Callable[[list[Fact[Any]]], Fact[Any]]] = {
    TORCH.name: _fill_fields,
    DRIVER.name: _fill_fields,
    RUNTIME.name: _fill_fields,
    GPUS.name: _gpus,
    PACKAGES.name: _packages,
}
