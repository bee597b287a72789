"""The Report: every fact with its provenance, or the reason it is missing, plus the JSON twin."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Optional, TypeVar, Union

from collector.report import codec
from collector.report.schema import KEYS, SCHEMA, Key

T = TypeVar("T")

Status = Literal["missing", "timeout", "error", "skipped"]
# Types decoded at run time, in typing's spelling: `str | None` is no value on 3.8 (collector/bundle.py runs there).
OptionalStr = Optional[str]
OptionalFloat = Optional[float]


@dataclass(frozen=True)
class Fact(Generic[T]):
    """A value and where it came from (an API, a command, or the pasted line it was read from)."""

    value: T
    source: str
    seconds: float | None = None
    evidence: str | None = None


@dataclass(frozen=True)
class Missing:
    """Why a fact is absent: not there, timed out, failed (with the error text), or deliberately skipped."""

    reason: str
    status: Status = "missing"
    detail: str | None = None
    seconds: float | None = None


Result = Union[Fact[Any], Missing]  # made at import, also on 3.8 (collector/bundle.py): no `|` there


@dataclass(frozen=True)
class Meta:
    generator: str = "unknown"
    created: str | None = None
    duration_seconds: float | None = None
    options: dict[str, str] = field(default_factory=dict)
    redacted: dict[str, int] = field(default_factory=dict)
    truncated: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Report:
    meta: Meta
    facts: dict[str, Result] = field(default_factory=dict)
    # What a reader skipped in a twin written by a newer collector (unknown facts and keys); never written out.
    skipped: tuple[str, ...] = ()

    def get(self, key: Key[T]) -> T | None:
        """The value of a fact, or None when it is missing or unknown."""
        result = self.facts.get(key.name)
        return result.value if isinstance(result, Fact) else None

    def result(self, key: Key[Any]) -> Result | None:
        return self.facts.get(key.name)


def in_schema_order(facts: dict[str, Result]) -> dict[str, Result]:
    """The facts in the schema's order (the report's sections), any unknown to it last."""
    order = {name: number for number, name in enumerate(KEYS)}
    return {name: facts[name] for name in sorted(facts, key=lambda name: order.get(name, len(order)))}


class ReportFormatError(ValueError):
    """A twin that cannot be read back; the message says what is wrong and where."""


def to_json_obj(report: Report) -> dict[str, Any]:
    return {"schema": SCHEMA, "meta": codec.encode(report.meta), "facts": encode_facts(report.facts)}


def encode_facts(facts: dict[str, Result]) -> dict[str, Any]:
    return {name: _encode_result(result) for name, result in facts.items()}


def _encode_result(result: Result) -> dict[str, Any]:
    if isinstance(result, Fact):
        entry = {"value": codec.encode(result.value), "source": result.source}
        entry.update(_optional(seconds=result.seconds, evidence=result.evidence))
    else:
        entry = {"missing": result.reason, "status": result.status}
        entry.update(_optional(detail=result.detail, seconds=result.seconds))
    return entry


def _optional(**values: Any) -> dict[str, Any]:
    return {name: value for name, value in values.items() if value is not None}


def to_json(report: Report, *, indent: int | None = None) -> str:
    return json.dumps(to_json_obj(report), indent=indent, ensure_ascii=False, sort_keys=False)


# "envtriage.report/1" or, from a later collector of the same major, "envtriage.report/1.3".
SCHEMA_NAME = re.compile(r"envtriage\.report/([0-9]{1,4})(?:\.[0-9]{1,4})?")


def schema_major(schema: str) -> int:
    match = SCHEMA_NAME.fullmatch(schema)
    if match is None:
        raise ValueError(f"not an envtriage report schema: {schema!r}")
    return int(match.group(1))


MAJOR = schema_major(SCHEMA)


def from_json_obj(data: Any) -> Report:
    """A report from its twin. A newer collector of the same schema major is read: facts and keys this version
    does not know are skipped (listed in `Report.skipped`), a fact it cannot read becomes Missing. Only another
    major, or a value of the wrong type (a damaged twin), is refused."""
    if not isinstance(data, dict):
        raise ReportFormatError("the report is not a JSON object")
    _check_schema(data.get("schema"))
    reading = codec.Reading()
    try:
        meta = codec.decode(Meta, data.get("meta", {}), "meta", reading)
        facts = decode_facts(data.get("facts", {}), reading)
    except codec.DecodeError as exc:
        raise ReportFormatError(str(exc)) from exc
    return Report(meta=meta, facts=facts, skipped=tuple(reading.skipped))


def _check_schema(schema: Any) -> None:
    match = SCHEMA_NAME.fullmatch(schema) if isinstance(schema, str) else None
    if match is None:
        raise ReportFormatError(f"unsupported report schema {schema!r}; this version reads {SCHEMA!r}")
    major = int(match.group(1))
    if major > MAJOR:
        raise ReportFormatError(
            f"the report was written by a newer envtriage (schema {schema}); this version reads schema "
            f"{SCHEMA} and earlier: update envtriage to read it"
        )
    if major < MAJOR:
        raise ReportFormatError(f"the report's schema {schema} is older than this version reads ({SCHEMA})")


def decode_facts(data: Any, reading: codec.Reading | None = None) -> dict[str, Result]:
    """The facts of a twin; raises codec.DecodeError naming the fact that is wrong.

    With `reading`, facts unknown to this version are skipped and a fact holding what a newer collector may write
    (a new enum value, a dropped key) becomes Missing; without it (our own probe process), nothing unknown passes.
    """
    facts: dict[str, Result] = {}
    for name, entry in _mapping(data).items():
        if reading is not None and name not in KEYS:
            reading.skipped.append(f"facts.{name}")
            continue
        try:
            facts[name] = _decode_entry(name, entry, reading)
        except codec.Unreadable as exc:  # only raised while reading
            if reading is not None:
                reading.skipped.append(exc.path)
            facts[name] = Missing(reason=f"not readable by this envtriage version ({exc})")
    return facts


def _mapping(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ReportFormatError("'facts' is not an object")
    return value


def _decode_entry(name: str, entry: Any, reading: codec.Reading | None = None) -> Result:
    key = KEYS.get(name)
    if key is None:
        raise codec.DecodeError(f"facts.{name}", "unknown fact (is the report from a newer envtriage?)")
    if not isinstance(entry, dict):
        raise codec.DecodeError(f"facts.{name}", "expected an object")
    if "missing" in entry:
        _unknown_keys(name, entry, {"missing", "status", "detail", "seconds"}, reading)
        return Missing(
            reason=codec.decode(str, entry["missing"], f"facts.{name}.missing"),
            status=codec.decode(Status, entry.get("status", "missing"), f"facts.{name}.status", reading),
            detail=codec.decode(OptionalStr, entry.get("detail"), f"facts.{name}.detail"),
            seconds=codec.decode(OptionalFloat, entry.get("seconds"), f"facts.{name}.seconds"),
        )
    _unknown_keys(name, entry, {"value", "source", "seconds", "evidence"}, reading)
    return Fact(
        value=codec.decode(key.type, entry.get("value"), f"facts.{name}.value", reading),
        source=codec.decode(str, entry.get("source"), f"facts.{name}.source"),
        seconds=codec.decode(OptionalFloat, entry.get("seconds"), f"facts.{name}.seconds"),
        evidence=codec.decode(OptionalStr, entry.get("evidence"), f"facts.{name}.evidence"),
    )


def _unknown_keys(name: str, entry: dict[str, Any], allowed: set[str], reading: codec.Reading | None) -> None:
    unknown = sorted(set(entry) - allowed)
    if unknown and reading is None:
        raise codec.DecodeError(f"facts.{name}", f"unknown key(s): {', '.join(unknown)}")
    if reading is not None:
        reading.skipped.extend(f"facts.{name}.{key}" for key in unknown)


def from_json(text: str) -> Report:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # ValueError: also an integer longer than Python reads
        raise ReportFormatError(f"not valid JSON: {exc}") from exc
    return from_json_obj(data)
