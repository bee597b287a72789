"""Hatchling build hook: what a wheel carries that the repository does not (pyproject.toml names this file).

- The templates compiled by Jinja2's own `Environment.compile_templates`, into collector/compiled_templates/, which
`collector.templating` loads with Jinja2's `ModuleLoader`: compiling report.md.j2 from source costs 70 ms of a 250 ms
collector run. - The matrix merged into bot/diagnosis/matrix/data/compiled.json, read where importing PyYAML and parsing
its 120 KB of YAML costs 30-45 ms.

Both are made from the source being built, so they cannot be stale; a checkout (and an editable install) has
neither and reads the sources. Not part of the wheel.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):  # type: ignore[misc,type-arg,unused-ignore]  # Any or generic
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        self._scratch = Path(tempfile.mkdtemp(prefix="envtriage-build-"))
        sys.path.insert(0, self.root)  # the source being built, not whatever envtriage is installed
        try:
            compiled = self._scratch / "compiled_templates"
            compile_templates(Path(self.root) / "templates", compiled)
            matrix = self._scratch / "compiled.json"
            matrix.write_text(compile_matrix(), encoding="utf-8")
        finally:
            sys.path.remove(self.root)
        build_data["force_include"][str(compiled)] = "collector/compiled_templates"
        build_data["force_include"][str(matrix)] = "bot/diagnosis/matrix/data/compiled.json"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def compile_templates(source: Path, target: Path) -> None:
    from collector import templating

    env = templating.source_environment(source)
    env.compile_templates(target, zip=None, filter_func=templating.compiled_ahead, ignore_errors=False)
    templating.stamp(target)


def compile_matrix() -> str:
    from bot.diagnosis.matrix import compile as matrix_compile

    return matrix_compile.compiled_text()
