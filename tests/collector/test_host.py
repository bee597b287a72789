"""collector/host.py: a test's tree keeps every path under its root, Windows' drive paths too."""

from __future__ import annotations

from pathlib import Path

from collector.host import Host


def test_a_windows_path_stays_under_a_test_root(tmp_path: Path) -> None:
    # Joined as pathlib joins them, "C:\..." would be the real C: drive on Windows (and a test would write there).
    path = Host(tmp_path).path("C:\\Windows\\System32\\nvidia-smi.exe")
    assert path.is_relative_to(tmp_path) and path.parts[len(tmp_path.parts)] == "C"


def test_posix_paths_are_under_the_root(tmp_path: Path) -> None:
    assert Host(tmp_path).path("/proc/cpuinfo") == tmp_path / "proc" / "cpuinfo"
    assert Host().path("/proc/cpuinfo") == Path("/proc/cpuinfo")


def test_the_real_host_reads_windows_paths_as_they_are() -> None:
    assert Host().path("C:\\Windows\\System32\\nvml.dll") == Path("C:\\Windows\\System32\\nvml.dll")
