"""Another copy of a CUDA library shadowing the one the torch wheel ships (LD_LIBRARY_PATH, system cuDNN/NCCL)."""

from __future__ import annotations

import os
from collections.abc import Iterator

from bot.diagnosis.findings import Finding
from bot.diagnosis.rules import finding, rule
from bot.diagnosis.rules.view import View
from collector.report.schema import ENV, LIBRARY_COPIES, TORCH

# The libraries torch's pip wheels bring along, and the word in the name of the nvidia-* distribution that ships
# each (nvidia-cudnn-cu12, nvidia-nccl-cu13, nvidia-cuda-runtime-cu12, nvidia-cublas, ...).
WHEEL_SHIPPED = {
    "libcudnn": "cudnn",
    "libnccl": "nccl",
    "libcublas": "cublas",
    "libcublasLt": "cublas",
    "libcudart": "cuda-runtime",
    "libnvrtc": "nvrtc",
    "libnvJitLink": "nvjitlink",
}


@rule
def library_shadowing(v: View) -> Iterator[Finding]:
    foreign = _foreign_loaded(v)
    cudnn_error = _shadowing_error(v)
    if not foreign and not cudnn_error:
        yield from _risky_ld_path(v)
        return
    directories = sorted({os.path.dirname(lib.path) for lib in foreign})
    evidence = [*(f"{lib.name} loaded from {lib.path}" for lib in foreign), *v.evidence(TORCH), *v.evidence(ENV)]
    yield finding(
        "library_shadowing", "library_shadowing", "error", evidence,
        libraries=foreign, directories=directories, error=cudnn_error,
        ld_path=v.env.get("LD_LIBRARY_PATH"), clean_path=_without(v.env.get("LD_LIBRARY_PATH"), directories),
    )  # fmt: skip


def _shadowing_error(v: View) -> str | None:
    """cuDNN's error, where its own text says a library is the wrong one. A cuDNN probe that failed for another
    reason (no GPU visible, CUDA not initialised) speaks for that reason, not for shadowing (policy rule 5)."""
    error = v.torch.cudnn_error if v.torch else None
    if error and any(s.category == "library_shadowing" for s in v.matrix.errors_in(error)):
        return error
    return None


def _foreign_loaded(v: View) -> list:  # type: ignore[type-arg]
    """Libraries torch loaded from outside any wheel while the environment has a wheel providing them."""
    from_wheels = {lib.name.split("_")[0] for lib in v.libraries if lib.owner}
    return [
        lib
        for lib in v.libraries
        if lib.owner is None and lib.name.split("_")[0] in from_wheels | _provided(v) and lib.name != "libcuda"
    ]


def _provided(v: View) -> set[str]:
    nvidia = [name for name in v.packages if name.startswith("nvidia-")]
    return {library for library, word in WHEEL_SHIPPED.items() if any(word in name for name in nvidia)}


def _risky_ld_path(v: View) -> Iterator[Finding]:
    """No damage seen (yet), but LD_LIBRARY_PATH holds a copy of a library the wheel ships."""
    risky = [c for c in v.library_copies if c.found_via == "LD_LIBRARY_PATH" and c.name in _provided(v)]
    if risky:
        yield finding(
            "library_on_ld_path", "library_shadowing", "warning",
            [*(f"{c.name} {c.version or ''} in {c.path}" for c in risky), *v.evidence(LIBRARY_COPIES)],
            copies=risky, directories=sorted({os.path.dirname(c.path) for c in risky}),
        )  # fmt: skip


def _without(path: str | None, directories: list[str]) -> str | None:
    if not path:
        return None
    kept = [entry for entry in path.split(":") if entry and entry.rstrip("/") not in directories]
    return ":".join(kept)
