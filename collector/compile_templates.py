"""`python -m collector.compile_templates [--check]`: write each template's compiled module into collector/compiled/.

Run after editing anything in templates/ (tests/collector/test_templating.py fails until then, naming this
command). `--check` writes nothing and exits 1 when a module is missing, stale, or left over.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from collector import templating

COMPILED_DIR = templating.PACKAGE_DIR / "compiled"
HEADER = (
    "# Written by `python -m collector.compile_templates` from templates/{name}; do not edit.\n"
    "# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).\n"
)
PACKAGE_INIT = '"""Templates compiled ahead of time by `python -m collector.compile_templates`; do not edit."""\n'


def template_names() -> list[str]:
    return [name for name in templating.environment().list_templates() if not name.startswith(templating.NOT_COMPILED)]


def compiled_modules() -> dict[str, str]:
    """File name -> content of every compiled module, the package's __init__.py included."""
    env = templating.environment()
    names = template_names()
    modules = {"__init__.py": PACKAGE_INIT}
    for name in names:
        source, filename, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
        code = env.compile(source, name, filename, raw=True, defer_init=True)
        key = templating.template_key(env, source)
        modules[f"{templating.module_name(name)}.py"] = f"{HEADER.format(name=name)}KEY = {key!r}\n{code}\n"
    if len(modules) != len(names) + 1:
        raise SystemExit("two templates map to one module name; rename one of them")
    return modules


def differences(target: Path, modules: dict[str, str]) -> list[str]:
    on_disk = {path.name: path for path in target.glob("*.py")} if target.is_dir() else {}
    stale = [name for name, text in modules.items() if name not in on_disk or on_disk[name].read_text() != text]
    left_over = [name for name in on_disk if name not in modules]
    return sorted(stale + left_over)


def write(target: Path, modules: dict[str, str]) -> None:
    target.mkdir(exist_ok=True)
    for path in target.glob("*.py"):
        if path.name not in modules:
            path.unlink()
    for name, text in modules.items():
        path = target / name
        if not path.exists() or path.read_text() != text:
            path.write_text(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m collector.compile_templates", description=__doc__)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a module is out of date")
    args = parser.parse_args(argv)
    modules = compiled_modules()
    changed = differences(COMPILED_DIR, modules)
    if args.check:
        for name in changed:
            sys.stderr.write(f"out of date: collector/compiled/{name}\n")
        return 1 if changed else 0
    write(COMPILED_DIR, modules)
    sys.stdout.write(f"{len(modules) - 1} templates compiled into collector/compiled/ ({len(changed)} files changed)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
