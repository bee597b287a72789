"""The torch child on Windows and macOS: the DLLs it reports, and its run without fork() or CUDA.

collector/child/envtriage_windows.py's module listing needs Windows itself (see the CI job); what it makes of the
paths is checked here on DLL names from real issues, and the torch child runs for real with its platform changed.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from collector.probes import interpreter
from collector.report.model import Fact, Missing
from collector.report.schema import SMOKE_KEYS, TORCH
from tests.collector.test_interpreter import HAS_TORCH, run_torch

CHILD = Path(interpreter.__file__).parents[1] / "child"


def child_module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, CHILD / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("path", "family"),
    [
        # tests/fixtures/pastes/collect_env-windows-1.txt (pytorch#51858): the toolkit's cuDNN 8
        (
            r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.7\bin\cudnn_ops_train64_8.dll",
            ("libcudnn_ops_train", "8"),
        ),
        # cuDNN 9's names, as torch's own error text gives them ("Could not locate cudnn_ops64_9.dll")
        (r"C:\ComfyUI\python_embeded\Lib\site-packages\torch\lib\cudnn_ops64_9.dll", ("libcudnn_ops", "9")),
        (r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v10.1\bin\cudnn64_7.dll", ("libcudnn", "7")),
        (r"C:\Windows\System32\nvcuda.dll", ("libcuda", None)),  # the driver's CUDA, found by torch's users as such
        # torch's own NVRTC shim, not NVIDIA's NVRTC (issues: "Error loading caffe2_nvrtc.dll")
        (r"E:\ComfyUI-Zluda\venv\Lib\site-packages\torch\lib\caffe2_nvrtc.dll", None),
        (r"C:\Windows\System32\KERNEL32.DLL", None),
    ],
)
def test_dll_names_become_library_families(path: str, family: tuple[str, str | None] | None) -> None:
    assert child_module("envtriage_windows").dll_family(path) == family


def test_windows_paths_find_their_site_packages() -> None:
    torch_child = child_module("torch_child")
    path = r"C:\ComfyUI\python_embeded\Lib\site-packages\torch\lib\cudnn_ops64_9.dll"
    assert torch_child._site_of(path) == r"C:\ComfyUI\python_embeded\Lib\site-packages"
    (entry,) = torch_child.describe_libraries([("libcudnn_ops", path, "9")])
    assert entry == {"name": "libcudnn_ops", "path": path, "version": "9"}


def test_the_module_list_is_windows_only() -> None:
    if sys.platform == "win32":
        modules = child_module("envtriage_windows").loaded_modules()
        assert modules and any(path.lower().endswith("python.exe") or "python" in path.lower() for path in modules)
    else:
        assert child_module("envtriage_windows").loaded_modules() is None


# Real torch, with the platform the child sees changed after it is imported: no fork() (Windows), and macOS's
# sys.platform. `import torch` returns what sys.modules holds once the shim has run, as for any module.
SHIM = """\
import os, sys
shim = sys.modules.pop("torch")
sys.path.remove({where!r})
import torch
del os.fork
sys.platform = "darwin"
"""


@pytest.mark.skipif(not HAS_TORCH, reason="torch is not installed in this environment")
@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="the shim deletes os.fork, which this OS lacks")
def test_the_torch_child_without_fork_skips_the_smoke_tests_and_reports_mps(tmp_path: Path) -> None:
    shadow = tmp_path / "shadow"
    (shadow / "torch").mkdir(parents=True)
    (shadow / "torch" / "__init__.py").write_text(SHIM.format(where=str(shadow)))
    results = run_torch(tmp_path, {"PYTHONPATH": str(shadow), "PATH": "/usr/bin:/bin"}, smoke="quick")
    torch = results[TORCH.name]
    assert isinstance(torch, Fact) and torch.value.mps_available is False  # no Apple GPU on this machine
    quick = results[SMOKE_KEYS[0].name]
    assert isinstance(quick, Missing) and quick.status == "skipped"
    assert quick.reason == "each smoke test runs in a forked process; Windows has no fork()"
