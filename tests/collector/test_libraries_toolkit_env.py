"""Library copies on the loader path, nvcc, and the environment allow-list."""

from __future__ import annotations

from pathlib import Path

from collector.probes import environment, libraries, toolkit
from collector.report.model import Fact, Missing
from tests.collector.conftest import FakeRunner, make_context, ok
from tests.conftest import captured, captured_output


def test_ldconfig_copies_from_a_real_h200(tmp_path: Path) -> None:
    ldconfig = captured("h200", "ldconfig.txt")
    runner = FakeRunner({("ldconfig", "-p"): ok(("ldconfig", "-p"), ldconfig.stdout)})
    result = libraries.library_copies(make_context(tmp_path, runner=runner))
    assert isinstance(result, Fact)
    names = {(copy.name, copy.path) for copy in result.value}
    assert ("libnvrtc", "/usr/local/cuda/targets/x86_64-linux/lib/libnvrtc.so.13") in names
    assert all(copy.found_via == "ldconfig" for copy in result.value)
    assert not any(copy.name == "libvdpau_nvidia" for copy in result.value)


def test_ld_library_path_copies_carry_their_version(tmp_path: Path) -> None:
    root = tmp_path / "root"
    lib = root / "usr/lib/x86_64-linux-gnu"
    lib.mkdir(parents=True)
    (lib / "libcudnn.so.9.14.0").write_text("")
    (lib / "libcudnn.so.9").symlink_to("libcudnn.so.9.14.0")
    ctx = make_context(tmp_path, env={"LD_LIBRARY_PATH": "/usr/lib/x86_64-linux-gnu:/nonexistent"})
    result = libraries.library_copies(ctx)
    assert isinstance(result, Fact)
    assert [(c.name, c.version, c.found_via) for c in result.value] == [("libcudnn", "9.14.0", "LD_LIBRARY_PATH")]


def test_nvcc_is_found_and_labelled_as_the_toolkit(tmp_path: Path) -> None:
    nvcc = "/usr/local/cuda/bin/nvcc"
    runner = FakeRunner({(nvcc, "--version"): captured("h200", "nvcc.txt")})
    ctx = make_context(tmp_path, files={nvcc: ""}, env={"PATH": "/usr/bin"}, runner=runner)
    result = toolkit.toolkit(ctx)
    assert isinstance(result, Fact)
    assert [(n.path, n.version, n.found_via) for n in result.value] == [(nvcc, "13.0.88", "default")]


def test_no_nvcc(tmp_path: Path) -> None:
    result = toolkit.toolkit(make_context(tmp_path, env={"PATH": "/usr/bin"}))
    assert isinstance(result, Missing) and "torch wheels do not need it" in result.reason


def test_environment_allow_list_from_a_real_h200(tmp_path: Path) -> None:
    env = dict(line.split("=", 1) for line in captured_output("h200", "env-cuda.txt").splitlines() if "=" in line)
    env.update({"HOME": "/root", "GITHUB_TOKEN": "ghp_x", "AWS_SECRET_ACCESS_KEY": "abc", "SSH_AUTH_SOCK": "/tmp/a"})
    result = environment.environment(make_context(tmp_path, env=env))
    assert isinstance(result, Fact)
    assert result.value["NCCL_NVLS_ENABLE"] == "0" and result.value["LD_LIBRARY_PATH"].startswith("/usr/local/nvidia")
    assert {"HOME", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "SSH_AUTH_SOCK", "PATH"}.isdisjoint(result.value)
