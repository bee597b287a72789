"""The machine's files as probes see them. Tests point `root` at a tree built from captured files."""

from __future__ import annotations

import ntpath
import os
from pathlib import Path


class Host:
    def __init__(self, root: str | os.PathLike[str] = "/") -> None:
        self.root = Path(root)
        self.real = self.root == Path("/")

    def path(self, path: str) -> Path:
        drive, rest = ntpath.splitdrive(path) if path[1:2] == ":" else ("", path)
        if drive and self.real:  # a Windows path ("C:\\Windows\\..."), on the machine itself
            return Path(path)
        # Under a test's root its drive is a folder: pathlib would otherwise join "C:\\..." as the real C: drive.
        return self.root / drive[:1] / rest.lstrip("/\\")

    def read(self, path: str, limit: int = 1 << 20) -> str | None:
        """The text of a file, or None when it is absent or unreadable."""
        try:
            with self.path(path).open("rb") as handle:
                return handle.read(limit).decode("utf-8", errors="replace")
        except OSError:
            return None

    def exists(self, path: str) -> bool:
        return os.path.lexists(self.path(path))

    def listdir(self, path: str) -> list[str]:
        try:
            return sorted(os.listdir(self.path(path)))
        except OSError:
            return []

    def filesystem_size(self, path: str) -> int | None:
        if not hasattr(os, "statvfs"):  # POSIX only: Windows has none
            return None
        try:
            stat = os.statvfs(self.path(path))
        except OSError:
            return None
        return stat.f_frsize * stat.f_blocks
