"""The modules of this project's packages that a module imports, found by reading the sources (collector/bundle.py).

Every `import` and `from ... import` counts, at module level or inside a function (the collector imports much of
what it uses on first use), and a package whose `__init__` imports all its modules with
`pkgutil.iter_modules(__path__)` (the probe and rule registries) brings all of them.
"""

from __future__ import annotations

import ast
from pathlib import Path


def closure(start: tuple[str, ...], roots: dict[str, Path], left_out: tuple[str, ...]) -> dict[str, Path]:
    """Each module of `roots`' packages that `start` imports, at any depth and from any function, by its file."""
    found: dict[str, Path] = {}
    todo = list(start)
    while todo:
        name = todo.pop()
        path = module_file(name, roots)
        if name in found or path is None or name in left_out:
            continue
        found[name] = path
        todo.extend(name.rsplit(".", depth)[0] for depth in range(1, name.count(".") + 1))  # its packages
        todo.extend(imports_of(name, path, roots))
    return found


def module_file(name: str, roots: dict[str, Path]) -> Path | None:
    top, _, rest = name.partition(".")
    if top not in roots:
        return None
    base = roots[top].joinpath(*rest.split(".")) if rest else roots[top]
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


def imports_of(name: str, path: Path, roots: dict[str, Path]) -> list[str]:
    source = path.read_text(encoding="utf-8")
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # relative: from the package, or as many packages up as dots less one
                parts = package.split(".")
                module = ".".join([*parts[: len(parts) - node.level + 1], *([module] if module else [])])
            names.append(module)
            names.extend(f"{module}.{alias.name}" for alias in node.names)  # a submodule, where it is one
    if path.name == "__init__.py" and "pkgutil.iter_modules(__path__)" in source:  # imports all its modules
        names.extend(f"{name}.{child.stem}" for child in path.parent.glob("*.py") if child.stem != "__init__")
    return [found for found in names if module_file(found, roots) is not None]
