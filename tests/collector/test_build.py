"""The wheel: built by hatchling with collector/build_hook.py, it carries the compiled templates and matrix that
the repository does not, and an installation from it uses them."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("hatchling", reason="building the wheel needs hatchling (the [test] extra has it)")
    out = tmp_path_factory.mktemp("wheel")
    argv = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(out), str(ROOT)]
    subprocess.run(argv, check=True, capture_output=True, timeout=300)
    (built,) = out.glob("envtriage-*.whl")
    return built


@pytest.fixture(scope="module")
def unpacked(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    return target


def test_the_wheel_carries_what_the_build_made_and_not_the_hook(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "bot/diagnosis/matrix/data/compiled.json" in names
    assert "collector/compiled_templates/jinja2-version" in names
    assert sum(name.startswith("collector/compiled_templates/tmpl_") for name in names) > 20
    assert "collector/templates/report.md.j2" in names
    assert "collector/build_hook.py" not in names
    assert not any(name.startswith("tests/") for name in names)


def run_installed(unpacked: Path, code: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(unpacked), "PYTHONDONTWRITEBYTECODE": "1"}
    # -I would drop PYTHONPATH; -P keeps the checkout (the working directory) off sys.path (3.11+).
    argv = [sys.executable, "-P", "-c", code]
    result = subprocess.run(argv, env=env, cwd=unpacked, capture_output=True, text=True, timeout=60, check=True)
    return result.stdout


def test_an_installed_wheel_renders_from_compiled_templates_and_reads_the_json_matrix(unpacked: Path) -> None:
    out = run_installed(
        unpacked,
        "import sys; sys.modules['yaml'] = None\n"  # the compiled matrix spares PyYAML
        "from collector import templating\n"
        "from bot.diagnosis import matrix\n"
        "t = templating.environment().get_template('report.md.j2')\n"
        "print(t.root_render_func.__code__.co_filename)\n"
        "print(matrix.load().matrix.reviewed)\n"
        "print(templating.__file__)\n",
    )
    code_file, reviewed, module = out.splitlines()
    assert code_file.startswith(str(unpacked / "collector" / "compiled_templates"))
    assert module.startswith(str(unpacked)), "the installed copy, not the checkout, was imported"
    assert reviewed
