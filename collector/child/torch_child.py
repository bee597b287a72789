"""Run by the *target* interpreter: import torch once and report what it was built with and actually loaded.

Stdlib only and Python >= 3.8. One JSON line per fact on stdout (marker-prefixed), emitted as soon as it is
known, so a crash or hang later still leaves the earlier facts. The smoke tests are forked off right after
`import torch` and before anything touches CUDA (a process that has called cuInit cannot fork a working CUDA
child), so they share the import instead of paying for it again.
"""

from __future__ import annotations

import faulthandler
import json
import os
import re
import sys
import time
import traceback
import warnings
from typing import Any

MARKER = "@@envtriage "
STARTED = time.monotonic()
DIST_INFO = re.compile(r"^((?:nvidia|cuda)[A-Za-z0-9_.]*?)-([^-]+)\.dist-info$", re.I)
LIBRARY = re.compile(
    r"/(libcuda|libcudart|libcublas|libcublasLt|libcudnn(?:_\w+)?|libnccl|libnvrtc|libnvJitLink|libcusparseLt)"
    r"\.so(?:\.[\d.]+)?$"
)


def emit(key: str, **entry: object) -> None:
    sys.stdout.write(MARKER + json.dumps({"key": key, **entry}) + "\n")
    sys.stdout.flush()


def stage(text: str) -> None:
    """Announce what comes next, so the parent can say where a crash or hang happened."""
    sys.stdout.write(MARKER + json.dumps({"stage": text, "t": round(time.monotonic() - STARTED, 3)}) + "\n")
    sys.stdout.flush()


def import_torch() -> tuple[Any, float]:
    stage("importing torch")
    start = time.monotonic()
    try:
        import torch
    except ModuleNotFoundError as exc:
        if exc.name == "torch":
            emit("torch", missing="torch is not installed for " + sys.executable, status="missing")
            emit("libraries", missing="torch is not installed", status="skipped")
            return None, 0.0
        _import_failed(exc)
        return None, 0.0
    except BaseException as exc:  # the error text is the diagnosis
        _import_failed(exc)
        return None, 0.0
    return torch, round(time.monotonic() - start, 3)


def _import_failed(exc: BaseException) -> None:
    detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)[-12:])
    emit("torch", missing=f"import torch failed: {type(exc).__name__}: {exc}", status="error", detail=detail)
    emit_libraries("after the failed import")
    return None


