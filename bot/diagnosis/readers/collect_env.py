"""`python -m torch.utils.collect_env` output of any torch version, and vLLM's fork of it.

Handles "Could not collect", True/False and Yes/No, ROCm and Windows reports, vLLM's aligned labels and its
environment-variable section, with or without code fences and CRLF line ends.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.diagnosis.matrix import Index
from bot.diagnosis.readers.base import Partial, Section, labelled, unknown
from bot.diagnosis.readers.packages import duplicates
from bot.diagnosis.readers.versions import build_of, clean, tag_of
from collector.child.packages_child import normalise
from collector.report.schema import (
    DRIVER,
    ENV,
    GPUS,
    LIBRARY_COPIES,
    OS,
    PACKAGES,
    PYTHON,
    RUNTIME,
    TOOLKIT,
    TORCH,
    DriverInfo,
    Gpu,
    LibraryCopy,
    Nvcc,
    OsInfo,
    Package,
    Packages,
    PythonInfo,
    Runtime,
    TorchInfo,
)

NAME = "collect_env"
# The name's tail (blanks, "(UUID: ...)") is cut in code: `(.+?)\s*(?:\(UUID: [^)]*\))?\s*$` is cubic in a run of
# blanks (half a minute for a 64 KB paste).
GPU_LINE = re.compile(r"^\s*GPU\s*(\d+)\s*:\s*(.+)$")
UUID_TAIL = re.compile(r"\(UUID: [^)]*\)$")
LIBRARY_LINE = re.compile(r"^\s*\[(pip3?|conda)\]\s+(\S+)(?:==|\s+)(\S+)(?:\s+(\S+))?(?:\s+(\S+))?")
# Found by name, the path being the rest of its word: `/\S*libcudnn` retries from every "/" of a long word.
CUDNN_FILE = re.compile(r"libcudnn\w{0,40}\.so\.([\d.]+)")
ENV_LINE = re.compile(r"^\s*((?:CUDA|NCCL|NVIDIA|TORCH|PYTORCH|VLLM|LD_LIBRARY)[A-Z0-9_]*)=(.*)$")
MACHINE = re.compile(r"\((x86_64|aarch64|arm64|AMD64|64-bit)\)")
SIGNATURE = re.compile(r"^\s*(pytorch version|is cuda available|cuda used to build pytorch)\s*:", re.I)
VERSION_START = re.compile(r"^\d+\.\d+")  # "12.1", "535.104.05 (Ubuntu)": matched at the value's start
PYTHON_VERSION = re.compile(r"^(\d+\.\d+(?:\.\d+)?)")
ANYTHING = re.compile("")


class State:
    """The values read so far; collect_env spreads one fact (the GPU list) over several lines."""

    def __init__(self) -> None:
        self.torch: dict[str, object] = {}
        self.torch_line = -1
        self.gpus: list[Gpu] = []
        self.gpu_line = -1
        self.cudnn: list[LibraryCopy] = []
        self.cudnn_line = -1
        self.packages: list[Package] = []
        self.packages_line = -1
        self.env: dict[str, str] = {}
        self.env_line = -1
        self.in_gpu_list = False
        self.cuda_none = False  # "CUDA used to build PyTorch: None": torch imported and has no CUDA
        # "CUDA used to build PyTorch: Could not collect": torch.version.cuda was None too, where the host has some
        # CUDA (a driver, a GPU, nvcc) - collect_env writes "None" only where it found no CUDA at all, and "N/A"
        # for a ROCm build or a torch that did not import. So it says "no CUDA" only beside a torch version.
        self.cuda_uncollected = False


def read(section: Section, matrix: Index) -> Partial:
    partial = Partial(NAME)
    if not any(SIGNATURE.match(line) for line in section.lines):
        return partial
    state = State()
    for index, line in enumerate(section.lines):
        _line(state, partial, section, index, line)
    _finish(state, partial, section)
    return partial


def _line(state: State, partial: Partial, section: Section, index: int, line: str) -> None:
    if line.startswith("Collecting environment information..."):
        line = line[len("Collecting environment information...") :].strip()  # some pastes lose the newline
    if state.in_gpu_list and (match := GPU_LINE.match(line)):
        state.gpus.append(_gpu(match))
        return
    state.in_gpu_list = False
    # Cheap tests first: this runs for every line of a paste.
    if line.startswith("[") and (match := LIBRARY_LINE.match(line)):
        _library(state, index, match)
    elif "=" in line and (match := ENV_LINE.match(line)):
        state.env[match.group(1)] = match.group(2)
        state.env_line = index if state.env_line < 0 else state.env_line
    elif "libcudnn" in line and (found := _cudnn_file(line)):
        state.cudnn.append(LibraryCopy(name="libcudnn", path=found[0], version=found[1]))
        state.cudnn_line = index if state.cudnn_line < 0 else state.cudnn_line
    elif ":" in line and (found := labelled(line)):
        handler = HANDLERS.get(found[0])
        if handler:
            handler(state, partial, section, index, found[1])


def _cudnn_file(line: str) -> tuple[str, str] | None:
    """ "... /usr/lib/x86_64-linux-gnu/libcudnn.so.8.9.2 ..." -> (the path, "8.9.2")."""
    for word in line.split():
        slash = word.find("/")
        if slash >= 0 and (found := list(CUDNN_FILE.finditer(word, slash + 1))):
            return word[slash : found[-1].end()], found[-1].group(1)
    return None


def _library(state: State, index: int, match: re.Match[str]) -> None:
    kind, name, version, _build, channel = match.groups()
    if kind == "conda" and name.lower() == "pytorch":
        name = "torch"  # the same distribution under conda's name
    installer = "conda" if kind == "conda" else "pip"
    if kind == "conda" and channel == "pypi":
        installer = "pip"  # a pip install inside a conda environment, as `conda list` shows it
    location = f"conda channel {channel}" if kind == "conda" and channel else None
    state.packages.append(Package(name=name, version=version, installer=installer, location=location))
    state.packages_line = index if state.packages_line < 0 else state.packages_line


def _torch_version(state: State, partial: Partial, section: Section, index: int, value: str) -> None:
    if not unknown(value) and VERSION_START.match(value):
        state.torch["version"] = clean(value.split()[0])  # "2.5.1+cu124," as prose quotes it
        state.torch_line = index


def _cuda_built(state: State, partial: Partial, section: Section, index: int, value: str) -> None:
    if VERSION_START.match(value):  # the rules compare it as a version
        state.torch["cuda"] = clean(value.split()[0])
    state.cuda_none = value.strip().lower() == "none"
    state.cuda_uncollected = value.strip().lower() == "could not collect"


def _setter(
    field: str, convert: Callable[[str], object] = str, pattern: re.Pattern[str] = ANYTHING
) -> Callable[[State, Partial, Section, int, str], None]:
    def handle(state: State, partial: Partial, section: Section, index: int, value: str) -> None:
        if not unknown(value) and pattern.match(value):
            state.torch[field] = convert(value)

    return handle


def _boolean(value: str) -> bool:
    return value.strip().lower() in {"true", "yes"}


def _driver(state: State, partial: Partial, section: Section, index: int, value: str) -> None:
    if not unknown(value) and VERSION_START.match(value):
        partial.add(DRIVER, DriverInfo(version=value.split()[0]), section, index)


def _gpus(state: State, partial: Partial, section: Section, index: int, value: str) -> None:
    state.gpu_line = index
    state.in_gpu_list = True
    if match := GPU_LINE.match(value):  # "GPU models and configuration: GPU 0: NVIDIA ..."
        state.gpus.append(_gpu(match))
    elif not unknown(value) and value.strip():  # one GPU: the name alone; ROCm: "AMD Instinct MI300X (gfx942...)"
        state.gpus.append(Gpu(index=0, name=value.strip()))


def _gpu(match: re.Match[str]) -> Gpu:
    name = match.group(2).rstrip()
    return Gpu(index=int(match.group(1)), name=UUID_TAIL.sub("", name).rstrip() or name)


def _os(state: State, partial: Partial, section: Section, index: int, value: str) -> None:
    if unknown(value):
        return
    machine = MACHINE.search(value)
    system = "Windows" if "windows" in value.lower() else "Darwin" if "macos" in value.lower() else "Linux"
    distro = value.rstrip()  # the machine at the end goes; not by a regex from `\s*`, quadratic in a run of blanks
    if tail := [m for m in MACHINE.finditer(distro) if m.end() == len(distro)]:
        distro = distro[: tail[0].start()].rstrip()
    partial.add(
        OS, OsInfo(system=system, machine=machine.group(1) if machine else "unknown", distro=distro), section, index
    )


def _python(state: State, partial: Partial, section: Section, index: int, value: str) -> None:
    if match := PYTHON_VERSION.match(value):
        partial.add(PYTHON, PythonInfo(version=match.group(1)), section, index)


def _platform(state: State, partial: Partial, section: Section, index: int, value: str) -> None:
    # "Linux-5.15.153.1-microsoft-standard-WSL2-x86_64-with-glibc2.35": WSL told by the kernel, not the host.
    if "microsoft" in value.lower():
        wsl = 2 if ("WSL2" in value or "microsoft-standard" in value) else 1
        partial.add(RUNTIME, Runtime(wsl=wsl, evidence=[f"Python platform {value}"]), section, index)  # type: ignore[arg-type]


def _nvcc(state: State, partial: Partial, section: Section, index: int, value: str) -> None:
    # collect_env calls `nvcc --version` "CUDA runtime version": it is the toolkit on PATH, not what torch runs.
    if not unknown(value) and VERSION_START.match(value):
        partial.add(TOOLKIT, [Nvcc(path="nvcc on PATH", version=value.split()[0])], section, index)


HANDLERS: dict[str, Callable[[State, Partial, Section, int, str], None]] = {
    "pytorch version": _torch_version,
    "is debug build": _setter("debug", _boolean),
    "cuda used to build pytorch": _cuda_built,
    "rocm used to build pytorch": _setter("hip"),
    "is cuda available": _setter("available", _boolean),
    "nvidia driver version": _driver,
    "gpu models and configuration": _gpus,
    "os": _os,
    "python version": _python,
    "python platform": _platform,
    "cuda runtime version": _nvcc,
}


def _finish(state: State, partial: Partial, section: Section) -> None:
    version = state.torch.pop("version", None)
    if isinstance(version, str):
        tag = tag_of(version)
        state.torch["build"] = _build(state, tag)
        info = TorchInfo(version=version, tag=tag, **state.torch)  # type: ignore[arg-type]
        partial.add(TORCH, info, section, state.torch_line)
    if state.gpus:
        partial.add(GPUS, state.gpus, section, state.gpu_line)
    if state.cudnn:
        partial.add(LIBRARY_COPIES, state.cudnn, section, state.cudnn_line, source=f"{NAME} cuDNN files")
    if state.packages:
        selected = list({normalise(p.name): p for p in reversed(state.packages)}.values())[::-1]
        packages = Packages(selected=selected, duplicates=duplicates(state.packages))
        partial.add(PACKAGES, packages, section, state.packages_line)
    if state.env:
        partial.add(ENV, state.env, section, state.env_line)


def _build(state: State, tag: str | None) -> str | None:
    """CUDA or ROCm where collect_env names their version, else what the tag says ("+cu124" is a CUDA build even in
    a paste cut before the "CUDA used to build" line); CPU only where torch said it has no CUDA ("None", or "Could
    not collect" beside the version of a torch that imported; State) and no tag says otherwise (an XPU build has no
    CUDA either)."""
    if state.torch.get("cuda"):
        return "cuda"
    if state.torch.get("hip"):
        return "rocm"
    if by_tag := build_of(tag):
        return by_tag
    no_cuda = state.cuda_none or state.cuda_uncollected  # _finish builds only beside a torch version
    return "cpu" if no_cuda and tag != "xpu" else None
