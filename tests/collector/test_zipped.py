"""collector/zipped.py: a data file read the same from a folder and from inside a zip archive Python imports from."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from collector import zipped


def test_a_file_in_a_folder_is_read_from_the_file_system(tmp_path: Path) -> None:
    (tmp_path / "stamp").write_bytes(b"3.1.6")
    assert zipped.read_bytes(tmp_path / "stamp") == b"3.1.6"


def test_a_file_inside_an_archive_is_read_through_the_archive(tmp_path: Path) -> None:
    archive = tmp_path / "envtriage-collect.pyz"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("bot/diagnosis/matrix/data/compiled.json", '{"key": "k"}')
    assert zipped.read_text(archive / "bot/diagnosis/matrix/data/compiled.json") == '{"key": "k"}'


def test_what_is_in_neither_raises_the_file_systems_error(tmp_path: Path) -> None:
    archive = tmp_path / "a.pyz"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("collector/x", "")
    with pytest.raises(OSError):
        zipped.read_bytes(archive / "collector" / "missing")
    with pytest.raises(FileNotFoundError):
        zipped.read_bytes(tmp_path / "no-such-folder" / "stamp")
