"""Jinja2 environment over the repository's templates/ (installed wheels carry a copy inside collector/).

A wheel also carries the templates compiled by Jinja2 at build time (collector/compiled_templates/, written by
collector/build_hook.py), loaded with Jinja2's ModuleLoader: Python caches their bytecode like any module's, where
compiling report.md.j2 from source costs 70 ms of a 250 ms run. A checkout has none and compiles from source;
so does an installation whose Jinja2 is another release than the one that compiled them.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import jinja2

from collector import zipped

PACKAGE_DIR = Path(__file__).resolve().parent
COMPILED_DIR = PACKAGE_DIR / "compiled_templates"
STAMP = "jinja2-version"  # the Jinja2 release that compiled them: generated code is only sure to run on it
# The HTML pages have an environment of their own (bot/insights/dashboard.py, autoescaped) and are not compiled here.
NOT_COMPILED = ("dashboard/",)
# A line break and the blanks around it. The lookbehind starts a match only where a run of blanks starts: a bare
# `\s*[\r\n]` retries from every blank of a long run, quadratic in a quoted line of 2,000 tabs.
NEWLINE = re.compile(r"(?<!\s)\s*[\r\n]\s*")


def template_dir() -> Path:
    installed = PACKAGE_DIR / "templates"
    return installed if installed.is_dir() else PACKAGE_DIR.parent / "templates"


@functools.lru_cache(maxsize=None)  # functools.cache is 3.9+; collector/bundle.py runs on 3.8
def environment() -> jinja2.Environment:
    return build_environment(template_dir(), COMPILED_DIR)


def source_environment(templates: Path) -> jinja2.Environment:
    """Every template compiled from its source (what the build hook compiles ahead of time)."""
    return build_environment(templates, None)


def build_environment(templates: Path, compiled: Path | None) -> jinja2.Environment:
    loader: jinja2.BaseLoader = jinja2.FileSystemLoader(templates)
    if compiled is not None and usable(compiled):
        loader = jinja2.ChoiceLoader([jinja2.ModuleLoader(compiled), loader])
    env = jinja2.Environment(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,  # noqa: S701 - renders Markdown, not HTML; values go through the cell/code filters
    )
    env.filters.update(cell=cell, code=code, gib=gib, plural=plural, fence=fence)
    return env


def compiled_ahead(name: str) -> bool:
    return not name.startswith(NOT_COMPILED)


def stamp(compiled: Path) -> None:
    (compiled / STAMP).write_text(jinja2.__version__, encoding="utf-8")


def usable(compiled: Path) -> bool:
    try:
        return zipped.read_text(compiled / STAMP) == jinja2.__version__  # also inside collector/bundle.py's zip
    except OSError:
        return False


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

    Neighbouring backticks inside are kept apart by a zero-width space: a run of two would close a "``" span early on
    GitHub, and a run of three looks like a fence to bot/diagnosis/render.py's `inert`, which would then take the text
    after the span for code and leave an @mention in it live. An empty value is a blank span: "``" is no code span on
    GitHub, and `inert` would take it for the opening of one.
    """
    # Inside code nothing is live: the zero-width spaces that keep a value inert in prose (bot/diagnosis/inert.py) would
    # only be pasted into a terminal with the command, so they go.
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
