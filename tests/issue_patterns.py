"""The registry of every regular expression applied to text from an issue (tests/test_linear_regex.py, the bench).

Found, not listed: every module below is searched for patterns in its globals (compiled `re.Pattern`s and the
matrix's `Screened`, also inside lists, tuples, sets and dicts), and the matrix's own patterns (its error texts
and GPU names, from the YAML) are added. tests/test_linear_regex.py forbids compiling a pattern inside a
function in these modules, so a pattern cannot escape this search.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType

from bot.diagnosis.matrix.screen import Screened

# What reads an issue: the redaction of secrets, the readers (and the parser they borrow for `nvidia-smi topo`),
# the matrix, the rules, the comment's rendering and inert Markdown, the duplicate signature, the twin's schema.
PACKAGES = (
    "bot.diagnosis.readers",
    "bot.diagnosis.rules",
    "bot.diagnosis.matrix",
    "bot.diagnosis.learned",
    "bot.insights.dedupe",
    "collector.parsers",
)
MODULES = (
    "collector.redact",
    "collector.report.model",
    "collector.markdown",
    "bot.diagnosis.plan",
    "bot.diagnosis.inert",
    "bot.diagnosis.render",
    "bot.diagnosis.archs",
    "bot.service.webhook",
    "bot.service.worker",  # NOT_DUPLICATE reads comments
)


@dataclass(frozen=True)
class Entry:
    name: str  # where it lives: "collector.redact.FLAG", "errors.yaml driver_too_old"
    pattern: str
    flags: int

    def compiled(self) -> re.Pattern[str]:
        return re.compile(self.pattern, self.flags)


def modules() -> list[ModuleType]:
    names = list(MODULES)
    for package in PACKAGES:
        root = importlib.import_module(package)
        names.append(package)
        names += [f"{package}.{info.name}" for info in pkgutil.iter_modules(root.__path__)]
    return [importlib.import_module(name) for name in names]


def entries() -> list[Entry]:
    """Every pattern, once per (pattern, flags), under the first name it was found by."""
    found: dict[tuple[str, int], Entry] = {}
    for module in modules():
        for name, value in vars(module).items():
            for entry in _patterns(value, f"{module.__name__}.{name}"):
                found.setdefault((entry.pattern, entry.flags), entry)
    for entry in _matrix():
        found.setdefault((entry.pattern, entry.flags), entry)
    return list(found.values())


def _patterns(value: object, name: str, depth: int = 0) -> Iterator[Entry]:
    if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
        yield Entry(name, value.pattern, value.flags & ~re.UNICODE)
    elif isinstance(value, Screened):
        yield Entry(name, value.pattern, value.flags)
    elif depth < 3 and isinstance(value, (list, tuple, set, frozenset)):
        for index, item in enumerate(value):
            yield from _patterns(item, f"{name}[{index}]", depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for key, item in value.items():
            yield from _patterns(item, f"{name}[{key!r}]", depth + 1)


def _matrix() -> Iterator[Entry]:
    from bot.diagnosis.matrix import default

    index = default()
    for screened, signature in index._error_patterns:
        yield Entry(f"errors.yaml {signature.id}", screened.pattern, screened.flags)
    for screened, signature in index._padded_error_patterns:
        yield Entry(f"errors.yaml {signature.id} (padded lines)", screened.pattern, screened.flags)
    for screened, gpu in index._gpu_patterns:
        yield Entry(f"gpus.yaml {gpu.match}", screened.pattern, screened.flags)
    for screened, also, cue in index._cue_patterns:
        yield Entry(f"cues.yaml {cue.id}", screened.pattern, screened.flags)
        if also is not None:
            yield Entry(f"cues.yaml {cue.id} also", also.pattern, also.flags)
