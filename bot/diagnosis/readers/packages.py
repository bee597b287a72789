"""`pip list`, `pip freeze` and `conda list` pastes: the GPU-relevant distributions and any installed twice."""

from __future__ import annotations

import functools
import re

from bot.diagnosis.matrix import Index
from bot.diagnosis.readers.base import Partial, Section
from bot.diagnosis.readers.versions import clean
from collector.child.packages_child import PREFIXES, WATCHED, normalise
from collector.report.schema import PACKAGES, DuplicateDistribution, Package, Packages

NAME = "package list"
# A version is at most MAX_VERSION characters (PEP 440 local versions included): a longer "version" is no listing,
# and would be quoted whole in a finding.
# uv lists what it installed as " + name==version" (" ~ " reinstalled; " - " removed, which is no longer there).
FREEZE = re.compile(r"^\s*(?:[+~] )?([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([0-9][^\s;,]{0,63})(?![^\s;,])")
FREEZE_URL = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*@\s*(\S+)")
COLUMNS = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s+([0-9][0-9A-Za-z.+!_-]{0,63})(?:\s+(\S+))?(?:\s+(\S+))?\s*$")
# conda builds end in "_<number>": "py3.10_cuda12.1_cudnn9.1.0_0", "ha16c6d3_5", "pypi_0".
CONDA_BUILD = re.compile(r"^[A-Za-z0-9_.]*_\d+$")
URL_VERSION = re.compile(r"-(\d[\w.+]*)-")  # "torch-2.4.1+cu121-cp311-...whl"
# conda calls torch "pytorch"; pip-installed packages show up with channel "pypi".
CONDA_NAMES = {
    "pytorch": "torch",
    "pytorch-nightly": "torch",
    "pytorch-cuda": "pytorch-cuda",
    "cudatoolkit": "cudatoolkit",
}


MAX_PACKAGES = 256  # watched distributions read from one section: a real environment lists a few dozen


@functools.lru_cache(maxsize=4096)  # a listing names the same distributions again and again
def watched(name: str) -> bool:
    key = name.lower().replace("_", "-").replace(".", "-")  # normalise() without a regex: called for every line
    return key in WATCHED or key.startswith(PREFIXES) or key in CONDA_NAMES or key.startswith("cuda-")


def read(section: Section, matrix: Index) -> Partial:
    partial = Partial(NAME)
    found: list[tuple[int, Package]] = []
    for index, line in enumerate(section.lines):
        stripped = line.lstrip()
        stripped = stripped[2:] if stripped[:2] in ("+ ", "~ ") else stripped  # uv's "installed" marks
        first_word = stripped.split("=", 1)[0].split("@", 1)[0].split(None, 1)
        if not first_word or not watched(first_word[0]):
            continue  # only watched distributions count: rule the line out before any regex runs
        package = _package(line)
        if package and watched(package.name):
            found.append((index, package))
            if len(found) > MAX_PACKAGES:
                break
    if not found:
        return partial
    source = f"{NAME}: the first {MAX_PACKAGES} packages read" if len(found) > MAX_PACKAGES else None
    found = found[:MAX_PACKAGES]
    packages = [package for _, package in found]
    first: dict[str, Package] = {}
    for package in packages:
        first.setdefault(normalise(package.name), package)
    twice = duplicates(packages)
    partial.add(
        PACKAGES, Packages(selected=list(first.values()), duplicates=twice), section, found[0][0], source=source
    )
    return partial


def _package(line: str) -> Package | None:
    if match := FREEZE.match(line):
        return Package(name=match.group(1), version=match.group(2), installer="pip")
    if match := FREEZE_URL.match(line):
        in_url = URL_VERSION.search(clean(match.group(2)))  # "torch-2.5.1%2Bcu124-cp311-...whl"
        return Package(name=match.group(1), version=in_url.group(1) if in_url else "unknown", installer="pip")
    if match := COLUMNS.match(line):
        name, version, build, channel = match.groups()
        if build and CONDA_BUILD.match(build):
            installer = "pip" if channel == "pypi" or build == "pypi_0" else "conda"
            if "cpu" in build.split("_") and "+" not in version:
                version = f"{version}+cpu"  # conda's CPU-only builds: "py3.8_cpu_0", as pip tags them
            where = f"conda channel {channel}" if channel else None
            return Package(
                name=CONDA_NAMES.get(normalise(name), name), version=version, installer=installer, location=where
            )
        if build and not build.startswith("/"):
            return None  # prose ("torch 2.4 with CUDA"), not a listing
        return Package(name=CONDA_NAMES.get(normalise(name), name), version=version, location=build)
    return None


def duplicates(packages: list[Package]) -> list[DuplicateDistribution]:
    """Twice installed: two versions, or conda's own copy beside a pip one ("pypi" channel) in `conda list`.

    The same version listed by `pip list` and by `conda list` is one install seen twice, not two.
    """
    by_name: dict[str, list[Package]] = {}
    for package in packages:
        by_name.setdefault(normalise(package.name), []).append(package)
    found = []
    for name, copies in by_name.items():
        versions = {copy.version.split("+")[0] for copy in copies}
        installers = {copy.installer for copy in copies if copy.location and copy.location.startswith("conda")}
        if len(versions) > 1 or installers >= {"conda", "pip"}:
            distinct = list(dict.fromkeys(copies))  # the same listing pasted twice is one install
            found.append(DuplicateDistribution(name=name, copies=distinct))
    return found
