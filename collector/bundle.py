"""`python -m collector.bundle [-o FILE] [--bytecode PYTHON ...]`: the collector as one file, which reporters run as
`python envtriage-collect.pyz > env.md`.

A zipapp (a zip archive with a `__main__.py`, which Python runs as it is) holding the collector, the part of `bot`
its summary's verdicts come from (bot/diagnosis), and what they import at run time: Jinja2, MarkupSafe's pure-Python
escape (never its compiled `_speedups`: one archive for every platform and Python) and nvidia-ml-py's pynvml. As in
a wheel (collector/build_hook.py), the templates come compiled and the matrix merged into JSON; with --bytecode, each
module's bytecode for the Pythons named, which collector/bytecode.py loads (zipimport would compile every module from
source at every run). Everything is copied from the packages installed for this interpreter, never downloaded; the
archive is the same byte for byte for the same sources (sorted entries, fixed timestamps and modes).

The archive's code runs on CPython 3.8 and later (the package itself needs 3.10): people file GPU issues from old
environments, and the report is about the environment that fails, so it must run with that environment's Python.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import zipapp
import zipfile
from importlib import metadata
from pathlib import Path

from collector import imported

DEFAULT_NAME = "envtriage-collect.pyz"
INTERPRETER = "/usr/bin/env python3"
FLOOR = (3, 8)
FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest a zip entry can say
# The packages of this project that the collector imports, and what it never needs at run time.
OWN = ("collector", "bot")
ROOTS = ("collector.__main__", "collector.probe_process", "collector.bytecode")  # the probe process: without fork
LEFT_OUT = ("collector.build_hook", "collector.bundle")
# Module -> the distribution it comes from. Only their Python source is copied (no .so/.pyd, no C, no stubs).
DEPENDENCIES = {"jinja2": "Jinja2", "markupsafe": "MarkupSafe", "pynvml": "nvidia-ml-py"}
LICENSE_FILE = re.compile(r"(?:LICEN[CS]E|COPYING|NOTICE)[^/]*", re.IGNORECASE)
LOWER_BOUND = re.compile(r">=\s*(\d+)\.(\d+)")
MAIN = """\
# envtriage-collect.pyz: the envtriage collector in one file (written by `python -m collector.bundle`).
import sys

if sys.version_info < (3, 8):
    sys.exit("envtriage-collect.pyz needs Python 3.8 or newer, not %d.%d; run it with a newer Python and add"
             " --python %s to report on this one" % (sys.version_info[0], sys.version_info[1], sys.executable))

from collector import bytecode

bytecode.install()  # this Python's bytecode, where the archive carries it

from collector.__main__ import leave, main

