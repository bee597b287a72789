"""The nvidia-smi reader on real Windows and WSL2 pastes (tests/fixtures/windows, sources in its README.md)."""

from __future__ import annotations

import pytest

from bot.diagnosis.matrix import Index
from bot.diagnosis.readers import read_case
from collector.report.schema import DRIVER, GPUS
from tests.conftest import fixture_text


@pytest.mark.parametrize(
    ("name", "driver", "gpu", "memory_mib"),
    [
        ("nvidia-smi-driver-model-560.txt", "560.94", "NVIDIA GeForce RTX 4090", 24564),  # "Driver-Model" header
        ("nvidia-smi-tcc-wddm-531-quoted.txt", "531.14", "NVIDIA GeForce GTX 1080 Ti", 11264),  # "TCC/WDDM", "> "
        ("nvidia-smi-a-wsl2-wddm.txt", "510.06", "NVIDIA GeForce GTX 1650 Ti with Max-Q Design", None),  # -q text
        ("nvidia-smi-q-x-wddm-531.xml", "531.41", "NVIDIA GeForce RTX 3080 Ti", None),  # -q -x, cut mid-tag
    ],
)
def test_driver_model_is_read_from_every_shape(
    matrix: Index, name: str, driver: str, gpu: str, memory_mib: int | None
) -> None:
    report = read_case(matrix, fixture_text("windows", name)).report
    assert report.get(DRIVER) is not None and report.get(DRIVER).version == driver  # type: ignore[union-attr]
    (found,) = report.get(GPUS) or []
    assert (found.name, found.driver_model, found.memory_mib) == (gpu, "WDDM", memory_mib)
    assert found.persistence is None, "the column that says WDDM is not a persistence mode"


def test_windows_process_names_are_not_gpus(matrix: Index) -> None:
    report = read_case(matrix, fixture_text("windows", "nvidia-smi-q-processes-wddm.txt")).report
    assert report.get(GPUS) is None and report.get(DRIVER) is None


def test_linux_tables_have_no_driver_model(matrix: Index) -> None:
    gpus = read_case(matrix, fixture_text("pastes", "nvidia-smi-4.txt")).report.get(GPUS) or []
    assert gpus and all(gpu.driver_model is None and gpu.persistence is not None for gpu in gpus)
