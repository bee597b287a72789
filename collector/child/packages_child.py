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
    "onnxruntime-gpu",
    "onnxruntime",
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


def describe(dist: object) -> dict[str, object]:
    meta = dist.metadata  # type: ignore[attr-defined]
    entry: dict[str, object] = {"name": meta["Name"], "version": dist.version}  # type: ignore[attr-defined]
    installer = dist.read_text("INSTALLER")  # type: ignore[attr-defined]
    if installer:
        entry["installer"] = installer.strip()
    entry["location"] = str(dist.locate_file(""))  # type: ignore[attr-defined]
    direct = dist.read_text("direct_url.json")  # type: ignore[attr-defined]
    if direct and _editable(direct):
        entry["editable"] = True
    return entry


def _editable(direct_url: str) -> bool:
    try:
        info = json.loads(direct_url).get("dir_info", {})
    except (ValueError, AttributeError):
        return False
    return bool(isinstance(info, dict) and info.get("editable"))


def packages() -> dict[str, object]:
    from importlib import metadata

    by_name: dict[str, list[dict[str, object]]] = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        if not name:
            continue
        key = normalise(name)
        if key in WATCHED or key.startswith(PREFIXES):
            by_name.setdefault(key, []).append(describe(dist))
        else:
            by_name.setdefault(key, []).append(
                {"name": name, "version": dist.version, "location": str(dist.locate_file(""))}
            )
    selected, duplicates = [], []
    for key in sorted(by_name):
        copies = by_name[key]
        if key in WATCHED or key.startswith(PREFIXES):
            selected.append(copies[0])
        locations = {str(copy.get("location")) for copy in copies}
        if len(copies) > 1 and len(locations) > 1:
            duplicates.append({"name": key, "copies": copies})
    return {"selected": selected, "duplicates": duplicates, "total": len(by_name)}


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