def cudnn_version(number: int | None) -> str | None:
    if not number:
        return None
    # cuDNN 9 encodes 9.19.0 as 91900; cuDNN 8 encoded 8.9.2 as 8902.
    major, rest = (number // 10000, number % 10000) if number >= 90000 else (number // 1000, number % 1000)
    return "%d.%d.%d" % (major, rest // 100, rest % 100)


def build_facts(torch: Any) -> dict[str, object]:
    t = torch
    version = str(t.__version__)
    arch_flags = getattr(t._C, "_cuda_getArchFlags", lambda: None)()
    facts: dict[str, object] = {
        "version": version,
        "tag": version.split("+", 1)[1] if "+" in version else None,
        "cuda": t.version.cuda,
        "hip": getattr(t.version, "hip", None),
        "build": "cuda" if t.version.cuda else "rocm" if getattr(t.version, "hip", None) else "cpu",
        "debug": bool(getattr(t.version, "debug", False)),
        "cxx11_abi": getattr(t._C, "_GLIBCXX_USE_CXX11_ABI", None),
        "location": os.path.dirname(t.__file__),
        "arch_list": arch_flags.split() if arch_flags else [],
    }
    facts.update(_library_versions(t))
    return {key: value for key, value in facts.items() if value is not None}


def _library_versions(t: Any) -> dict[str, object]:
    out: dict[str, object] = {}
    try:
        compiled = t._C._cudnn.getCompileVersion()
        out["cudnn_built"] = "%d.%d.%d" % tuple(compiled)
    except Exception:  # CPU builds have no cuDNN
        pass
    try:
        out["cudnn"] = cudnn_version(t.backends.cudnn.version())
    except Exception as exc:  # "cuDNN version incompatibility: ... compiled against (9, 19, 0) but found ..."
        out["cudnn_error"] = "%s: %s" % (type(exc).__name__, exc)
    try:
        out["nccl"] = ".".join(str(part) for part in t.cuda.nccl.version())
    except Exception:
        pass
    return out


def runtime_facts(torch: Any) -> dict[str, object]:
    """Everything that needs the CUDA driver: availability, the init error verbatim, the devices."""
    t = torch
    facts: dict[str, object] = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        available = bool(t.cuda.is_available())
        error = None
        if not available and (t.version.cuda or getattr(t.version, "hip", None)):
            try:
                t.cuda.init()
            except Exception as exc:
                error = f"{type(exc).__name__}: {exc}"
    messages = [str(w.message) for w in caught if "cuda" in str(w.message).lower()]
    facts["available"] = available
    if error or messages:
        facts["init_error"] = "\n".join(([error] if error else []) + messages)
    count = int(t.cuda.device_count()) if available else 0
    facts["device_count"] = count
    facts["devices"] = [_device(t, index) for index in range(count)]
    if available:
        facts["bf16_supported"] = bool(t.cuda.is_bf16_supported())
    mps = getattr(getattr(t.backends, "mps", None), "is_available", None)
    if sys.platform == "darwin" and mps is not None:  # Apple's GPU: what a Mac user has instead of CUDA
        facts["mps_available"] = bool(mps())
    return facts


def _device(t: Any, index: int) -> dict[str, object]:
    props = t.cuda.get_device_properties(index)
    device: dict[str, object] = {
        "index": index,
        "name": props.name,
        "cc": "%d.%d" % (props.major, props.minor),
        "memory_mib": int(props.total_memory) // (1024 * 1024),
        "multiprocessors": int(props.multi_processor_count),
    }
    uuid = getattr(props, "uuid", None)
    if uuid is not None:
        device["uuid"] = str(uuid)
    return device


def emit_libraries(when: str) -> None:
    if sys.platform == "win32":
        import envtriage_windows

        modules = envtriage_windows.loaded_modules()
        if modules is None:
            emit("libraries", missing="the process's DLLs could not be listed (K32EnumProcessModules)", status="error")
        else:
            found = [(f[0], path, f[1]) for path in modules for f in [envtriage_windows.dll_family(path)] if f]
            found.sort(key=lambda entry: entry[:2])
            emit("libraries", value=describe_libraries(found), source="EnumProcessModules " + when)
        return
    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split(None, 5)[-1].strip() for line in maps if "/lib" in line and ".so" in line}
    except OSError:  # macOS: no /proc, and no CUDA library for torch to load
        emit("libraries", missing="no /proc/self/maps on " + sys.platform, status="skipped")
        return
    found: list[tuple[str, str, str | None]] = [
        (match.group(1), path, None) for path in paths for match in [LIBRARY.search(path)] if match
    ]
    found.sort()
    emit("libraries", value=describe_libraries(found), source="/proc/self/maps " + when)


def describe_libraries(found: list[tuple[str, str, str | None]]) -> list[dict[str, object]]:
    """[(family, path, version where the name alone says it)] with versions and owning wheels filled in."""
    owners = _owners({site for _, path, _ in found for site in [_site_of(path)] if site})
    entries = []
    for name, path, known in found:
        real = os.path.realpath(path)
        version = re.search(r"\.so\.([\d.]+)$", os.path.basename(real))
        entry: dict[str, object] = {"name": name, "path": path}
        if version or known:
            entry["version"] = version.group(1) if version else known
        if real in owners:
            entry["owner"] = owners[real]
        entries.append(entry)
    return entries


def _owners(library_dirs: set[str]) -> dict[str, str]:
    """{real path of a shared library: "distribution version"} for the wheels that ship CUDA libraries.

    Only the RECORD files of nvidia-*/cuda-* distributions in the site directories the loaded libraries came from
    are read; scanning every distribution costs more than the rest of this probe together.
    """
    owners: dict[str, str] = {}
    for site in library_dirs:
        try:
            names = [name for name in os.listdir(site) if DIST_INFO.match(name)]
        except OSError:
            continue
        for name in names:
            try:
                with open(os.path.join(site, name, "RECORD")) as record:
                    files = [line.split(",", 1)[0] for line in record if ".so" in line or ".dll" in line]
            except OSError:
                continue
            dist, version = DIST_INFO.match(name).groups()  # type: ignore[union-attr]
            for file in files:
                owners[os.path.realpath(os.path.join(site, file))] = "%s %s" % (dist.replace("_", "-"), version)
    return owners


def _site_of(path: str) -> str | None:
    normal = path.replace("\\", "/")  # Windows paths: the same length, so its indexes hold for `path`
    for marker in ("/site-packages/", "/dist-packages/"):
        if marker in normal:
            return path[: normal.index(marker) + len(marker) - 1]
    return None


def pre_initialise_cuda() -> None:
    """Overlap the driver's own start-up (cuInit) with `import torch`; torch's later cuInit is then a no-op.

    Only without smoke tests: a process that called cuInit cannot fork children that use CUDA.
    """
    import ctypes
    import threading

    def init() -> None:
        try:
            ctypes.CDLL("libcuda.so.1").cuInit(0)
        except OSError:
            pass  # no driver: torch will say so in its own words

    threading.Thread(target=init, daemon=True).start()


def main() -> None:
    faulthandler.enable()  # a segfault in a CUDA library prints the Python stack to stderr for the parent
    options = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    if options.get("smoke", "none") == "none" and sys.platform.startswith("linux"):
        pre_initialise_cuda()
    torch, import_seconds = import_torch()
    if torch is None:
        return
    smoke = None
    if options.get("smoke", "none") != "none":
        import envtriage_smoke

        if not hasattr(os, "fork"):
            for key in envtriage_smoke.tests_for(options):
                emit(key, missing="each smoke test runs in a forked process; Windows has no fork()", status="skipped")
        elif torch.version.cuda or getattr(torch.version, "hip", None):
            smoke = envtriage_smoke.start(torch, options)
        else:
            for key in envtriage_smoke.tests_for(options):
                emit(key, missing="this torch is a CPU-only build", status="skipped")
    stage("reading torch's build information")
    facts = build_facts(torch)
    facts["import_seconds"] = import_seconds
    stage("initialising CUDA")
    try:
        facts.update(runtime_facts(torch))
    except Exception as exc:
        facts["init_error"] = f"{type(exc).__name__}: {exc}"
    emit("torch", value=facts, source="torch (in " + sys.executable + ")")
    stage("listing the loaded libraries")
    emit_libraries("of the torch process")
    if smoke is not None:
        stage("running the smoke tests")
        smoke.finish(emit)


def leave() -> None:
    """Say that nothing more will come, and exit without Python's shutdown.

    With torch imported, the interpreter's teardown (thousands of modules, torch's exit hooks, the CUDA driver's
    cleanup) takes 0.5 s on an H200 and reports nothing; the parent stops reading at this line anyway.
    """
    sys.stdout.write(MARKER + json.dumps({"done": True}) + "\n")
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
    leave()