leave(main())
"""
# Run by each Python given --bytecode, over a folder of the archive's modules: writes __pycache__/*.pyc beside them
# (hash-based and unchecked: no timestamp in them, nothing compared at import), prints the Python's cache tag.
COMPILE = """\
import json, py_compile, sys
for name in json.loads(sys.stdin.read()):
    py_compile.compile(sys.argv[1] + "/" + name, dfile=name, doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
print(sys.implementation.cache_tag)
"""


@dataclasses.dataclass(frozen=True)
class Dependency:
    module: str
    distribution: str
    version: str
    requires_python: str

    @property
    def below_floor(self) -> bool:
        """Its metadata excludes Python 3.8: only the archive's own test run on 3.8 vouches for that part."""
        found = LOWER_BOUND.search(self.requires_python)
        return found is not None and (int(found.group(1)), int(found.group(2))) > FLOOR


def build(target: Path, pythons: list[str]) -> tuple[dict[str, bytes], list[Dependency]]:
    """Write the archive to `target`, with bytecode for each of `pythons`; return what went into it."""
    entries = {"__main__.py": MAIN.encode()}
    entries.update(own_sources())
    dependencies = [dependency(module, distribution) for module, distribution in DEPENDENCIES.items()]
    for dep in dependencies:
        entries.update(module_sources(dep.module))
        entries.update(licenses(dep.distribution))
    entries.update(compiled_templates())
    entries["bot/diagnosis/matrix/data/compiled.json"] = compiled_matrix().encode()
    entries.update(own_metadata())
    entries.update(bytecode(entries, pythons))
    write(entries, target)
    return entries, dependencies


def package_dir(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise SystemExit(f"python -m collector.bundle: {module} is not installed for {sys.executable}")
    return Path(spec.origin).parent


def python_files(root: Path, prefix: str) -> dict[str, bytes]:
    """Every .py file under `root`, by its name in the archive."""
    return {
        f"{prefix}/{path.relative_to(root).as_posix()}": path.read_bytes()
        for path in sorted(root.rglob("*.py"))
        if "__pycache__" not in path.parts
    }


def own_sources() -> dict[str, bytes]:
    """This project's modules that the collector imports, at any depth and from any function, found by reading
    their imports: the collector, and of bot/ only what its diagnosis needs (not the service, nor PyYAML's users).
    The child scripts are run by the target interpreter, not imported."""
    roots = {name: package_dir(name) for name in OWN}
    entries = {
        f"{name.replace('.', '/')}{'/__init__' if path.name == '__init__.py' else ''}.py": path.read_bytes()
        for name, path in imported.closure(ROOTS, roots, LEFT_OUT).items()
    }
    entries.update(python_files(roots["collector"] / "child", "collector/child"))
    return entries


def module_sources(module: str) -> dict[str, bytes]:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None  # dependency() found it
    if spec.submodule_search_locations is None:  # a single module: pynvml.py
        if not spec.origin.endswith(".py"):
            raise SystemExit(f"python -m collector.bundle: {module} is installed as {spec.origin}, not as Python")
        return {Path(spec.origin).name: Path(spec.origin).read_bytes()}
    return python_files(Path(spec.origin).parent, module)


def dependency(module: str, distribution: str) -> Dependency:
    package_dir(module)  # installed, or a clear exit
    meta = metadata.metadata(distribution)
    requires = meta.get_all("Requires-Python") or [""]  # not meta[...]: a missing field warns from 3.12
    return Dependency(module, distribution, meta["Version"], requires[0])


def licenses(distribution: str) -> dict[str, bytes]:
    found = {}
    for file in metadata.distribution(distribution).files or []:
        if LICENSE_FILE.fullmatch(file.name):
            found[f"licenses/{distribution}/{file.name}"] = Path(str(file.locate())).read_bytes()
    return found


def compiled_templates() -> dict[str, bytes]:
    """The templates as Jinja2 compiles them for a wheel, with the stamp naming the Jinja2 that did."""
    from collector import templating

    with tempfile.TemporaryDirectory(prefix="envtriage-bundle-") as scratch:
        target = Path(scratch)
        env = templating.source_environment(templating.template_dir())
        env.compile_templates(target, zip=None, filter_func=templating.compiled_ahead, ignore_errors=False)
        templating.stamp(target)
        return {f"collector/compiled_templates/{path.name}": path.read_bytes() for path in sorted(target.iterdir())}


def compiled_matrix() -> str:
    """The merged matrix as a wheel carries it, keyed to no YAML: the archive carries none to be stale against."""
    from bot.diagnosis import matrix
    from bot.diagnosis.matrix import compile as matrix_compile

    try:
        document = json.loads(matrix_compile.compiled_text())
    except matrix.MatrixError as exc:  # the archive is never built from a matrix that does not load
        raise SystemExit(f"python -m collector.bundle: {exc}") from None
    document["key"] = matrix.sources_key([])
    return json.dumps(document, ensure_ascii=False, indent=None, separators=(",", ":")) + "\n"


def own_metadata() -> dict[str, bytes]:
    """What importlib.metadata reads for the collector's version (collector/version.py), found in the archive
    before any envtriage installed for the interpreter that runs it."""
    from collector.version import version

    number = version()
    text = f"Metadata-Version: 2.1\nName: envtriage\nVersion: {number}\n"
    return {f"envtriage-{number}.dist-info/METADATA": text.encode()}


def bytecode(entries: dict[str, bytes], pythons: list[str]) -> dict[str, bytes]:
    """Each module's bytecode as each of `pythons` compiles it, and bytecode.json, which lists them by Python
    (collector/bytecode.py reads it). Not the child scripts: the target interpreter runs those."""
    sources = sorted(n for n in entries if n.endswith(".py") and n != "__main__.py" and "/child/" not in n)
    found: dict[str, bytes] = {}
    listed: dict[str, list[str]] = {}
    # A fixed hash seed: a set of strings in the code (`x in {"a", "b"}`) is marshalled in hash order.
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}, "PYTHONHASHSEED": "0"}
    with tempfile.TemporaryDirectory(prefix="envtriage-bytecode-") as scratch:
        for name in sources:
            (Path(scratch) / name).parent.mkdir(parents=True, exist_ok=True)
            (Path(scratch) / name).write_bytes(entries[name])
        for python in pythons:
            argv = [python, "-s", "-c", COMPILE, scratch]
            done = subprocess.run(
                argv, input=json.dumps(sources), env=env, capture_output=True, text=True, timeout=600, check=False
            )
            if done.returncode != 0:
                raise SystemExit(
                    f"python -m collector.bundle: {python} did not compile the modules: {done.stderr[-500:]}"
                )
            listed[done.stdout.strip()] = sources
        for path in sorted(Path(scratch).rglob("*.pyc")):
            found[path.relative_to(scratch).as_posix()] = path.read_bytes()
    found["bytecode.json"] = json.dumps(listed, sort_keys=True).encode()
    return found


def write(entries: dict[str, bytes], target: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in directories(entries):  # zipimport finds a namespace package (collector/child) by its entry
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.external_attr = (0o40755 << 16) | 0x10  # a directory, for Unix and for MS-DOS
            archive.writestr(info, b"")
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, entries[name], compresslevel=9)
    buffer.seek(0)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    zipapp.create_archive(buffer, str(partial), interpreter=INTERPRETER)  # the #! line; as a str, the executable bit
    os.replace(partial, target)


def directories(entries: dict[str, bytes]) -> list[str]:
    found = {name[: at + 1] for name in entries for at in range(len(name)) if name[at] == "/"}
    return sorted(found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m collector.bundle", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "-o", "--output", type=Path, default=Path(DEFAULT_NAME), metavar="FILE", help="default: %(default)s"
    )
    parser.add_argument(
        "--bytecode",
        action="append",
        metavar="PYTHON",
        help="carry the modules' bytecode for this Python (repeat for several; default: the one running this)",
    )
    parser.add_argument("--no-bytecode", action="store_true", help="carry none: every Python compiles at each run")
    args = parser.parse_args(argv)
    pythons = [] if args.no_bytecode else args.bytecode or [sys.executable]
    entries, dependencies = build(args.output, pythons)
    from collector import templating

    size = args.output.stat().st_size
    sys.stdout.write(
        templating.render(
            "bundle.txt.j2",
            path=args.output,
            entries=len(entries),
            size=size,
            deps=dependencies,
            floor=FLOOR,
            tags=sorted(json.loads(entries["bytecode.json"])),
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
