"""Run every probe at once under the global deadline and gather a Report, whatever happens to each probe."""

from __future__ import annotations

import dataclasses
import threading
import time
import traceback
from typing import Callable, Dict  # subscripted at import, also on 3.8 (collector/bundle.py)

from collector.context import Context
from collector.probes import Probe, results_of
from collector.report.model import Meta, Missing, Report, Result, in_schema_order

# Probes stuck in uninterruptible calls (a wedged NVML) are abandoned; daemon threads do not hold up exit.
GRACE_SECONDS = 0.5
# Told each probe's facts as soon as the probe returns (from the probe's thread).
OnResult = Callable[[Dict[str, Result]], None]


def collect(ctx: Context, probes: list[Probe], meta: Meta, on_result: OnResult | None = None) -> Report:
    start = time.monotonic()
    results: dict[str, Result] = {}
    lock = threading.Lock()
    threads = [
        threading.Thread(target=_run, args=(ctx, probe, results, lock, on_result), name=probe.name, daemon=True)
        for probe in probes
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=ctx.deadline.remaining())
    if any(thread.is_alive() for thread in threads):
        ctx.groups.kill_all()  # children of late probes die now; their threads then return quickly
        for thread in threads:
            thread.join(timeout=GRACE_SECONDS)
    with lock:
        facts = dict(results)
    for probe in probes:
        for key in probe.keys:
            if key.name not in facts:
                reason = f"{probe.name} did not finish within the {ctx.deadline.seconds:g} s deadline (--timeout)"
                facts[key.name] = Missing(reason, status="timeout", seconds=round(time.monotonic() - start, 3))
    meta = dataclasses.replace(meta, duration_seconds=round(time.monotonic() - start, 3))
    return Report(meta=meta, facts=in_schema_order(facts))


def _run(
    ctx: Context, probe: Probe, results: dict[str, Result], lock: threading.Lock, on_result: OnResult | None
) -> None:
    start = time.monotonic()
    try:
        produced = results_of(probe, probe.func(ctx))
    except Exception as exc:  # a probe's bug must cost one fact, never the report
        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)[-6:])
        produced = {key.name: Missing(f"{type(exc).__name__}: {exc}", "error", text) for key in probe.keys}
    took = round(time.monotonic() - start, 3)
    timed = {
        name: result if result.seconds is not None else dataclasses.replace(result, seconds=took)
        for name, result in produced.items()
    }
    with lock:
        results.update(timed)
    if on_result is not None:
        on_result(timed)
