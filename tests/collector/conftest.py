"""Fakes for probes: a command runner answering from captured outputs, a host tree, and NVML."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from collector.context import Context, NvmlSession, NvmlUnavailable, Options
from collector.host import Host
from collector.run import CommandResult, Deadline
from tests.conftest import fixture_text


class FakeRunner:
    """Answers argv tuples from a table; anything else is "not found". Records every call."""

    def __init__(self, answers: Mapping[tuple[str, ...], CommandResult] | None = None) -> None:
        self.answers = dict(answers or {})
        self.calls: list[tuple[str, ...]] = []

    def __call__(self, argv: Sequence[str], timeout: float) -> CommandResult:
        key = tuple(argv)
        self.calls.append(key)
        if key in self.answers:
            return self.answers[key]
        return CommandResult(key, None, "", "", 0.0, not_found=True)


def ok(argv: Iterable[str], stdout: str, returncode: int = 0) -> CommandResult:
    return CommandResult(tuple(argv), returncode, stdout, "", 0.01)


def host_tree(root: Path, files: Mapping[str, str]) -> Host:
    host = Host(root)
    for path, text in files.items():
        target = host.path(path)  # "C:\\Windows\\..." stays under root, on Windows too
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return host


def no_nvml() -> Any:
    raise NvmlUnavailable("nvmlInit failed: NVML Shared Library Not Found")


def make_context(
    tmp_path: Path,
    files: Mapping[str, str] | None = None,
    env: Mapping[str, str] | None = None,
    runner: FakeRunner | None = None,
    nvml: Callable[[], Any] = no_nvml,
    options: Options | None = None,
    platform: str = "linux",
) -> Context:
    # The captured host trees and outputs are Linux's, whatever OS the tests run on; other OSes are simulated.
    return Context(
        run=runner or FakeRunner(),
        host=host_tree(tmp_path / "root", files or {}),
        env=dict(env or {}),
        options=options or Options(python="python3", smoke="none", timeout=10.0),
        deadline=Deadline(10.0),
        nvml=NvmlSession(nvml),
        platform=platform,
    )


class NVMLError(Exception):
    pass


class FakeNvml:
    """The slice of pynvml the probes use, answering from a probe captured on a real 2xH200 host.

    The capture (tests/fixtures/h200/pynvml-probe.txt) holds per-GPU values, NVLink states, the topology
    common-ancestor level and the P2P status between GPU0 and GPU1.
    """

    NVMLError = NVMLError
    NVML_MEMORY_ERROR_TYPE_UNCORRECTED = 1
    NVML_VOLATILE_ECC = 0
    NVML_P2P_CAPS_INDEX_READ = 0
    NVML_NVLINK_MAX_LINKS = 18

    def __init__(self, probe: dict[str, Any], mig: dict[int, list[tuple[str, int]]] | None = None) -> None:
        self.probe = probe
        self.gpus = probe["gpus"]
        self.mig = mig or {}

    @classmethod
    def from_fixture(cls) -> FakeNvml:
        text = fixture_text("h200", "pynvml-probe.txt")
        return cls(json.loads(text[text.index("{") : text.rindex("}") + 1]))

    def _gpu(self, handle: Any) -> dict[str, Any]:
        return self.gpus[handle] if isinstance(handle, int) else handle

    def nvmlSystemGetDriverVersion(self) -> str:
        return str(self.probe["driver"])

    def nvmlSystemGetCudaDriverVersion_v2(self) -> int:
        return int(self.probe["cuda_driver"])

    def nvmlSystemGetNVMLVersion(self) -> str:
        return str(self.probe["nvml"])

    def nvmlDeviceGetCount(self) -> int:
        return len(self.gpus)

    def nvmlDeviceGetHandleByIndex(self, index: int) -> int:
        return index

    def nvmlDeviceGetName(self, handle: Any) -> str:
        return str(self._gpu(handle)["name"])

    def nvmlDeviceGetCudaComputeCapability(self, handle: int) -> tuple[int, int]:
        major, minor = self.gpus[handle]["cc"]
        return major, minor

    def nvmlDeviceGetMemoryInfo(self, handle: Any) -> Any:
        return type("Memory", (), {"total": self._gpu(handle)["mem"]})()

    def nvmlDeviceGetUUID(self, handle: int) -> str:
        return str(self.gpus[handle]["uuid"])

    def nvmlDeviceGetPciInfo(self, handle: int) -> Any:
        return type("Pci", (), {"busId": f"00000000:00:{6 + handle:02X}.0"})()

    def nvmlDeviceGetArchitecture(self, handle: int) -> int:
        return 9

    def nvmlDeviceGetMigMode(self, handle: int) -> list[int]:
        return list(self.gpus[handle]["mig"])

    def nvmlDeviceGetMaxMigDeviceCount(self, handle: int) -> int:
        return len(self.mig.get(handle, []))

    def nvmlDeviceGetMigDeviceHandleByIndex(self, handle: int, slot: int) -> dict[str, Any]:
        profile, mib = self.mig[handle][slot]
        return {"name": f"NVIDIA H200 MIG {profile}", "mem": mib * 1024 * 1024}

    def nvmlDeviceGetEccMode(self, handle: int) -> list[int]:
        return [self.gpus[handle]["ecc"], self.gpus[handle]["ecc"]]

    def nvmlDeviceGetTotalEccErrors(self, handle: int, kind: int, counter: int) -> int:
        return 0

    def nvmlDeviceGetPersistenceMode(self, handle: int) -> int:
        return int(self.gpus[handle]["persistence"])

    def nvmlDeviceGetCurrPcieLinkGeneration(self, handle: int) -> int:
        return int(self.gpus[handle]["pcie_gen"])

    def nvmlDeviceGetCurrPcieLinkWidth(self, handle: int) -> int:
        return int(self.gpus[handle]["pcie_width"])

    def nvmlDeviceGetMaxPcieLinkGeneration(self, handle: int) -> int:
        return int(self.gpus[handle]["pcie_gen"])

    def nvmlDeviceGetMaxPcieLinkWidth(self, handle: int) -> int:
        return int(self.gpus[handle]["pcie_width"])

    def nvmlDeviceGetNvLinkState(self, handle: int, link: int) -> int:
        links = dict(map(tuple, self.gpus[handle]["nvlink"]))
        if link not in links:
            raise NVMLError("Not Supported")
        return int(links[link])

    def nvmlDeviceGetNvLinkRemotePciInfo_v2(self, handle: int, link: int) -> Any:
        # On the captured host each GPU's 18 links all lead to the other GPU (topo -m: NV18).
        return self.nvmlDeviceGetPciInfo(1 - handle)

    def nvmlDeviceGetTopologyCommonAncestor(self, first: int, second: int) -> int:
        return int(self.probe["topo01"])

    def nvmlDeviceGetP2PStatus(self, first: int, second: int, index: int) -> int:
        return int(self.probe["p2p_nvlink01"])

    def nvmlDeviceGetCpuAffinity(self, handle: int, words: int) -> list[int]:
        return [(1 << 32) - 1] + [0] * (words - 1)


@pytest.fixture
def fake_nvml() -> FakeNvml:
    return FakeNvml.from_fixture()
