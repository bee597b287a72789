"""Drivers and library copies that do not fit together: ONNX Runtime's CUDA provider missing a DLL it depends on,
the kernel module and libcuda from two driver versions, "driver version is insufficient" where there is no NVIDIA GPU,
an older NCCL loaded in torch's place."""

from __future__ import annotations

import pytest

from bot.diagnosis.matrix import default
from bot.diagnosis.plan import triage
from tests.bot.diagnosis.test_loaders_and_runtimes import rows
from tests.bot.diagnosis.test_other_stacks import top


@pytest.mark.parametrize(
    "text",
    [
        # Mikubill/sd-webui-controlnet#2687 (tune), the log line as pasted
        "2024-03-07 19:20:32.0351307 [E:onnxruntime:Default, provider_bridge_ort.cc:1548 "
        "onnxruntime::TryGetProviderInfo_CUDA] "
        "D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1209 "
        'onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 "" when '
        'trying to load "E:\\Programmes\\AI\\webui\\venv\\lib\\site-packages\\onnxruntime\\capi\\'
        'onnxruntime_providers_cuda.dll"',
        # cassiebreviu/StableDiffusion#4 (tune), a .NET sample's wording
        "[ErrorCode:RuntimeException] D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1106 "
        'onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 "" when '
        'trying to load "E:\\Development\\net6.0\\runtimes\\win-x64\\native\\onnxruntime_providers_cuda.dll"',
    ],
)
def test_onnxruntimes_cuda_provider_missing_a_dll_it_depends_on(text: str) -> None:
    found, severity, _ = top(text)
    assert (found, severity) == ("library_shadowing", "warning")
    # Another DLL that fails with error 126 is not ONNX Runtime's CUDA provider.
    assert "library_shadowing" not in rows('LoadLibrary failed with error 126 "" when trying to load "C:\\x\\foo.dll"')


@pytest.mark.parametrize(
    "text",
    [
        # jax-ml/jax#11477 (tune): the driver upgraded while the old kernel module stayed loaded.
        "kernel version 515.48.7 does not match DSO version 510.73.5 -- cannot find working devices in this "
        "configuration",
        # TensorFlow's own log line, as a notebook printed it
        "2021-09-13 23:57:29.694695: E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:306] kernel version "
        "460.56.0 does not match DSO version 470.57.2 -- cannot find working devices in this configuration",
    ],
)
def test_the_kernel_module_and_libcuda_from_two_driver_versions(text: str) -> None:
    found, severity, _ = top(text)
    assert (found, severity) == ("driver_not_loaded", "error")
    # Inside WSL, Linux driver packages installed in the distribution are the cause: WSL's finding.
    assert top(f"On WSL2 Ubuntu:\n{text}")[0] == "wsl_specific"


@pytest.mark.parametrize(
    "text",
    [
        # open-edge-platform/geti#155 (tune): a GPU build of torch on a computer with no NVIDIA GPU.
        "I run the python demo with a CPU only computer and get\nTHCudaCheck FAIL file=/pytorch/aten/src/THC/"
        "THCGeneral.cpp line=74 error=35 : CUDA driver version is insufficient for CUDA runtime version",
        # myshell-ai/OpenVoice#234 (tune): an AMD card.
        "RuntimeError: CUDA failed with error CUDA driver version is insufficient for CUDA runtime version\n"
        "Windows 11 Pro 64 bit\nGPU: Radeon RX 580 Series",
    ],
)
def test_driver_insufficient_where_there_is_no_nvidia_gpu_is_no_driver(text: str) -> None:
    assert top(text)[0] == "driver_not_loaded"
    # With an NVIDIA GPU named, the same text is a driver older than the runtime.
    assert top(text.replace("Radeon RX 580 Series", "GeForce GTX 1080").replace("CPU only computer", "PC"))[0] == (
        "driver_too_old"
    )


def test_an_older_nccl_loaded_in_torchs_place_is_nccl_installed_twice() -> None:
    # rwth-i6/returnn#1802, VichyTong/CodeJudge#2 (tune): nvidia-nccl-cu11 beside torch's nvidia-nccl-cu12.
    text = "ImportError: /usr/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: ncclMemFree"
    found, severity, fix = top(text)
    assert (found, severity) == ("mixed_installs", "warning") and "nvidia-nccl-cu11" in fix
    # Where the prose points at the loader's path, it is that path's copy.
    assert top(f"{text}\nI have LD_LIBRARY_PATH=/usr/local/nccl/lib set in my .bashrc")[0] == "library_shadowing"


THOR_REPORT = """\
PyTorch version              : 2.10.0+cu130
CUDA used to build PyTorch   : 13.0
Python platform              : Linux-6.8.12-tegra-aarch64-with-glibc2.39
Is CUDA available            : {available}
CUDA runtime version         : 13.0.48
GPU models and configuration : GPU 0: NVIDIA Thor
Nvidia driver version        : 580.00
"""


def test_a_driver_that_runs_the_build_is_not_too_old_for_it() -> None:
    # vllm-project/vllm#34470 (tune): JetPack 7's 580.00 driver is below the desktop CUDA 13.0 toolkit's 580.65.06,
    # yet torch's CUDA works on it (minor version compatibility): CUDA available is the driver running the build.
    ids = {f.id for f in triage(default(), THOR_REPORT.format(available="True")).findings}
    assert "driver_too_old" not in ids
    # Where CUDA is not available, the same versions still say the driver is too old.
    found = {f.id: f.severity for f in triage(default(), THOR_REPORT.format(available="False")).findings}
    assert found.get("driver_too_old") == "error"
