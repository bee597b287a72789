"""Jinja2 environment over the repository's templates/ (installed wheels carry a copy inside collector/).

Templates load from Python modules compiled ahead of time (collector/compiled/, written by
`python -m collector.compile_templates`): Python caches their bytecode like any module's, where compiling
report.md.j2 from source costs 70 ms of a 250 ms run. A module whose key no longer matches its template (the
source, the settings below, Jinja2's bytecode format) is ignored and the template compiled from source: an edited
template never renders stale, it only renders slower until the modules are written again.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import re
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

import jinja2
import jinja2.bccache

PACKAGE_DIR = Path(__file__).resolve().parent
COMPILED_PACKAGE = "collector.compiled"
# The HTML pages have an environment of their own (bot/dashboard.py, autoescaped) and are not compiled here.
NOT_COMPILED = ("dashboard/",)
# The environment's settings that shape the generated code (those Jinja2 keys its lexer cache on, and more).
CODE_SETTINGS = (
    "block_start_string",
    "block_end_string",
    "variable_start_string",
    "variable_end_string",
    "comment_start_string",
    "comment_end_string",
    "line_statement_prefix",
    "line_comment_prefix",
    "trim_blocks",
    "lstrip_blocks",
    "newline_sequence",
    "keep_trailing_newline",
    "autoescape",
    "optimized",
)
# A line break and the blanks around it. The lookbehind starts a match only where a run of blanks starts: a bare
# `\s*[\r\n]` retries from every blank of a long run, quadratic in a quoted line of 2,000 tabs.
NEWLINE = re.compile(r"(?<!\s)\s*[\r\n]\s*")


def template_dir() -> Path:
    installed = PACKAGE_DIR / "templates"
    return installed if installed.is_dir() else PACKAGE_DIR.parent / "templates"


@functools.cache
def environment() -> jinja2.Environment:
    return build_environment(template_dir())


def build_environment(templates: Path) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=CompiledLoader(templates),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,  # noqa: S701 - renders Markdown, not HTML; values go through the cell/code filters
    )
    env.filters.update(cell=cell, code=code, gib=gib, plural=plural, fence=fence)
    return env


class CompiledLoader(jinja2.FileSystemLoader):
    """A FileSystemLoader that takes a template's code from its compiled module while the module's key holds."""

    def load(
        self, environment: jinja2.Environment, name: str, globals: MutableMapping[str, Any] | None = None
    ) -> jinja2.Template:
        source, filename, _ = self.get_source(environment, name)
        namespace = compiled_namespace(name, filename)
        if namespace is None or namespace.get("KEY") != template_key(environment, source):
            return super().load(environment, name, globals)
        return environment.template_class.from_module_dict(environment, namespace, globals or {})


def compiled_namespace(name: str, filename: str) -> dict[str, Any] | None:
    """The compiled template's module run in a namespace of its own, not imported: its functions look up
    `environment` as a global, so two environments sharing one module object would render with the last one.
    `__file__` is the template's own path, where Jinja2 points a traceback from inside the template."""
    namespace: dict[str, Any] = {"__file__": filename}
    try:
        spec = importlib.util.find_spec(f"{COMPILED_PACKAGE}.{module_name(name)}")
        get_code: Callable[[str], Any] | None = getattr(spec.loader, "get_code", None) if spec else None
        code = get_code(spec.name) if get_code and spec else None
        if code is None:
            return None
        # A Jinja2 whose runtime lacks a name the module imports: compiled by another release, so stale too.
        exec(code, namespace)  # noqa: S102 - our own module, written by collector/compile_templates.py
    except (ImportError, OSError, SyntaxError, ValueError):
        return None
    return namespace


def module_name(template_name: str) -> str:
    """report.md.j2 -> report_md_j2, findings/driver_too_old.md.j2 -> findings__driver_too_old_md_j2."""
    return re.sub(r"\W", "_", template_name.replace("/", "__"))


def template_key(environment: jinja2.Environment, source: str) -> str:
    """What the compiled code depends on: the source, the settings that change the generated code, and Jinja2's
    bytecode format version (Jinja2's own cache treats code as valid across releases while it holds)."""
    settings = (
        jinja2.bccache.bc_version,
        *(getattr(environment, setting) for setting in CODE_SETTINGS),
        sorted(environment.extensions),
    )
    return hashlib.sha256(f"{settings!r}\n{source}".encode()).hexdigest()[:32]


def render(template_name: str, /, **context: Any) -> str:
    return environment().get_template(template_name).render(**context)


def render_block(template_name: str, block: str, /, **context: Any) -> str:
    """One {% block %} of a template, e.g. the title of a finding."""
    template = environment().get_template(template_name)
    return "".join(template.blocks[block](template.new_context(context))).strip()


def cell(value: Any) -> str:
    """A value made safe for a Markdown table cell: no pipes, no newlines, no raw HTML."""
    text = "" if value is None else str(value)
    text = text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(NEWLINE, " ", text).strip()


def code(value: Any) -> str:
    """Inline code that survives backticks inside the value.

    Neighbouring backticks inside are kept apart by a zero-width space: a run of two would close a "``" span
    early on GitHub, and a run of three looks like a fence to bot/render.py's `inert`, which would then take the
    text after the span for code and leave an @mention in it live. An empty value is a blank span: "``" is no
    code span on GitHub, and `inert` would take it for the opening of one.
    """
    # Inside code nothing is live: the zero-width spaces that keep a value inert in prose (bot/inert.py) would only
    # be pasted into a terminal with the command, so they go.
    text = re.sub(NEWLINE, " ", "" if value is None else str(value)).replace("\u200b", "")
    text = re.sub(r"`(?=`)", "`\u200b", text) or " "
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def fence(content: str, info: str = "") -> str:
    """A fenced code block whose fence is longer than any run of backticks inside, so content cannot close it."""
    longest = max((len(run) for run in re.findall(r"`+", content)), default=0)
    marks = "`" * max(3, longest + 1)
    return f"{marks}{info}\n{content.rstrip()}\n{marks}"


def gib(mib: int | None) -> str:
    return "?" if mib is None else f"{mib / 1024:.1f} GiB"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
