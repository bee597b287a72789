"""torch's companions and installers: torchvision/torchaudio from another release, torch installed twice."""

from __future__ import annotations

from collections.abc import Iterator

from bot.diagnosis.findings import Finding
from bot.diagnosis.matrix import indexes
from bot.diagnosis.matrix.model import TorchRelease, is_version, version_key
from bot.diagnosis.rules import advice, finding, rule
from bot.diagnosis.rules.view import View
from collector.report.schema import PACKAGES, TORCH, Package


def expected_companion(release: TorchRelease, torch_version: str, name: str) -> str | None:
    table = release.torchvision if name == "torchvision" else release.torchaudio
    base = torch_version.split("+")[0]
    expected = table.get(base)
    if expected is None and len(version_key(base)) == 2:  # "torch 2.4": any patch of the series will do
        expected = table.get(release.patches[-1])
    return expected


def matches(found: str, expected: str) -> bool:
    """Compare as far as the user's version goes: "0.19" matches "0.19.1"."""
    have = version_key(found)
    return have == version_key(expected)[: len(have)]


def tag(version: str) -> str | None:
    return version.split("+", 1)[1] if "+" in version else None


def companion_finding(v: View, name: str) -> Finding | None:
    package = v.packages.get(name)
    if package is None or v.torch is None or not v.torch.version or v.release is None:
        return None
    if not is_version(package.version):  # installed from a URL that names no version
        return None
    expected = expected_companion(v.release, v.torch.version, name)
    if expected is None:
        return None
    wrong_version = not matches(package.version, expected)
    torch_tag, companion_tag = v.torch.tag, tag(package.version)
    wrong_variant = bool(torch_tag and companion_tag and torch_tag != companion_tag and name == "torchvision")
    if not (wrong_version or wrong_variant):
        return None
    index = companion_index(v, v.release)
    evidence = [*v.evidence(TORCH), *v.evidence(PACKAGES)]
    command = f"pip install --force-reinstall --no-deps {name}=={expected}"
    return finding(
        f"{name}_mismatch", f"{name}_mismatch", "error", evidence,
        name=name, found=package.version, expected=expected, torch=v.torch.version, variant_only=not wrong_version,
        command=f"{command} --index-url {advice.INDEX_URL.format(variant=index)}" if index else None, reinstall=command,
    )  # fmt: skip


def companion_index(v: View, release: TorchRelease) -> str | None:
    """The index torch came from, which its companions must come from too: "+cpu" stays on /whl/cpu, "+rocm6.1" on
    /whl/rocm6.1, "+cu121" on /whl/cu121. An untagged CUDA build is PyPI's, the release's default variant. A build
    from an index the matrix does not know (AMD's own "+rocm7.13.0a2026..." wheels, a source build "+git...") gets
    None: naming a CUDA index would move it to another accelerator."""
    tag = v.torch.tag if v.torch else None
    if tag and indexes.has(v.matrix, release, tag):
        return tag
    if (tag and indexes.accelerator(tag) != "cuda") or (v.torch and v.torch.build == "rocm"):
        return None
    return v.variant or ("cpu" if v.cpu_build else release.default_variant)


@rule
def torchvision_mismatch(v: View) -> Iterator[Finding]:
    found = companion_finding(v, "torchvision")
    if found:
        yield found


@rule
def torchaudio_mismatch(v: View) -> Iterator[Finding]:
    found = companion_finding(v, "torchaudio")
    if found:
        yield found


TWICE_MATTERS = ("torch", "torchvision", "torchaudio", "triton", "pytorch-triton", "numpy")


@rule
def mixed_installs(v: View) -> Iterator[Finding]:
    found = v.report.get(PACKAGES)
    duplicates = (
        [d for d in found.duplicates if d.name in TWICE_MATTERS or d.name.startswith("nvidia-")] if found else []
    )
    cuda_majors = _nvidia_majors(list(v.packages.values()))
    if not duplicates and len(cuda_majors) < 2:
        return
    evidence = [
        f"{d.name} {c.version} ({c.installer or 'installer unknown'}{', ' + c.location if c.location else ''})"
        for d in duplicates
        for c in d.copies
    ]
    evidence += [
        f"{p.name} {p.version}" for p in v.packages.values() if _major(p) in cuda_majors and len(cuda_majors) > 1
    ]
    breaks = any(d.name == "torch" for d in duplicates) or len(cuda_majors) > 1
    # Two installs explain much, but a decisive error text names the symptom the user must act on first.
    yield finding(
        "mixed_installs", "mixed_installs", "error" if breaks else "warning", [*evidence, *v.evidence(PACKAGES)],
        confidence=0.75,
        duplicates=duplicates, cuda_majors=sorted(cuda_majors),
    )  # fmt: skip


# The CPU and the GPU build of one library, both in a package listing: they install into one directory and the one
# installed last wins, often the CPU build a dependency asked for by name (microsoft/onnxruntime#3787, maintainer: "If
# you want to run on GPU, you don't need to install onnxruntime (CPU pkg). Installing onnxruntime-gpu should
# suffice"; tensorflow/addons#864, tensorflow-cpu beside tensorflow; PaddlePaddle/Paddle#38265 and opendatalab/MinerU
# #1772, paddlepaddle beside paddlepaddle-gpu; facebookresearch/faiss#2892, faiss-cpu "conflicting with faiss-gpu").
# Only pairs whose names the package reader watches (collector/child/packages_child.py WATCHED).
TWO_BUILDS = (
    ("onnxruntime", "onnxruntime-gpu"),
    ("tensorflow-cpu", "tensorflow"),
    ("tensorflow-cpu", "tensorflow-gpu"),
    ("tensorflow", "tensorflow-gpu"),
    ("paddlepaddle", "paddlepaddle-gpu"),
    ("faiss-cpu", "faiss-gpu"),
)


@rule
def two_builds_installed(v: View) -> Iterator[Finding]:
    both = [(cpu, gpu) for cpu, gpu in TWO_BUILDS if cpu in v.packages and gpu in v.packages]
    if not both:
        return
    evidence = [f"{v.packages[name].name} {v.packages[name].version}" for pair in both for name in pair]
    yield finding(
        "two_builds_installed", "mixed_installs", "warning", [*evidence, *v.evidence(PACKAGES)], confidence=0.7,
        pairs=both,
    )  # fmt: skip


def _major(package: Package) -> str | None:
    name = package.name.lower()
    suffix = name.rsplit("-", 1)[-1]
    return suffix if name.startswith("nvidia-") and suffix in ("cu11", "cu12", "cu13") else None


def _nvidia_majors(packages: list[Package]) -> set[str]:
    """nvidia-cudnn-cu11 beside nvidia-cudnn-cu12: two CUDA majors' libraries in one environment."""
    return {major for package in packages if (major := _major(package))}
