"""What every probe receives: injected runners, the host's files, the environment, options, shared sessions."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from collector.run import CommandResult, Deadline, ProcessGroups, Runner

if TYPE_CHECKING:  # the collector forks its probe process right after this module: no pathlib before that
    from collector.host import Host

SmokeLevel = Literal["none", "quick", "deep"]


@dataclass(frozen=True)
class Options:
    python: str
    smoke: SmokeLevel = "quick"
    timeout: float = 30.0
    redact: bool = True


class NvmlUnavailable(Exception):
    """NVML could not be initialised; the message is NVML's own reason."""


class NvmlSession:
    """NVML initialised once for all probes (NVML is thread-safe); the error, if any, is remembered."""

    def __init__(self, loader: Callable[[], Any]) -> None:
        self._loader = loader
        self._lock = threading.Lock()
        self._module: Any = None
        self._error: str | None = None

    def get(self) -> Any:
        with self._lock:
            if self._module is None and self._error is None:
                try:
                    self._module = self._loader()
                except NvmlUnavailable as exc:
                    self._error = str(exc)
            if self._error is not None:
                raise NvmlUnavailable(self._error)
            return self._module


def load_pynvml() -> Any:
    """Import and initialise nvidia-ml-py; every failure becomes NvmlUnavailable with NVML's reason."""
    try:
        import pynvml
    except ImportError as exc:
        raise NvmlUnavailable(f"nvidia-ml-py is not installed ({exc})") from exc
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError as exc:
        raise NvmlUnavailable(f"nvmlInit failed: {exc}{_where_nvml_was_looked_for(exc, pynvml)}") from exc
    except OSError as exc:
        raise NvmlUnavailable(f"nvmlInit failed: {exc}") from exc
    return pynvml


def _where_nvml_was_looked_for(exc: Exception, pynvml: Any) -> str:
    # pynvml loads nvml.dll from two fixed places on Windows (it comes with the driver, not with CUDA or torch).
    platform = sys.platform  # a value, not mypy's platform check: the tests run this as Windows on Linux
    if platform != "win32" or getattr(exc, "value", None) != getattr(pynvml, "NVML_ERROR_LIBRARY_NOT_FOUND", 0):
        return ""
    return " (nvml.dll, part of the NVIDIA driver, is in neither %WINDIR%\\System32 nor NVIDIA Corporation\\NVSMI)"


class Cached:
    """A command run at most once, however many probes ask for its output (e.g. `nvidia-smi -q -x`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._results: dict[tuple[str, ...], CommandResult] = {}

    def run(self, runner: Runner, argv: tuple[str, ...], timeout: float) -> CommandResult:
        with self._lock:
            if argv not in self._results:
                self._results[argv] = runner(argv, timeout)
            return self._results[argv]


@dataclass
class Context:
    run: Runner
    host: Host
    env: Mapping[str, str]
    options: Options
    deadline: Deadline
    nvml: NvmlSession
    groups: ProcessGroups = field(default_factory=ProcessGroups)
    commands: Cached = field(default_factory=Cached)
    # Children started before the probes were even imported (import torch is the floor; it goes first).
    started: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    # sys.platform of the machine probed ("linux", "win32", "darwin"); tests set it to probe another OS's paths.
    platform: str = field(default_factory=lambda: sys.platform)

    def run_once(self, argv: tuple[str, ...], timeout: float) -> CommandResult:
        return self.commands.run(self.run, argv, timeout)
