"""Run by the *target* interpreter: its Python and the distributions it would import, without importing them.

Stdlib only and Python >= 3.8, because it runs inside whatever environment the user points us at. It prints one
JSON line per fact, prefixed with a marker so stray output from site hooks cannot be mistaken for a fact.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from typing import Any

MARKER = "@@envtriage "

# Distributions that decide whether GPU code runs; nvidia-*, cupy*, torch* and triton* are matched by prefix.
WATCHED = {
    "torch",
    "torchvision",
    "torchaudio",
    "triton",
    "pytorch-triton",
    "pytorch-triton-rocm",
    "xformers",
    "flash-attn",
    "flash-attn-3",
    "flash-attn-4",
    "transformers",
    "accelerate",
    "vllm",
    "sglang",
    "deepspeed",
    "bitsandbytes",
    "transformer-engine",
    "transformer-engine-cu12",
    "transformer-engine-torch",
    "apex",
    "numpy",
    "jax",
    "jaxlib",
    "tensorflow",
    "tensorflow-cpu",
    "tensorflow-gpu",
    "onnxruntime-gpu",
    "onnxruntime",
    "paddlepaddle",
    "paddlepaddle-gpu",
    "faiss-cpu",
    "faiss-gpu",
    "tensorrt",
    "mamba-ssm",
    "causal-conv1d",
    "liger-kernel",
    "peft",
    "diffusers",
    "timm",
    "lightning",
    "pytorch-lightning",
    "cuda-toolkit",
    "cuda-python",
    "cuda-bindings",
    "nvidia-ml-py",
    "pynvml",
    "flashinfer-python",
    "unsloth",
    "auto-gptq",
    "autoawq",
    "llama-cpp-python",
    "xgboost",
}
PREFIXES = ("nvidia-", "cupy", "torch", "triton", "jax-cuda")
DIST_DIR = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._]*?)-([^-]+?)\.(?:dist-info|egg-info)$")


def emit(key: str, **entry: object) -> None:
    sys.stdout.write(MARKER + json.dumps({"key": key, **entry}) + "\n")
    sys.stdout.flush()


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def python_info() -> dict[str, object]:
    if os.path.isdir(os.path.join(sys.prefix, "conda-meta")):
        environment = "conda"
    elif sys.prefix != getattr(sys, "base_prefix", sys.prefix):
        environment = "venv"
    else:
        environment = "system"
    return {
        "version": ".".join(str(part) for part in sys.version_info[:3]),
        "implementation": sys.implementation.name.replace("cpython", "CPython"),
        "executable": sys.executable,
        "environment": environment,
    }


def describe(dist: Any) -> dict[str, object]:
    entry: dict[str, object] = {"name": dist.metadata["Name"], "version": dist.version}
    installer = dist.read_text("INSTALLER")
    if installer:
        entry["installer"] = installer.strip()
    entry["location"] = str(dist.locate_file(""))
    direct = dist.read_text("direct_url.json")
    if direct and _editable(direct):
        entry["editable"] = True
    return entry


def _editable(direct_url: str) -> bool:
    try:
        info = json.loads(direct_url).get("dir_info", {})
    except (ValueError, AttributeError):
        return False
    return bool(isinstance(info, dict) and info.get("editable"))


def installed() -> dict[str, list[tuple[str, str]]]:
    """{normalised name: [(version, directory), ...]} in sys.path order, from directory names alone.

    Reading every METADATA file costs a quarter of a second in a big environment; the dist-info directory
    name ("torch-2.11.0+cu130.dist-info") already says what is installed where.
    """
    found: dict[str, list[tuple[str, str]]] = {}
    for directory in sys.path:
        try:
            names = os.listdir(directory or ".")
        except OSError:
            continue
        for name in names:
            match = DIST_DIR.match(name)
            if match:
                found.setdefault(normalise(match.group(1)), []).append((match.group(2), directory))
    return found


def packages() -> dict[str, object]:
    from importlib import metadata

    found = installed()
    selected = []
    for key in sorted(found):
        if key in WATCHED or key.startswith(PREFIXES):
            try:
                selected.append(describe(metadata.distribution(key)))
            except metadata.PackageNotFoundError:  # a dist-info without METADATA: report what the name says
                version, directory = found[key][0]
                selected.append({"name": key, "version": version, "location": directory})
    duplicates = [
        {"name": key, "copies": [{"name": key, "version": v, "location": d} for v, d in copies]}
        for key, copies in sorted(found.items())
        if len({d for _, d in copies}) > 1
    ]
    return {"selected": selected, "duplicates": duplicates, "total": len(found)}


def main() -> None:
    start = time.monotonic()
    emit("python", value=python_info(), source="sys (target interpreter)", seconds=round(time.monotonic() - start, 4))
    start = time.monotonic()
    try:
        value = packages()
    except Exception as exc:  # a broken METADATA file must not lose the report
        emit("packages", missing=f"{type(exc).__name__}: {exc}", status="error")
        return
    emit("packages", value=value, source="importlib.metadata", seconds=round(time.monotonic() - start, 4))


if __name__ == "__main__":
    main()
