"""The one-file collector (collector/bundle.py): built into a temporary folder and run the way a reporter runs it,
with this interpreter and, where this machine has one, with a Python 3.8 and 3.9 that have nothing installed."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from collector import bundle, markdown
from collector.report.schema import PYTHON
from collector.version import version

ROOT = Path(__file__).resolve().parents[2]
# Modules that open connections; none may be in the archive (the collector makes no network call). `socket` only
# for gethostname, where there is no os.uname (Windows), to know the host name to redact.
NETWORK = ("ssl", "http", "urllib.request", "ftplib", "smtplib", "requests", "httpx", "urllib3", "aiohttp")
SOCKET_CALLS = {"gethostname"}
BUILTIN_TYPES = {"str", "int", "float", "bool", "bytes", "list", "dict", "tuple", "set", "frozenset", "type"}
GENERIC_BUILTINS = {"list", "dict", "tuple", "set", "frozenset", "type"}
COMPILED = (".so", ".pyd", ".dll", ".dylib", ".c", ".pyi")
# Run with an audit hook that reports every socket the collector's processes create, to its stderr.
WATCHED = """\
import os, runpy, sys
def hook(event, args):
    if event.startswith("socket.") and event != "socket.gethostname":
        os.write(2, b"NETWORK " + event.encode() + b"\\n")
sys.addaudithook(hook)
sys.argv[0] = sys.argv[1]
del sys.argv[1]
runpy.run_path(sys.argv[0], run_name="__main__")
"""
# Every module of the archive compiles, and every importable one imports, on the interpreter that runs this.
EVERY_MODULE = """\
import importlib, json, sys, zipfile
archive = sys.argv[1]
sys.path.insert(0, archive)
failed = {}
for name in zipfile.ZipFile(archive).namelist():
    if not name.endswith(".py"):
        continue
    try:
        compile(zipfile.ZipFile(archive).read(name), name, "exec")
        if name != "__main__.py" and not name.startswith("collector/child/"):  # scripts, run by path
            importlib.import_module(name[:-3].replace("/", ".").replace(".__init__", ""))
    except Exception as exc:
        failed[name] = "%s: %s" % (type(exc).__name__, exc)
