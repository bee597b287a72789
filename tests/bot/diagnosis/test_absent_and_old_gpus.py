"""Machines with no NVIDIA GPU, and GPUs no torch wheel runs on: what the diagnosis says where the environment cannot
be "fixed" by a reinstall (bot/diagnosis/rules/build.py, rules/gpus.py)."""

from __future__ import annotations

import pytest

from tests.bot.diagnosis.test_policy import first, plan


@pytest.mark.parametrize(
    ("title", "body"),
    [
        # datalab-to/chandra#11 (tune, fine): the code asked for CUDA on an Apple M2.
        ("Torch not compiled with CUDA enabled", "I am running it on mac with following specification\n\n"
         "Chipset Model: Apple M2\n\n  Error processing input.pdf: Torch not compiled with CUDA enabled"),
        # IndigoDosSantos/stable-cascade-one-click-installer#23 (tune, cpu_only_wheel): an M3 named in the title.
        ("MacBook Pro M3 Torch not compiled with CUDA enabled", "It shows an error \"Torch not compiled with CUDA "
         "enabled\" but MacOS doesn't support CUDA.\nAssertionError: Torch not compiled with CUDA enabled"),
        # amdegroot/ssd.pytorch#536 (tune, fine): no GPU at all, by choice; the code defaulted to CUDA.
        ("AssertionError: Torch not compiled with CUDA enabled", "When running the code without a CUDA Gpu and/or "
         "pytorch not compiled with it, the following error occurs: \"AssertionError: Torch not compiled with CUDA "
         "enabled\". The reason is that multibox_loss.py:35 sets the argument use_gpu per default to true."),
    ],
)  # fmt: skip
def test_without_an_nvidia_gpu_a_cpu_build_is_all_torch_has(title: str, body: str) -> None:
    result = plan(body, title)
    # torch without CUDA is what the issue is about, but no reinstall helps: a warning that earns no label and
    # gives no install command, with the way out (MPS on a Mac, the CPU).
    assert first(result) == ("cpu_only_wheel", "warning")
    top = result.findings[0]
    assert top.id == "cpu_only_wheel_no_gpu" and "--device cpu" in top.fix and "pip install" not in top.fix
    assert ("mps" in top.fix) == ("mac" in (title + body).lower())
    assert not set(result.labels) - {"needs-env"}
    # The same text on a PC with an NVIDIA GPU is the CPU-only wheel, as an error.
    assert first(plan("RTX 4070, Windows 11\nTorch not compiled with CUDA enabled")) == ("cpu_only_wheel", "error")


def test_a_gpu_no_wheel_runs_on_is_too_old_not_missing_kernels() -> None:
    # johnolafenwa/DeepStack#129 (tune): torch's own warning lists the wheel's archs; no torch wheel ever ran on sm_35
    # since, so "too old" is the cause and "no sm_35 kernels in this wheel" only its symptom.
    body = (
        "When I try to run deepstack with GPU enabled, I get:\n```\n"
        "/usr/local/lib/python3.7/dist-packages/torch/cuda/__init__.py:125: UserWarning: \n"
        "NVIDIA GeForce GT 710 with CUDA capability sm_35 is not compatible with the current PyTorch installation.\n"
        "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70 sm_75.\n```"
    )
    result = plan(body, "Enable sm_35 support in pytorch")
    assert first(result) == ("gpu_too_old_for_cuda", "error")
    assert result.findings[0].id == "gpu_unsupported_by_any_wheel"
    assert all(f.id != "gpu_arch_unsupported" for f in result.findings)  # the text's own finding may follow
