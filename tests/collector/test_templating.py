"""Templates load from their compiled modules, render as from source, and never render stale."""

from __future__ import annotations

import shutil
from pathlib import Path

import jinja2
import pytest

from collector import compile_templates, markdown, templating
from collector.report import from_json

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "h200-1gpu"


def source_environment() -> jinja2.Environment:
    """The same settings and filters over a plain FileSystemLoader: every template compiled from source."""
    env = templating.environment()
    plain = env.overlay(loader=jinja2.FileSystemLoader(templating.template_dir()))
    plain.filters = dict(env.filters)
    return plain


def test_compiled_modules_are_current() -> None:
    changed = compile_templates.differences(compile_templates.COMPILED_DIR, compile_templates.compiled_modules())
    assert changed == [], f"{changed}: run `python -m collector.compile_templates` after editing templates/"


@pytest.mark.parametrize("name", compile_templates.template_names())
def test_each_template_loads_from_its_compiled_module(name: str) -> None:
    template = templating.build_environment(templating.template_dir()).get_template(name)
    module = template.root_render_func.__code__.co_filename
    assert Path(module) == compile_templates.COMPILED_DIR / f"{templating.module_name(name)}.py"
    assert template.filename == str(templating.template_dir() / name)  # where Jinja2 points its tracebacks


@pytest.mark.parametrize("fixture", ["collector.json", "collector-deep.json", "broken-ld-cudnn.json"])
def test_compiled_and_source_templates_render_alike(fixture: str, monkeypatch: pytest.MonkeyPatch) -> None:
    report = from_json((FIXTURES / fixture).read_text())
    compiled = markdown.render(report)
    from_source = source_environment()
    assert "compiled" not in from_source.get_template("report.md.j2").root_render_func.__code__.co_filename
    monkeypatch.setattr(templating, "environment", lambda: from_source)
    assert markdown.render(report) == compiled


def test_an_edited_template_renders_from_source_not_from_its_stale_module(tmp_path: Path) -> None:
    shutil.copytree(templating.template_dir(), tmp_path, dirs_exist_ok=True)
    (tmp_path / "check.txt.j2").write_text("edited: {{ findings | length }}\n")
    env = templating.build_environment(tmp_path)
    assert env.get_template("check.txt.j2").render(findings=[1, 2], loaded=True) == "edited: 2\n"
    unedited = env.get_template("comment_cut.md.j2")
    assert "compiled" in unedited.root_render_func.__code__.co_filename  # the others still come compiled


def test_a_module_another_jinja2_cannot_run_renders_from_source(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    package = tmp_path / "other_compiled"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "check_txt_j2.py").write_text("from jinja2.runtime import a_name_no_jinja2_has\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(templating, "COMPILED_PACKAGE", "other_compiled")
    env = templating.build_environment(templating.template_dir())
    template = env.get_template("check.txt.j2")
    assert "compiled" not in template.root_render_func.__code__.co_filename
    assert "no known environment problem" in template.render(findings=[], loaded=True)


def test_changed_settings_make_every_module_stale() -> None:
    env = templating.build_environment(templating.template_dir())
    env.trim_blocks = False  # generates different code: the compiled modules must not be used
    template = env.get_template("check.txt.j2")
    assert "compiled" not in template.root_render_func.__code__.co_filename


def test_check_names_missing_stale_and_left_over_modules(tmp_path: Path) -> None:
    modules = compile_templates.compiled_modules()
    compile_templates.write(tmp_path, modules)
    assert compile_templates.differences(tmp_path, modules) == []
    (tmp_path / "report_md_j2.py").write_text("# edited by hand\n")
    (tmp_path / "check_txt_j2.py").unlink()
    (tmp_path / "gone_md_j2.py").write_text("")
    assert compile_templates.differences(tmp_path, modules) == ["check_txt_j2.py", "gone_md_j2.py", "report_md_j2.py"]
    compile_templates.write(tmp_path, modules)
    assert compile_templates.differences(tmp_path, modules) == []


def test_check_command_exits_1_when_out_of_date(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(compile_templates, "COMPILED_DIR", tmp_path)
    assert compile_templates.main(["--check"]) == 1
    assert compile_templates.main([]) == 0
    assert compile_templates.main(["--check"]) == 0
