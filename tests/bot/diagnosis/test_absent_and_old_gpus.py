"""Machines with no NVIDIA GPU, and GPUs no torch wheel runs on: what the diagnosis says where the environment cannot
be "fixed" by a reinstall (bot/diagnosis/rules/build.py, rules/gpus.py)."""

from __future__ import annotations

import pytest

from bot.diagnosis.matrix import default
from bot.diagnosis.plan import read_clean
from bot.diagnosis.rules import advice
from collector.report.schema import GPUS
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
        # oobabooga/textgen#4763 (tune, fine): the CPU chosen with the application's --cpu flag; its sampler still
        # moved a tensor to CUDA.
        ("Broken for CPU only prob_topk = torch.softmax(sorted_logits, dim=0).to('cuda')", "When attempting to use "
         "CPU only with --cpu flag, textgen still forges ahead with the CUDA pathway\n"
         "    raise AssertionError(\"Torch not compiled with CUDA enabled\")"),
        # sh-lee-prml/HierSpeechpp#44 (tune, fine): a CPU-only machine; the project needs CUDA.
        ("Can this work on a cpu without cuda?", "This is the error I'm getting:\n"
         "AssertionError: Torch not compiled with CUDA enabled"),
        # pytorch/pytorch#151650 (tune, fine): Inductor asked for the CUDA arch in a CPU-only environment.
        ("[Inductor] Error getting cuda arch", "If you run the model with `torch.compile` in a non-cuda env, will get "
         "an error:\nError getting cuda arch: Torch not compiled with CUDA enabled"),
        # Rudrabha/Wav2Lip#502 (tune, fine): only Intel's integrated graphics, named as the PC's.
        ("Sorry I have a problem for intel R lris R Xe Graphics", "AssertionError: Torch not compiled with CUDA "
         "enabled\n\nMy PC is Intel R lris Xe Graphics ,help me"),
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
    # An Intel CPU named as the machine's is not its graphics.
    intel_cpu = "My machine has an Intel i9 and 64 GB of RAM\nTorch not compiled with CUDA enabled"
    assert first(plan(intel_cpu)) == ("cpu_only_wheel", "error")


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


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # STANet#57-like wording (tune): the GPU is named on the line that quotes the error; a GT 730 (sm_35) runs no
        # wheel of today's torch, so "no kernel image" means too old, not too new.
        ("I use NVIDIA Geforce GT 730 graphics card. I get the error \"RuntimeError: CUDA error: no kernel image is "
         "available for execution on the device\".", "gpu_too_old_for_cuda"),
        # KeyHunt-Cuda#53 (tune): a Kepler notebook part written without spaces, a program outside torch.
        ("CUDA 10.1 runtime with gt650m\nno kernel image is available for execution this device",
         "gpu_too_old_for_cuda"),
        # Pascal still has wheels (cu126): the text alone does not say which side of the build the GPU is on.
        ("Ubuntu 22.04, 1050gtx ti\nno kernel image is available for execution on the device", "gpu_arch_unsupported"),
        # A new GPU: kernels missing from an older build.
        ("RTX 3090: RuntimeError: CUDA error: no kernel image is available for execution on the device",
         "gpu_arch_unsupported"),
        # A Jetson's torch comes from NVIDIA's own wheels: no verdict from the pip wheels' arch lists.
        ("Jetson Nano: RuntimeError: CUDA error: no kernel image is available for execution on the device",
         "gpu_arch_unsupported"),
    ],
)  # fmt: skip
def test_no_kernel_image_on_a_gpu_todays_torch_dropped_is_too_old(body: str, expected: str) -> None:
    assert first(plan(body, "no kernel image")) == (expected, "warning")


@pytest.mark.parametrize(
    "line",
    [
        # turboderp-org/exllamav2#786 (tune); jhj0517/Whisper-WebUI#653 (tune, wrapped before "PyTorch installation.")
        "NVIDIA GeForce GTX 1080 Ti with CUDA capability sm_61 is not compatible with the current PyTorch "
        "installation.",
        "NVIDIA GeForce GTX 1080 Ti with CUDA capability sm_61 is not compatible with the current",
        "Found GPU0 NVIDIA GeForce GTX 1080 Ti which is of cuda capability 6.1.\n"
        "PyTorch no longer supports this GPU because it is too old.",
    ],
)
def test_torch_saying_the_gpu_is_below_its_build_is_decisive(line: str) -> None:
    assert first(plan(line, "CUDA error")) == ("gpu_too_old_for_cuda", "error")


def test_a_gpu_above_the_build_is_still_missing_kernels() -> None:
    line = "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch install"
    assert first(plan(line, "CUDA error")) == ("gpu_arch_unsupported", "error")


def test_a_gpu_the_error_names_as_an_example_is_not_the_users() -> None:
    def gpus(body: str) -> list[str]:
        return [gpu.name for gpu in read_clean(default(), body).report.get(GPUS) or []]

    example = ("ERROR: FP8 models require a GPU with Compute Capability 8.9 or higher (e.g., RTX 4090). Your GPU's "
               "capability is 8.6. Please select a non-FP8 model.")  # fmt: skip
    assert gpus(example) == []
    assert gpus("I use a GT 730 and get: CUDA error: no kernel image is available for execution on the device") == [
        "GT 730"
    ]


def test_the_newest_release_that_still_builds_for_an_old_gpu() -> None:
    matrix = default()
    k80 = advice.newest(matrix, ["3.7"], None)  # the cu118 wheels kept sm_37 until torch 2.7
    assert k80 is not None and (k80.variant, k80.release.series) == ("cu118", "2.7")
    pascal = advice.newest(matrix, ["6.1"], None)
    assert pascal is not None and pascal.variant == "cu126"
    assert advice.newest(matrix, ["3.5"], None) is None  # no release in the matrix runs on sm_35


@pytest.mark.parametrize(
    "body",
    [
        # xmrig/xmrig-cuda#21 (tune): a Fermi notebook GPU under a miner's CUDA 10.1 build.
        "My machine is a bit old.\n\nGPU: nVidia GEFORCE GT540M\nOS: Windows 7 X64\n"
        " * CUDA         disabled (no devices)",
        # lllyasviel/Fooocus#953 (tune): lspci's form, on the Fermi driver branch.
        "NVIDIA Corporation GF108M [GeForce GT 540M] (nvidia-legacy-390xx-driver)",
    ],
)
def test_a_fermi_notebook_gpu_is_older_than_every_cuda_build(body: str) -> None:
    assert first(plan(body))[0] == "gpu_too_old_for_cuda"
    names = [gpu.name for gpu in read_clean(default(), body).report.get(GPUS) or []]
    assert [name.upper().replace(" ", "") for name in names] == ["GT540M"]