print(json.dumps(failed))
"""


def bytecode_pythons() -> list[str]:
    """This interpreter, and pyenv's 3.8 and 3.9 where this machine has them."""
    return [sys.executable, *filter(None, (old_python("3.8"), old_python("3.9")))]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The archive as `python -m collector.bundle -o FILE --bytecode ...` writes it, and what that printed."""
    target = tmp_path_factory.mktemp("bundle") / bundle.DEFAULT_NAME
    argv = [sys.executable, "-m", "collector.bundle", "-o", str(target)]
    argv += [arg for python in bytecode_pythons() for arg in ("--bytecode", python)]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    return target, done.stdout


def loaded_from(python: str, archive: Path) -> str:
    """How that Python loads the archive's modules, once the archive's __main__ has installed its finder."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "from collector import bytecode; bytecode.install()\n"
        "import collector.markdown as m, jinja2, pynvml\n"
        "same = m.render.__code__.co_filename == m.__file__\n"
        "print(type(m.__loader__).__name__, type(jinja2.__loader__).__name__, type(pynvml.__loader__).__name__, same)"
    )
    done = subprocess.run([python, "-S", "-c", code, str(archive)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def run_archive(
    python: str, archive: Path, *args: str, flags: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    env = {name: value for name, value in os.environ.items() if not name.startswith("PYTHON")}
    argv = [python, *flags, str(archive), *args]
    return subprocess.run(argv, cwd=archive.parent, env=env, capture_output=True, text=True, timeout=110, check=False)


def old_python(version_prefix: str) -> str | None:
    """pyenv's interpreter of that minor version, where this machine has one (CI has none)."""
    versions = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    found = sorted(versions.glob(f"{version_prefix}.*/bin/python"))
    return str(found[-1]) if found else None


def test_the_command_writes_an_executable_zipapp_and_says_what_is_in_it(built: tuple[Path, str]) -> None:
    archive, printed = built
    assert archive.read_bytes().startswith(b"#!/usr/bin/env python3\n")
    assert os.access(archive, os.X_OK)
    names = zipfile.ZipFile(archive).namelist()
    assert "__main__.py" in names
    assert {"collector/__main__.py", "jinja2/__init__.py", "markupsafe/_native.py", "pynvml.py"} <= set(names)
    assert "bot/diagnosis/matrix/data/compiled.json" in names
    assert "collector/compiled_templates/jinja2-version" in names
    assert f"envtriage-{version()}.dist-info/METADATA" in names
    # Only what the collector imports: not the service, nor the modules that need PyYAML, nor the builders.
    assert not any(name.startswith(("bot/service/", "bot/insights/", "yaml/")) for name in names)
    assert "bot/diagnosis/config.py" not in names and "collector/bundle.py" not in names
    assert f"wrote {archive}" in printed and "CPython 3.8" in printed and "MarkupSafe" in printed


def test_the_archive_has_no_compiled_module_and_imports_nothing_that_opens_a_connection(
    built: tuple[Path, str],
) -> None:
    archive = zipfile.ZipFile(built[0])
    assert not [name for name in archive.namelist() if name.endswith(COMPILED) or "_speedups" in name]
    for name in archive.namelist():
        if not name.endswith(".py"):
            continue
        for node in ast.walk(ast.parse(archive.read(name))):
            imported = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and not node.level:
                imported = [node.module or ""]
            assert not [m for m in imported if any(m == n or m.startswith(n + ".") for n in NETWORK)], name
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "socket":
                assert node.attr in SOCKET_CALLS, f"{name}: socket.{node.attr}"


def newer_typing_at_run_time(source: bytes) -> list[str]:
    """Lines that build a type Python 3.8 cannot build, outside annotations (which `from __future__ import
    annotations` leaves unevaluated): `X | Y` between classes, list[...] and other builtins subscripted, and
    collections.abc classes subscripted. A heuristic for CI, which has no Python 3.8 to import the archive with."""
    tree = ast.parse(source)
    from_abc = [
        node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module == "collections.abc"
    ]
    generic = GENERIC_BUILTINS | {alias.asname or alias.name for node in from_abc for alias in node.names}
    in_annotations: set[int] = set()
    for node in ast.walk(tree):
        annotations = [getattr(node, "annotation", None), getattr(node, "returns", None)]
        in_annotations.update(id(part) for a in annotations if isinstance(a, ast.AST) for part in ast.walk(a))

    def a_type(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return node.value is None
        if isinstance(node, ast.Name):  # a class: CamelCase or a builtin type; not an ALL_CAPS constant
            return node.id in BUILTIN_TYPES or (node.id[:1].isupper() and not node.id.isupper())
        return isinstance(node, ast.Subscript) or (isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr))

    found = []
    for node in ast.walk(tree):
        if id(node) in in_annotations:
            continue
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr) and a_type(node.left) and a_type(node.right):
            found.append(f"line {node.lineno}: X | Y")
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in generic:
            found.append(f"line {node.lineno}: {node.value.id}[...]")
    return found


def test_no_module_of_ours_builds_a_type_python_3_8_cannot(built: tuple[Path, str]) -> None:
    archive = zipfile.ZipFile(built[0])
    ours = [name for name in archive.namelist() if name.startswith(("collector/", "bot/")) and name.endswith(".py")]
    assert {name: newer_typing_at_run_time(archive.read(name)) for name in ours} == {name: [] for name in ours}


def test_the_heuristic_finds_what_3_8_cannot_run() -> None:
    source = b"""\
from __future__ import annotations
from collections.abc import Callable
Result = Fact | Missing
Alias = Callable[[list[int]], None]
def f(x: int | None) -> list[str]:
    y: dict[str, int] = {}
    return isinstance(x, int | str) or FLAGS | OTHER
"""
    assert newer_typing_at_run_time(source) == [
        "line 3: X | Y", "line 4: Callable[...]", "line 4: list[...]", "line 7: X | Y"
    ]  # fmt: skip


def test_the_same_sources_make_the_same_bytes(built: tuple[Path, str], tmp_path: Path) -> None:
    again = tmp_path / "again.pyz"
    bundle.build(again, bytecode_pythons())
    assert again.read_bytes() == built[0].read_bytes()


def test_modules_load_from_the_bytecode_it_carries_and_tracebacks_name_the_archive(built: tuple[Path, str]) -> None:
    names = zipfile.ZipFile(built[0]).namelist()
    assert f"collector/__pycache__/markdown.{sys.implementation.cache_tag}.pyc" in names
    assert sys.implementation.cache_tag in json.loads(zipfile.ZipFile(built[0]).read("bytecode.json"))
    assert loaded_from(sys.executable, built[0]) == "Loader Loader Loader True"


def test_it_reports_with_this_interpreter_from_the_archive_alone_and_opens_no_socket(
    built: tuple[Path, str], tmp_path: Path
) -> None:
    watched = tmp_path / "watched.py"
    watched.write_text(WATCHED, encoding="utf-8")
    # -S: no site-packages, so Jinja2, MarkupSafe and pynvml can only come from the archive.
    done = run_archive(sys.executable, built[0], "--no-smoke", "--check", flags=("-S", str(watched)))
    assert done.returncode == 0, done.stderr
    report = markdown.parse(done.stdout)
    assert done.stdout.startswith("### Environment (envtriage ")
    assert report.meta.generator == version()
    assert "NETWORK" not in done.stderr
    assert "Traceback" not in done.stderr
    assert "could not be loaded" not in done.stderr  # the diagnosis engine ran from the archive
    assert done.stderr.startswith("envtriage")


def test_without_bytecode_every_module_is_compiled_from_the_archive_and_json_prints_the_twin(tmp_path: Path) -> None:
    archive = tmp_path / bundle.DEFAULT_NAME
    bundle.build(archive, [])
    assert "bytecode.json" in zipfile.ZipFile(archive).namelist()
    assert not [name for name in zipfile.ZipFile(archive).namelist() if name.endswith(".pyc")]
    assert loaded_from(sys.executable, archive) == "zipimporter zipimporter zipimporter True"
    done = run_archive(sys.executable, archive, "--json", "--no-smoke", flags=("-S",))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["schema"] == "envtriage.report/1"
    assert data["facts"]["python"]["value"]["version"] == ".".join(map(str, sys.version_info[:3]))


@pytest.mark.parametrize("minor", ["3.8", "3.9"])
def test_it_runs_on_an_old_python_with_nothing_installed(built: tuple[Path, str], minor: str) -> None:
    python = old_python(minor)
    if python is None:
        pytest.skip(f"no Python {minor} on this machine (pyenv's); the release workflow runs the archive on 3.8")
    archive = built[0]
    every = subprocess.run(
        [python, "-S", "-c", EVERY_MODULE, str(archive)], capture_output=True, text=True, timeout=110, check=True
    )
    assert json.loads(every.stdout) == {}
    assert loaded_from(python, archive) == "Loader Loader Loader True"  # the bytecode that Python compiled
    done = run_archive(python, archive, "--no-smoke", "--check")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "could not be loaded" not in done.stderr
    python_info = markdown.parse(done.stdout).get(PYTHON)
    assert python_info is not None and python_info.version.startswith(minor + ".")
    assert markdown.parse(done.stdout).meta.generator == version()


def test_an_older_python_is_told_what_to_do(built: tuple[Path, str]) -> None:
    python = old_python("3.7")
    if python is None:
        pytest.skip("no Python 3.7 on this machine (pyenv's)")
    done = run_archive(python, built[0])
    assert done.returncode == 1
    assert done.stdout == ""
    assert "needs Python 3.8 or newer, not 3.7" in done.stderr and f"--python {python}" in done.stderr
