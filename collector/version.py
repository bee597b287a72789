"""The collector's own version, printed in every report so maintainers know what produced it.

The number lives in pyproject.toml only: an installation reads it from its metadata, a checkout from the file.
"""

from __future__ import annotations

import re
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
DECLARED = re.compile(r'^version = "([^"\n]+)"$', re.M)


def version() -> str:
    from importlib import metadata

    try:
        return metadata.version("envtriage")
    except metadata.PackageNotFoundError:  # a checkout that was never installed, or a copy of the sources
        pass
    try:
        found = DECLARED.search(PYPROJECT.read_text(encoding="utf-8"))
    except OSError:
        found = None
    return found.group(1) if found else "unknown"
