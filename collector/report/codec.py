"""Conversion between the report's dataclasses and JSON-compatible values.

Encoding drops fields that hold None so the twin stays small; decoding fills them back from the defaults. Wrong
types are always refused, so a damaged or hand-edited twin gives a clear error instead of a half report. Unknown
keys are refused too (a typo in a config file must not pass), except when reading a report (`Reading`): a newer
collector of the same schema major may add keys and enum values, and a reader must not break on them.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar, Union, get_args, get_origin

from collector.report.hints import type_hints

T = TypeVar("T")
# `X | Y` makes a types.UnionType from 3.10; before that (the one-file collector runs on 3.8) only typing.Union.
UNIONS = (Union, getattr(types, "UnionType", Union))


class DecodeError(ValueError):
    """The data does not match the schema; `path` says where."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path or '<root>'}: {message}")
        self.path = path


class Unreadable(DecodeError):
    """What a newer writer of the same schema may produce: a required key it dropped, an enum value it added.
    Only raised while `Reading`; the caller decides what the enclosing value becomes (a fact: Missing)."""


@dataclasses.dataclass
class Reading:
    """Lenient decoding of another program's output: unknown keys are skipped and their paths recorded."""

    skipped: list[str] = dataclasses.field(default_factory=list)


def encode(value: Any) -> Any:
    """Dataclasses, lists, tuples and dicts to plain JSON values (None fields of dataclasses omitted)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for field in dataclasses.fields(value):
            item = getattr(value, field.name)
            if item is not None:
                out[field.name] = encode(item)
        return out
    if isinstance(value, (list, tuple)):
        return [encode(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): encode(item) for key, item in value.items()}
    return value


def decode(tp: Any, data: Any, path: str = "", reading: Reading | None = None) -> Any:
    """Build a value of type `tp` from JSON data; strictly unless `reading` (see Reading)."""
    origin = get_origin(tp)
    if tp is Any:
        return data
    if origin in UNIONS:
        return _decode_union(tp, data, path, reading)
    if origin is typing.Literal:
        if data not in get_args(tp):
            kind = Unreadable if reading is not None and isinstance(data, str) else DecodeError
            raise kind(path, f"expected one of {get_args(tp)!r}, got {data!r}")
        return data
    if origin in (list, tuple) or tp in (list, tuple):
        return _decode_sequence(tp, data, path, reading)
    if origin is dict or tp is dict:
        return _decode_mapping(tp, data, path, reading)
    if dataclasses.is_dataclass(tp):
        return _decode_dataclass(tp, data, path, reading)
    return _decode_scalar(tp, data, path)


def _decode_union(tp: Any, data: Any, path: str, reading: Reading | None) -> Any:
    options = get_args(tp)
    if data is None:
        if type(None) in options:
            return None
        raise (Unreadable if reading is not None else DecodeError)(path, "value is required")
    errors: list[DecodeError] = []
    for option in options:
        if option is type(None):
            continue
        try:
            return decode(option, data, path, reading)
        except DecodeError as exc:
            errors.append(exc)
    kind = Unreadable if errors and all(isinstance(e, Unreadable) for e in errors) else DecodeError
    raise kind(path, "no alternative matched: " + "; ".join(map(str, errors)))


def _decode_sequence(tp: Any, data: Any, path: str, reading: Reading | None) -> Any:
    if not isinstance(data, list):
        raise DecodeError(path, f"expected a list, got {type(data).__name__}")
    args = get_args(tp)
    if get_origin(tp) is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], item, f"{path}[{i}]", reading) for i, item in enumerate(data))
        if len(args) != len(data):
            raise DecodeError(path, f"expected {len(args)} items, got {len(data)}")
        pairs = enumerate(zip(args, data))  # lengths checked above; strict= is 3.10+, this runs on 3.8
        return tuple(decode(arg, item, f"{path}[{i}]", reading) for i, (arg, item) in pairs)
    item_type = args[0] if args else Any
    return [decode(item_type, item, f"{path}[{i}]", reading) for i, item in enumerate(data)]


def _decode_mapping(tp: Any, data: Any, path: str, reading: Reading | None) -> Any:
    if not isinstance(data, dict):
        raise DecodeError(path, f"expected an object, got {type(data).__name__}")
    args = get_args(tp)
    value_type = args[1] if len(args) == 2 else Any
    return {str(key): decode(value_type, item, f"{path}.{key}", reading) for key, item in data.items()}


@functools.lru_cache(maxsize=None)  # functools.cache is 3.9+; collector/bundle.py runs on 3.8
def _hints(tp: Any) -> dict[str, Any]:
    return type_hints(tp)


def _decode_dataclass(tp: Any, data: Any, path: str, reading: Reading | None) -> Any:
    if not isinstance(data, dict):
        raise DecodeError(path, f"expected an object for {tp.__name__}, got {type(data).__name__}")
    hints = _hints(tp)
    fields = {field.name: field for field in dataclasses.fields(tp) if field.init}
    unknown = sorted(set(data) - set(fields))
    if unknown and reading is None:
        raise DecodeError(path, f"unknown key(s) for {tp.__name__}: {', '.join(unknown)}")
    if reading is not None:
        reading.skipped.extend(f"{path}.{key}" if path else key for key in unknown)
    kwargs = {}
    for name, field in fields.items():
        where = f"{path}.{name}" if path else name
        if name in data:
            kwargs[name] = decode(hints[name], data[name], where, reading)
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            if reading is not None and not _optional(hints[name]):
                raise Unreadable(where, "a required key is missing")
            kwargs[name] = decode(hints[name], None, where, reading)
    return tp(**kwargs)


def _optional(tp: Any) -> bool:
    return get_origin(tp) in UNIONS and type(None) in get_args(tp)


def _decode_scalar(tp: Any, data: Any, path: str) -> Any:
    if tp is float and isinstance(data, (int, float)) and not isinstance(data, bool):
        try:
            return float(data)
        except OverflowError:  # JSON integers have no size limit
            raise DecodeError(path, "number too large") from None
    if tp is int and isinstance(data, bool):
        raise DecodeError(path, "expected int, got bool")
    if isinstance(tp, type) and isinstance(data, tp):
        return data
    raise DecodeError(path, f"expected {getattr(tp, '__name__', tp)}, got {type(data).__name__}")


def decode_as(tp: type[T], data: Any) -> T:
    """Typed front door of `decode` for callers that know the target class."""
    return typing.cast(T, decode(tp, data))
