"""Facts from inside the target interpreter: its Python and packages, and torch (with the smoke tests).

Both run as child processes of `--python` (default: this interpreter), so a torch that segfaults, hangs or
raises on import becomes a recorded result with its error text instead of a dead report.
"""

from __future__ import annotations

import json
import time
from typing import Any

from collector.context import Context
from collector.probes import probe
from collector.report import codec
from collector.report.model import Fact, Missing, Result
from collector.report.schema import KEYS, LIBRARIES, PACKAGES, PYTHON, SMOKE_KEYS, TORCH, Key
from collector.run import describe_exit, kill_group, read_child, start_child

MARKER = "@@envtriage "
# The child's last line: what it prints after is of no use, and its exit can take longer than its work.
LAST_LINE = (MARKER + json.dumps({"done": True}) + "\n").encode()
DEEP_ONLY = {key.name for key in SMOKE_KEYS} - {"smoke.matmul_bf16"}


@probe(PYTHON, PACKAGES)
def python_and_packages(ctx: Context) -> dict[str, Result]:
    return run_child(ctx, "packages_child.py", (PYTHON, PACKAGES), {}, timeout=15.0)


@probe(TORCH, LIBRARIES, *SMOKE_KEYS)
def torch(ctx: Context) -> dict[str, Result]:
    level = ctx.options.smoke
    results = run_child(
        ctx, "torch_child.py", (TORCH, LIBRARIES, *SMOKE_KEYS), {"smoke": level}, ctx.deadline.remaining()
    )
    for key in SMOKE_KEYS:
        if level == "none":
            results[key.name] = Missing("smoke tests not requested (--no-smoke)", status="skipped")
        elif level == "quick" and key.name in DEEP_ONLY:
            results[key.name] = Missing("runs with --deep", status="skipped")
        elif not isinstance(results[TORCH.name], Fact) and results[key.name].status != "skipped":  # type: ignore[union-attr]
            results[key.name] = Missing("torch is not usable", status="skipped")
    return results


def run_child(
    ctx: Context, script: str, keys: tuple[Key[Any], ...], options: dict[str, str], timeout: float
) -> dict[str, Result]:
    start = time.monotonic()
    proc = ctx.started.pop(script, None)
    try:
        proc = proc or start_child(ctx.options.python, script, options, ctx.env)
    except OSError as exc:
        return {key.name: Missing(f"cannot run the interpreter {ctx.options.python}: {exc}", "error") for key in keys}
    ctx.groups.add(proc)
    # Which limit cuts the child: its own, or the report's deadline (the child started before this probe did, so the
    # time this probe waited says nothing about the budget the user gave).
    limit = f"within {timeout:g} s" if timeout < ctx.deadline.remaining() else deadline_words(ctx.options.timeout)
    try:
        output = read_child(proc, ctx.deadline.clamp(timeout), LAST_LINE)
    finally:
        kill_group(proc)  # whatever happened, no grandchild (a smoke test) outlives the probe
        ctx.groups.discard(proc)
    seconds = round(time.monotonic() - start, 3)
    # Killed by the deadline's sweep (ProcessGroups.kill_all) rather than by our own timeout.
    swept = output.returncode is not None and output.returncode < 0 and ctx.deadline.expired
    limit = deadline_words(ctx.options.timeout) if swept else limit
    results, stage = _parse(output.stdout.decode("utf-8", errors="replace"), keys, seconds)
    for key in keys:
        if key.name not in results:
            results[key.name] = _absent(
                stage or script, output.returncode, limit if output.timed_out or swept else None, seconds, output.stderr
            )
    return results


def _parse(text: str, keys: tuple[Key[Any], ...], seconds: float) -> tuple[dict[str, Result], str | None]:
    """The facts the child printed, and the last stage it announced (to say where a crash happened)."""
    wanted = {key.name: key for key in keys}
    results: dict[str, Result] = {}
    stage = None
    for line in text.splitlines():
        if not line.startswith(MARKER):
            continue
        entry = json.loads(line[len(MARKER) :])
        if "stage" in entry:
            stage = str(entry["stage"])
            continue
        key = wanted.get(entry.get("key", ""))
        if key is not None:
            results[key.name] = _entry(key, entry, seconds)
    return results, stage


def _entry(key: Key[Any], entry: dict[str, Any], seconds: float) -> Result:
    took = entry.get("seconds", seconds)
    if "missing" in entry:
        return Missing(str(entry["missing"]), entry.get("status", "missing"), entry.get("detail"), seconds=took)
    try:
        value = codec.decode(KEYS[key.name].type, entry["value"], key.name)
    except codec.DecodeError as exc:
        return Missing(f"unreadable answer from the child process: {exc}", status="error", seconds=took)
    return Fact(value, source=str(entry.get("source", "child process")), seconds=took)


def deadline_words(seconds: float) -> str:
    return f"before the report's {seconds:g} s deadline (--timeout)"


def _absent(stage: str, code: int | None, cut: str | None, seconds: float, err: bytes) -> Missing:
    """`cut`: the limit the child was cut at, in words ("within 15 s"); None where it ended by itself."""
    tail = err.decode("utf-8", errors="replace").strip()[-3000:] or None
    if cut is not None:
        return Missing(f"timed out while {stage}: no answer {cut}", "timeout", tail, seconds)
    return Missing(f"crashed while {stage}: the process exited with {describe_exit(code)}", "error", tail, seconds)
