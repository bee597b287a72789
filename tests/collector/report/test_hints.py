"""collector/report/hints.py: the annotations rewritten for Python 3.8/3.9 mean what typing makes of them on 3.10+."""

from __future__ import annotations

import dataclasses
import importlib
import types
import typing
from typing import Any, Literal, Union

import pytest

from collector.report.hints import evaluate, rewritten_hints

# Every module whose dataclasses the codec decodes (the report, the matrix) or the collector renders.
MODULES = ["collector.report.schema", "collector.report.model", "bot.diagnosis.matrix.model", "collector.markdown"]


def shape(tp: Any) -> Any:
    """A type as get_origin/get_args see it, with `X | Y` and Union[X, Y] the same (as the codec treats them)."""
    origin = typing.get_origin(tp)
    if origin is None:
        return tp
    if origin is types.UnionType:
        origin = Union
    return (origin, tuple(shape(arg) for arg in typing.get_args(tp)))


def dataclasses_of(module_name: str) -> list[type]:
    module = importlib.import_module(module_name)
    return [
        obj
        for obj in vars(module).values()
        if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == module_name
    ]


@pytest.mark.parametrize("module_name", MODULES)
def test_every_decoded_dataclass_has_the_same_hints_as_typing_gives(module_name: str) -> None:
    classes = dataclasses_of(module_name)
    assert classes
    for cls in classes:
        expected = typing.get_type_hints(cls)
        got = rewritten_hints(cls)
        assert got.keys() == expected.keys(), cls
        assert {name: shape(hint) for name, hint in got.items()} == {
            name: shape(hint) for name, hint in expected.items()
        }, cls


def test_new_spellings_become_typing_ones() -> None:
    none = type(None)
    assert shape(evaluate("int | None", {})) == (Union, (int, none))
    assert shape(evaluate("list[dict[str, int | None]]", {})) == (list, ((dict, (str, (Union, (int, none)))),))
    assert shape(evaluate("tuple[str, ...]", {})) == (tuple, (str, Ellipsis))
    assert shape(evaluate('Literal["a", "b"] | None', {"Literal": Literal})) == (Union, ((Literal, ("a", "b")), none))
    # typing's own objects, which Python 3.8 can make: not `X | Y` (types.UnionType) nor list[...] (GenericAlias).
    assert not isinstance(evaluate("int | None", {}), types.UnionType)
    assert type(evaluate("list[int]", {})) is not types.GenericAlias
