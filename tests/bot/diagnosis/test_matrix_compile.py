"""bot/diagnosis/matrix/data/compiled.json (a wheel's, from collector/build_hook.py): equal to the YAML it comes from,
and never used once stale."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from bot.diagnosis import matrix
from bot.diagnosis.matrix import compile as compile_matrix


def from_yaml(directory: Path) -> matrix.Index:
    return matrix.load_merged(matrix.merged_yaml(sorted(directory.glob("*.yaml"))), directory)


def test_a_checkout_keeps_no_compiled_matrix() -> None:
    assert not (matrix.DATA_DIR / matrix.COMPILED_NAME).exists(), "nothing generated is kept in the repository"


def test_the_compiled_matrix_is_the_yaml_s_and_spares_the_yaml_parser(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data = copy_of_data(tmp_path)
    monkeypatch.setitem(sys.modules, "yaml", None)  # any `import yaml` now raises ImportError
    loaded = matrix.load(data)
    monkeypatch.delitem(sys.modules, "yaml")
    assert loaded.matrix == from_yaml(matrix.DATA_DIR).matrix


def copy_of_data(tmp_path: Path) -> Path:
    """The YAML files and, as a wheel has it, the JSON compiled from them."""
    shutil.copytree(matrix.DATA_DIR, tmp_path, dirs_exist_ok=True)
    assert compile_matrix.main(["-o", str(tmp_path / matrix.COMPILED_NAME)]) == 0
    return tmp_path


def test_an_edited_yaml_file_is_read_and_the_stale_json_ignored(tmp_path: Path) -> None:
    data = copy_of_data(tmp_path)
    gpus = data / "gpus.yaml"
    text = gpus.read_text(encoding="utf-8")
    assert '"NVIDIA GH200 480GB"' in text
    gpus.write_text(text.replace('"NVIDIA GH200 480GB"', '"NVIDIA GH200 144GB"'), encoding="utf-8")
    examples = [gpu.example for gpu in matrix.load(data).matrix.gpus]
    assert "NVIDIA GH200 144GB" in examples and "NVIDIA GH200 480GB" not in examples


@pytest.mark.parametrize("damage", ["{not json", '{"key": "0", "matrix": {}}', '{"key": null}', "[]"])
def test_a_damaged_compiled_json_falls_back_to_the_yaml(tmp_path: Path, damage: str) -> None:
    data = copy_of_data(tmp_path)
    (data / matrix.COMPILED_NAME).write_text(damage, encoding="utf-8")
    assert matrix.load(data).matrix == from_yaml(matrix.DATA_DIR).matrix


def test_a_compiled_matrix_whose_key_matches_is_taken_as_it_is(tmp_path: Path) -> None:
    """The key, not the content, decides: a JSON written for these very files is believed."""
    data = copy_of_data(tmp_path)
    document = json.loads((data / matrix.COMPILED_NAME).read_text(encoding="utf-8"))
    document["matrix"]["reviewed"] = "1999-01-01"
    (data / matrix.COMPILED_NAME).write_text(json.dumps(document), encoding="utf-8")
    assert matrix.load(data).matrix.reviewed == "1999-01-01"


def test_data_that_does_not_load_is_never_compiled(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    data = copy_of_data(tmp_path)
    (data / "features.yaml").write_text("features: 7\n", encoding="utf-8")
    monkeypatch.setattr(matrix, "DATA_DIR", data)
    target = tmp_path / "out.json"
    assert compile_matrix.main(["-o", str(target)]) == 2
    assert not target.exists()
