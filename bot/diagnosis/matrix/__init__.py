"""The compatibility matrix: strict loading of bot/diagnosis/matrix/data/*.yaml and the questions rules ask of it.

A wheel also carries the YAML merged as JSON (data/compiled.json, written by collector/build_hook.py), read in
well under a millisecond where importing PyYAML and parsing 120 KB of YAML takes 30-45 ms of the collector's run.
The JSON is used only while its key, a hash of the YAML files, matches them; otherwise (a checkout) the YAML is read.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import itertools
import json
import re
import typing
from pathlib import Path
from typing import Any

from bot.diagnosis.matrix.model import (
    CudaFamily,
    Cue,
    DriverBranch,
    ErrorSignature,
    Feature,
    GpuModel,
    Matrix,
    TorchRelease,
    WheelArchs,
    series,
    version_key,
)
from bot.diagnosis.matrix.screen import MIN_WORD, PADDED, Screened, stretched
from collector import zipped
from collector.report import codec

DATA_DIR = Path(__file__).resolve().parent / "data"
COMPILED_NAME = "compiled.json"
MAX_GPU_NAME = 200
GPU_CACHE_SIZE = 4096
MAX_MENTIONS = 64  # of one GPU row in one text
ERROR_WINDOWS = 16  # lines tried per keyword of an error text: a log that repeats one is quoted from its first ones
CUE_WINDOWS = 32  # lines tried per keyword of a cue: prose says it early; a log repeats a word thousands of times
# Error texts are matched as people paste them: editors and chat tools turn quotes into typographic ones, Markdown
# wraps names in backticks, terminals and issue editors break a long line (a newline or tab where the message has a
# space). Each is folded to what the message prints, one character for one, so offsets still point into the text.
FOLDED = (
    ("\u2018", "'"), ("\u2019", "'"), ("\u201a", "'"), ("\u00b4", "'"), ("`", "'"),
    ("\u201c", '"'), ("\u201d", '"'), ("\u201e", '"'), ("\u00a0", " "), ("\t", " "),
)  # fmt: skip


def fold(text: str) -> str:
    """`text` with FOLDED's characters replaced (one str.replace each: a dict-driven translate of 64 KB costs
    1.4 ms, these ten passes a tenth of it)."""
    for old, new in FOLDED:
        if old in text:
            text = text.replace(old, new)
    return text


class MatrixError(ValueError):
    """The matrix data is malformed; the message names the file and the key."""


def load(directory: Path = DATA_DIR) -> Index:
    sources = sorted(directory.glob("*.yaml"))
    merged = compiled(directory, sources)
    return load_merged(merged_yaml(sources) if merged is None else merged, directory)


def load_merged(merged: dict[str, Any], directory: Path) -> Index:
    try:
        return Index(codec.decode_as(Matrix, merged))
    except (codec.DecodeError, PatternError) as exc:
        raise MatrixError(f"matrix data in {directory}: {exc}") from exc


def merged_yaml(sources: list[Path]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for path in sources:
        data = _read(path)
        for key in data:
            if key in merged and key != "reviewed":
                raise MatrixError(f"{path.name}: '{key}' is also defined in another file")
        merged.update(data)
    return merged


def compiled(directory: Path, sources: list[Path]) -> dict[str, Any] | None:
    """The merged matrix from data/compiled.json, or None where that is missing, unreadable or stale."""
    try:
        data = json.loads(zipped.read_bytes(directory / COMPILED_NAME))  # also inside collector/bundle.py's zip
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != sources_key(sources):
        return None
    matrix = data.get("matrix")
    return matrix if isinstance(matrix, dict) else None


def sources_key(sources: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in sources:
        content = path.read_bytes()
        digest.update(f"{path.name}\0{len(content)}\0".encode() + content)
    return digest.hexdigest()[:32]


def _read(path: Path) -> dict[str, Any]:
    import yaml  # only where data/compiled.json is stale: importing PyYAML alone is 10-30 ms

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)  # noqa: S506 - a SafeLoader
    except yaml.YAMLError as exc:
        raise MatrixError(f"{path.name}: not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise MatrixError(f"{path.name}: the top level must be a mapping")
    return data


class Index:
    """Matrix plus lookups; patterns are compiled once."""

    def __init__(self, matrix: Matrix) -> None:
        self.matrix = matrix
        self._gpu_patterns = [(_screened(gpu.match, f"gpus[{gpu.match!r}]", 2), gpu) for gpu in matrix.gpus]
        self._gpu_cache: dict[str, GpuModel | None] = {}
        self._error_patterns = [(_screened(err.pattern, f"errors[{err.id}].pattern"), err) for err in matrix.errors]
        self._cue_patterns = [
            (_screened(cue.pattern, f"cues[{cue.id}].pattern"), _screened(cue.also, f"cues[{cue.id}].also"), cue)
            for cue in matrix.cues
        ]
        self._releases = {release.series: release for release in matrix.releases}

    # --- torch releases --------------------------------------------------------------------------------

    def release(self, torch_version: str) -> TorchRelease | None:
        return self._releases.get(series(torch_version))

    def newest_release(self) -> TorchRelease:
        return max(self.matrix.releases, key=lambda release: version_key(release.series))

    def is_newer_than_known(self, torch_version: str) -> bool:
        return version_key(series(torch_version)) > version_key(self.newest_release().series)

    def wheel(self, torch_version: str, variant: str, platform: str = "linux-x86_64") -> WheelArchs | None:
        wanted = version_key(series(torch_version))
        for wheel in self.matrix.wheels:
            if (
                wheel.variant == variant
                and wheel.platform == platform
                and version_key(wheel.torch_min) <= wanted <= version_key(wheel.torch_max)
            ):
                return wheel
        return None

    @functools.cached_property
    def newest_release_wheels(self) -> list[WheelArchs]:
        """The arch lists of the newest release's wheels (Linux x86-64, one per variant the matrix knows)."""
        release = self.newest_release()
        return [w for w in (self.wheel(release.series, variant) for variant in release.variants) if w is not None]

    @functools.cached_property
    def oldest_wheel_arch(self) -> tuple[int, ...] | None:
        """The oldest compute capability any wheel the matrix knows was built for: a GPU below it no wheel runs on."""
        return min((version_key(arch) for wheel in self.matrix.wheels for arch in wheel.archs), default=None)

    # --- CUDA and drivers ------------------------------------------------------------------------------

    def family(self, cuda_version: str) -> CudaFamily | None:
        """The driver floor and CC range for a build with this CUDA: its release's own row (before CUDA 11), else
        its major's."""
        key = version_key(cuda_version)
        major, minor = key[0], key[1] if len(key) > 1 else None
        rows = [family for family in self.matrix.families if family.major == major]
        return next((f for f in rows if f.minor is not None and f.minor == minor), None) or next(
            (f for f in rows if f.minor is None), None
        )

    def last_branch_for(self, cc: str) -> DriverBranch | None:
        """For old GPUs: the last driver branch that supports their architecture."""
        fitting = [b for b in self.matrix.driver_branches if version_key(cc) <= version_key(b.max_cc)]
        return min(fitting, key=lambda branch: version_key(branch.max_cc), default=None)

    # --- GPUs, features, error texts --------------------------------------------------------------------

    def gpu(self, name: str) -> GpuModel | None:
        """The model `name` is; asked once per GPU by the readers, the rules and the comment, so remembered.
        Only the name's first 200 characters are read: real names are under 64, a hostile paste's are not."""
        name, cache = name[:MAX_GPU_NAME], self._gpu_cache
        if name in cache:
            return cache[name]
        lowered = name.lower()
        found = next((gpu for p, gpu in self._gpu_patterns if p.possible(lowered) and p.regex.search(name)), None)
        if len(self._gpu_cache) >= GPU_CACHE_SIZE:  # shared by the worker's threads: bounded, never read twice
            self._gpu_cache = {}
        self._gpu_cache[name] = found
        return found

    def feature(self, feature_id: str) -> Feature:
        for feature in self.matrix.features:
            if feature.id == feature_id:
                return feature
        raise KeyError(feature_id)

    @functools.cached_property
    def _padded_error_patterns(self) -> list[tuple[Screened, ErrorSignature]]:
        """The error patterns for a text whose lines are padded (stretched()): each space takes a run of them, and
        a window starts a line before its keyword's. Their keywords are single words, so they are slower: only a
        text with padded lines (PADDED) gets them."""
        return [
            (_screened(stretched(err.pattern), f"errors[{err.id}].pattern", lines_before=1), err)
            for err in self.matrix.errors
        ]

    def _errors_for(self, text: str) -> list[tuple[Screened, ErrorSignature]]:
        return self._padded_error_patterns if PADDED in text else self._error_patterns

    def errors_in(self, line: str) -> list[ErrorSignature]:
        """The known error texts in one quoted line (a line of a wrapped message may have been joined with its
        padding: the padded patterns take that, and one line costs them little)."""
        patterns = self._padded_error_patterns
        line = fold(line).replace("\n", " ")
        lowered = line.lower()
        return [sig for p, sig in patterns if p.possible(lowered) and p.regex.search(line)]

    def errors_span(self, text: str) -> list[tuple[int, int, ErrorSignature]]:
        """Every known error text in `text`, one scan per signature that could match at all.

        A line break counts as a space, so a message wrapped onto the next line is still found (each pattern is
        only tried on a keyword's line and the one after it).
        """
        folded = fold(text)
        joined, lowered = folded.replace("\n", " "), folded.lower()
        unwrapped = lowered.replace("\n", " ")
        return [
            (m.start(), m.end(), sig)
            for p, sig in self._errors_for(folded)
            for m in p.finditer(joined, lowered, unwrapped, ERROR_WINDOWS)
        ]

    def cues_span(self, text: str, context_only: bool | None = None) -> list[tuple[int, int, Cue]]:
        """Where the prose in `text` first says something that points to a cause (matrix data/cues.yaml); only the
        cues whose `context_only` is the one given, where given."""
        folded = fold(text)
        joined, lowered = folded.replace("\n", " "), folded.lower()
        unwrapped = lowered.replace("\n", " ")
        found = []
        for pattern, also, cue in self._cue_patterns:
            if context_only is not None and cue.context_only != context_only:
                continue
            match = next(pattern.finditer(joined, lowered, unwrapped, CUE_WINDOWS), None)
            if match and (also is None or next(also.finditer(joined, lowered, unwrapped, CUE_WINDOWS), None)):
                found.append((match.start(), match.end(), cue))
        return found

    def gpus_in(self, text: str) -> list[tuple[int, str]]:
        """GPU names mentioned in `text`, in order; where mentions overlap, the row listed first wins. Each row's
        first MAX_MENTIONS mentions are read: a 64 KB body can name a GPU ten thousand times."""
        lowered = text.lower()
        accepted: list[tuple[int, int]] = []  # sorted, none overlapping: a new span is checked against its neighbours
        for pattern, _ in self._gpu_patterns:
            for match in itertools.islice(pattern.finditer(text, lowered), MAX_MENTIONS):
                start, end = match.start(), match.end()
                at = bisect.bisect_left(accepted, (start, end))
                before = accepted[at - 1] if at else None
                after = accepted[at] if at < len(accepted) else None
                if not (before and before[1] > start) and not (after and after[0] < end):
                    accepted.insert(at, (start, end))
        return [(start, text[start:end].strip()) for start, end in accepted]


class PatternError(ValueError):
    """A matrix row's regular expression does not compile."""


@typing.overload
def _screened(pattern: str, where: str, shortest: int = MIN_WORD, lines_before: int = 0) -> Screened: ...
@typing.overload
def _screened(pattern: None, where: str, shortest: int = MIN_WORD, lines_before: int = 0) -> None: ...
def _screened(pattern: str | None, where: str, shortest: int = MIN_WORD, lines_before: int = 0) -> Screened | None:
    if pattern is None:
        return None
    try:
        return Screened(pattern, shortest=shortest, lines_before=lines_before)
    except re.error as exc:
        raise PatternError(f"{where}: not a valid regular expression: {exc}") from exc


@functools.lru_cache(maxsize=None)  # functools.cache is 3.9+; collector/bundle.py runs on 3.8
def default() -> Index:
    """The packaged matrix, loaded once per process (call it from an entry point, not at import)."""
    return load()
