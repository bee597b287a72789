"""Platform probes on real captured files (a CPU box and a 2xH200 VM) and on known-shape variants."""

from __future__ import annotations

from pathlib import Path

import pytest

from collector.probes import platform
from collector.report.model import Fact
from tests.collector.conftest import make_context
from tests.conftest import FIXTURES, captured_output


def captured_tree(name: str) -> dict[str, str]:
    """tests/fixtures/<name>/proc__cpuinfo -> {"/proc/cpuinfo": text}."""
    return {
        "/" + path.name.replace("__", "/"): path.read_text()
        for path in (FIXTURES / name).iterdir()
        if "__" in path.name
    }


def value(result: object) -> object:
    assert isinstance(result, Fact), result
    return result.value


def test_cpu_box(tmp_path: Path) -> None:
    ctx = make_context(tmp_path, files=captured_tree("cpubox"))
    cpu = value(platform.cpu(ctx))
    assert cpu.model == "AMD EPYC" and (cpu.sockets, cpu.cores, cpu.threads) == (1, 2, 2)
    assert "avx512_bf16" in cpu.flags and "fpu" not in cpu.flags
    assert value(platform.operating_system(ctx)).distro == "Debian GNU/Linux 12 (bookworm)"
    limits = value(platform.limits(ctx))
    assert limits.cgroup_cpus is None, "cfs_quota_us = -1 means no CPU limit"
    assert limits.cgroup_memory_bytes is None, "a page-rounded LONG_MAX means no memory limit"
    assert limits.memory_bytes == 24684084 * 1024  # MemTotal in the captured /proc/meminfo


def test_h200_os_release_and_driver_module(tmp_path: Path) -> None:
    files = {
        "/etc/os-release": captured_output("h200", "osrel.txt"),
        "/proc/driver/nvidia/version": captured_output("h200", "proc-driver.txt"),
    }
    ctx = make_context(tmp_path, files=files)
    assert value(platform.operating_system(ctx)).distro == "Ubuntu 24.04.3 LTS"
    modules = value(platform.kernel_modules(ctx))
    assert (modules.nvidia, modules.flavour, modules.nouveau) == ("580.159.04", "open", False)


def test_proprietary_module_and_nouveau(tmp_path: Path) -> None:
    files = {
        "/proc/driver/nvidia/version": "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 "
        "01:15:15 UTC 2023\nGCC version:  gcc version 12.3.0\n",
        "/proc/modules": "nouveau 2658304 1 - Live 0x0000000000000000\ndrm 622592 4 nouveau, Live 0x0\n",
    }
    modules = value(platform.kernel_modules(make_context(tmp_path, files=files)))
    assert (modules.nvidia, modules.flavour, modules.nouveau) == ("535.104.05", "proprietary", True)


@pytest.mark.parametrize(
    ("release", "wsl"),
    [
        ("5.15.153.1-microsoft-standard-WSL2", 2),
        ("6.6.36.3-microsoft-standard-WSL2+", 2),
        ("4.4.0-19041-Microsoft", 1),
        ("6.8.0-45-generic", None),
    ],
)
def test_wsl_comes_from_the_kernel_release(tmp_path: Path, release: str, wsl: int | None) -> None:
    ctx = make_context(tmp_path, files={"/proc/sys/kernel/osrelease": release + "\n"})
    assert value(platform.runtime(ctx)).wsl == wsl


def test_host_named_microsoft_is_not_wsl(tmp_path: Path) -> None:
    ctx = make_context(
        tmp_path, files={"/proc/sys/kernel/osrelease": "6.8.0-45-generic"}, env={"HOSTNAME": "microsoft-1"}
    )
    assert value(platform.runtime(ctx)).wsl is None


@pytest.mark.parametrize(
    ("files", "env", "kind"),
    [
        ({"/.dockerenv": ""}, {}, "docker"),
        ({"/run/.containerenv": 'engine="podman-4.9.3"\n'}, {}, "podman"),
        ({}, {"KUBERNETES_SERVICE_HOST": "10.0.0.1"}, "kubernetes"),
        ({}, {"APPTAINER_CONTAINER": "/images/pytorch.sif"}, "apptainer"),
        ({}, {"SINGULARITY_CONTAINER": "/images/pytorch.sif"}, "singularity"),
        ({}, {"ENROOT_ROOTFS": "/tmp/enroot"}, "enroot"),
        ({"/proc/1/cgroup": "0::/kubepods/besteffort/pod1234/abcd\n"}, {}, "kubernetes"),
        ({"/proc/1/cgroup": "12:memory:/docker/3f1e2d\n"}, {}, "docker"),
        ({"/proc/1/cgroup": "0::/init.scope\n"}, {}, None),
    ],
)
def test_container_detection(tmp_path: Path, files: dict[str, str], env: dict[str, str], kind: str | None) -> None:
    assert value(platform.runtime(make_context(tmp_path, files=files, env=env))).container == kind


def test_jetson_and_slurm(tmp_path: Path) -> None:
    files = {"/etc/nv_tegra_release": "# R36 (release), REVISION: 3.0, GCID: 36191598, BOARD: generic, EABI: aarch64"}
    rt = value(platform.runtime(make_context(tmp_path, files=files, env={"SLURM_JOB_ID": "123"})))
    assert rt.jetson == "L4T R36.3.0" and rt.slurm_job is True


def test_hypervisor_from_dmi(tmp_path: Path) -> None:
    files = {"/sys/class/dmi/id/sys_vendor": "Amazon EC2\n", "/sys/class/dmi/id/product_name": "p5.48xlarge\n"}
    assert value(platform.runtime(make_context(tmp_path, files=files))).hypervisor == "Amazon EC2"


def test_cgroup_v2_limits(tmp_path: Path) -> None:
    files = {
        "/proc/self/cgroup": "0::/kubepods.slice/pod1\n",
        "/sys/fs/cgroup/kubepods.slice/pod1/cpu.max": "400000 100000\n",
        "/sys/fs/cgroup/kubepods.slice/pod1/memory.max": "68719476736\n",
    }
    limits = value(platform.limits(make_context(tmp_path, files=files)))
    assert (limits.cgroup_cpus, limits.cgroup_memory_bytes) == (4.0, 68719476736)


def test_os_facts_from_this_process_agree_with_the_platform_module(tmp_path: Path) -> None:
    import platform as stdlib_platform

    info = value(platform.operating_system(make_context(tmp_path, files={})))
    assert (info.system, info.machine, info.kernel) == (
        stdlib_platform.system(),
        stdlib_platform.machine(),
        stdlib_platform.release(),
    )
    name, version = stdlib_platform.libc_ver()
    assert info.glibc == (version if name == "glibc" else None)
