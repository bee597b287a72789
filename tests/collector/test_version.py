"""One version number, in pyproject.toml: what the report names as its generator."""

from __future__ import annotations

from pathlib import Path

import pytest

from collector import version as version_module


def declared() -> str:
    found = version_module.DECLARED.search(version_module.PYPROJECT.read_text(encoding="utf-8"))
    assert found is not None
    return found.group(1)


def test_the_installed_version_is_pyproject_s() -> None:
    assert version_module.version() == declared()


def test_a_checkout_never_installed_reads_pyproject(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import metadata

    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    assert version_module.version() == declared()
    monkeypatch.setattr(version_module, "PYPROJECT", Path("/nonexistent/pyproject.toml"))
    assert version_module.version() == "unknown"


def test_no_other_copy_of_the_number_in_the_packages() -> None:
    root = version_module.PYPROJECT.parent
    sources = [*root.glob("collector/**/*.py"), *root.glob("bot/**/*.py")]
    hits = [path for path in sources if f'"{declared()}"' in path.read_text()]
    assert hits == []
