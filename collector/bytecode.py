"""Imports from the one-file collector's bytecode, where it carries some for the running Python.

Python imports a zip archive's modules through zipimport, which compiles each from source at every run (it writes
no bytecode, and reads only a `name.pyc` beside `name.py`, one Python's): about 0.3 s of a 0.55 s run without torch.
The archive (collector/bundle.py) can carry each module's bytecode for several Pythons, in the usual
`__pycache__/NAME.cpython-3XY.pyc` places, listed in `bytecode.json`; this finder, installed by the archive's
`__main__.py` before anything else is imported, loads those. A module without bytecode for this Python, or whose
bytecode this Python does not accept, is compiled from its source as zipimport would.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import json
import marshal
import os
import sys
import zipimport
from types import CodeType, ModuleType
from typing import Sequence

MANIFEST = "bytecode.json"


def install() -> None:
    """Put the finder first, for the archive this module was imported from (no-op outside an archive)."""
    archive = os.path.dirname(os.path.dirname(__file__))
    tag = sys.implementation.cache_tag
    try:
        importer = zipimport.zipimporter(archive)
        listed = json.loads(importer.get_data(MANIFEST)).get(tag or "", [])
    except (zipimport.ZipImportError, OSError, ValueError):
        return
    if listed:
        sys.meta_path.insert(0, Finder(importer, archive, set(listed), str(tag)))


class Finder(importlib.abc.MetaPathFinder):
    def __init__(self, importer: zipimport.zipimporter, archive: str, sources: set[str], tag: str) -> None:
        self.importer = importer
        self.archive = archive
        self.sources = sources  # archive names of the sources that have bytecode for this Python
        self.tag = tag

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        leaf = fullname.rpartition(".")[2]
        if path is None:
            bases = [fullname.replace(".", "/")]
        else:  # a package's folder inside the archive, or Jinja2's ModuleLoader package over compiled_templates
            prefix = self.archive + os.sep
            bases = [p[len(prefix) :].replace(os.sep, "/") + "/" + leaf for p in path if p.startswith(prefix)]
        for base in bases:
            for source, package in ((base + "/__init__.py", True), (base + ".py", False)):
                if source in self.sources:
                    return self._spec(fullname, source, package)
        return None

    def _spec(self, fullname: str, source: str, package: bool) -> importlib.machinery.ModuleSpec:
        origin = os.path.join(self.archive, *source.split("/"))
        loader = Loader(self, source, origin)
        folders = [os.path.dirname(origin)] if package else None
        spec = importlib.util.spec_from_file_location(
            fullname, origin, loader=loader, submodule_search_locations=folders
        )
        assert spec is not None  # there is a loader
        return spec


class Loader(importlib.abc.InspectLoader):
    def __init__(self, finder: Finder, source: str, origin: str) -> None:
        self.finder = finder
        self.source = source  # its name in the archive
        self.origin = origin

    def exec_module(self, module: ModuleType) -> None:
        exec(self.get_code(module.__name__), module.__dict__)  # noqa: S102 - the archive's own module

    def get_code(self, fullname: str) -> CodeType:
        folder, _, name = self.source.rpartition("/")
        cached = "/".join(filter(None, [folder, "__pycache__", f"{name[:-3]}.{self.finder.tag}.pyc"]))
        data = self.get_data(cached)
        if data[:4] != importlib.util.MAGIC_NUMBER:  # a pre-release of this Python, say: from the source
            return compile(self.get_data(self.source), self.origin, "exec", dont_inherit=True)
        code = marshal.loads(data[16:])  # noqa: S302 - what collector/bundle.py compiled into the archive
        fix = getattr(__import__("_imp"), "_fix_co_filename", None)  # tracebacks name the file in the archive
        if fix is not None:
            fix(code, self.origin)
        return code  # type: ignore[no-any-return]

    def get_source(self, fullname: str) -> str:
        return importlib.util.decode_source(self.get_data(self.source))

    def get_data(self, path: str) -> bytes:
        data: bytes = self.finder.importer.get_data(path.replace("/", os.sep))
        return data

    def is_package(self, fullname: str) -> bool:
        return self.source.endswith("/__init__.py")

    def get_filename(self, fullname: str) -> str:
        return self.origin
