"""Data files that ship inside the packages, read from a directory or from inside a zip archive.

The one-file collector (collector/bundle.py) is a zip archive that Python imports from: its data files (the
compiled templates' stamp, the merged matrix) have paths such as `envtriage-collect.pyz/collector/...`, which
the file system cannot open but the archive's zipimporter can.
"""

from __future__ import annotations

import zipimport
from pathlib import Path


def read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:  # ENOTDIR on POSIX, ENOENT on Windows, for a path inside an archive
        try:
            data: bytes = zipimport.zipimporter(str(path.parent)).get_data(str(path))
        except (zipimport.ZipImportError, OSError):  # not inside an archive either, or not in this one
            raise exc from None
        return data


def read_text(path: Path) -> str:
    return read_bytes(path).decode("utf-8")
