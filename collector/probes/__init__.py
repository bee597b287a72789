"""The probe registry: one function per fact, registered with `@probe(KEY)`.

Every module in this package is imported by `all_probes()`, so adding a fact is writing one decorated function;
nothing else lists the probes.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Any, Callable, TypeVar  # subscripted at import, also on 3.8 (collector/bundle.py)

from collector.context import Context
from collector.report.model import Fact, Missing, Result
from collector.report.schema import Key

ProbeFunc = Callable[[Context], Any]
F = TypeVar("F", bound=ProbeFunc)


@dataclass(frozen=True)
class Probe:
    """`keys` are the facts the function returns: one Result, or a {key name: Result} dict for several."""

    keys: tuple[Key[Any], ...]
    func: ProbeFunc
    name: str


_REGISTRY: list[Probe] = []


def probe(*keys: Key[Any]) -> Callable[[F], F]:
    def register(func: F) -> F:
        _REGISTRY.append(Probe(keys=keys, func=func, name=f"{func.__module__}.{func.__name__}"))
        return func

    return register


def all_probes() -> list[Probe]:
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    return list(_REGISTRY)


def results_of(probe: Probe, returned: Any) -> dict[str, Result]:
    """Normalise what a probe returned into {key name: Result}, rejecting anything else."""
    if len(probe.keys) == 1 and isinstance(returned, (Fact, Missing)):
        return {probe.keys[0].name: returned}
    if isinstance(returned, dict):
        expected = {key.name for key in probe.keys}
        if not set(returned) <= expected:
            raise TypeError(f"{probe.name} returned unknown facts {sorted(set(returned) - expected)}")
        return dict(returned)
    raise TypeError(f"{probe.name} returned {type(returned).__name__}, not a Fact or Missing")
