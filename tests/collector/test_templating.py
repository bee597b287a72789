"""Templates compiled by Jinja2 (as a wheel's build hook does) render as from source; a checkout compiles from
source; compiled modules from another Jinja2 release are not used."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from collector import build_hook, markdown, templating
from collector.report.model import from_json

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "h200-1gpu"


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("compiled_templates")
    build_hook.compile_templates(templating.template_dir(), target)
    return target


def code_file(env: jinja2.Environment, name: str) -> str:
    return env.get_template(name).root_render_func.__code__.co_filename


def test_every_template_but_the_html_pages_is_compiled(compiled: Path) -> None:
    names = templating.source_environment(templating.template_dir()).list_templates()
    modules = {path.name for path in compiled.glob("tmpl_*.py")}
    expected = [name for name in names if templating.compiled_ahead(name)]
    assert len(modules) == len(expected) > 20
    assert {jinja2.ModuleLoader.get_module_filename(name) for name in expected} == modules


def test_a_compiled_template_loads_from_its_module(compiled: Path) -> None:
    env = templating.build_environment(templating.template_dir(), compiled)
    assert Path(code_file(env, "report.md.j2")).parent == compiled
    assert "dashboard" not in str(compiled)  # the HTML pages come from source (they have their own environment)


@pytest.mark.parametrize("fixture", ["collector.json", "collector-deep.json", "broken-ld-cudnn.json"])
def test_compiled_and_source_templates_render_alike(
    fixture: str, compiled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = from_json((FIXTURES / fixture).read_text())
    from_source = markdown.render(report)
    env = templating.build_environment(templating.template_dir(), compiled)
    assert Path(code_file(env, "report.md.j2")).parent == compiled
    monkeypatch.setattr(templating, "environment", lambda: env)
    assert markdown.render(report) == from_source


def test_a_checkout_compiles_from_source() -> None:
    assert not templating.COMPILED_DIR.exists(), "nothing generated is kept in the repository"
    env = templating.environment()
    assert code_file(env, "report.md.j2") == str(templating.template_dir() / "report.md.j2")


def test_modules_compiled_by_another_jinja2_release_are_not_used(compiled: Path, tmp_path: Path) -> None:
    other = tmp_path / "compiled_templates"
    other.mkdir()
    for path in compiled.iterdir():
        other.joinpath(path.name).write_bytes(path.read_bytes())
    (other / templating.STAMP).write_text("2.11.3")
    source = str(templating.template_dir() / "check.txt.j2")
    assert code_file(templating.build_environment(templating.template_dir(), other), "check.txt.j2") == source
    (other / templating.STAMP).unlink()
    assert code_file(templating.build_environment(templating.template_dir(), other), "check.txt.j2") == source
