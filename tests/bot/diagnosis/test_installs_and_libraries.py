"""Texts about which copy of a package or library is in use (xFormers for another torch, onnxruntime's shared
directory, Windows' per-user site-packages, a self-built package shadowed by a wheel) and other stacks' memory and
driver texts (Vulkan, TensorFlow's cuDNN handle, cuFFT, Omniverse Kit, the container toolkit, NVENC)."""

from __future__ import annotations

import pytest

from tests.bot.diagnosis.test_other_stacks import top
from tests.bot.diagnosis.test_policy import plan


def test_xformers_built_for_another_cuda_torch_is_a_mixed_install() -> None:
    # facebookresearch/xformers#664 (tune): the application's venv kept its own older torch.
    found, severity, fix = top(
        "xFormers was built for:\n    PyTorch 1.13.1+cu117 with CUDA 1107 (you have 1.12.1+cu113)"
    )
    assert (found, severity) == ("mixed_installs", "error") and "xformers" in fix
    # The same build on both sides is not a mismatch; a +cpu torch is the CPU-only wheel.
    assert top("    PyTorch 1.13.1+cu117 with CUDA 1107 (you have 1.13.1+cu117)")[0] != "mixed_installs"
    assert top("    PyTorch 2.0.1+cu118 with CUDA 1108 (you have 2.0.1+cpu)")[0] == "cpu_only_wheel"


def test_onnxruntime_left_without_its_classes() -> None:
    # microsoft/onnxruntime#3326 (tune): uninstalling the CPU package after installing onnxruntime-gpu.
    found, _, fix = top("AttributeError: module 'onnxruntime' has no attribute 'InferenceSession'")
    assert found == "mixed_installs" and "pip uninstall -y onnxruntime onnxruntime-gpu" in fix


def test_torch_from_the_windows_user_site() -> None:
    # tin2tin/Pallaidium#85 (tune): Blender's Python imported torch from %APPDATA%\Python.
    frame = '  File "C:\\Users\\USER\\AppData\\Roaming\\Python\\Python310\\site-packages\\torch\\__init__.py", line 457'
    found, _, fix = top(frame + "\nNameError: name '_C' is not defined")
    assert found == "mixed_installs" and "PYTHONNOUSERSITE" in fix
    # Another package in the user site says nothing about the build.
    assert top(frame.replace("torch", "requests"))[0] != "mixed_installs"


@pytest.mark.parametrize(
    "body",
    [
        # dmlc/xgboost#3030 (tune): built with -DUSE_CUDA=ON, yet a CPU build is loaded.
        "$ cmake .. -DUSE_CUDA=ON\n$ make -j\nXGBoostError: XGBoost version not compiled with GPU support.",
        # niconielsen32/ComputerVision#6 (tune): a self-built CUDA OpenCV, the error from the pip wheel's build tree.
        "After succesfully building OpenCV with CUDA support for python I get this error:\nerror: (-216:No CUDA "
        "support) The library is compiled without CUDA support",
    ],
)
def test_a_package_the_reporter_built_with_cuda_reported_without_it_is_another_copy(body: str) -> None:
    assert top(body)[0] == "mixed_installs"
    # Without the words about building it, the text is the package's CPU-only build.
    assert top(body.split("\n")[-1])[0] == "cpu_only_wheel"


def test_words_about_building_with_cuda_make_no_finding_alone() -> None:
    # NVlabs/stylegan2-ada-pytorch#84 (tune): "I built it with CUDA 10.1" is not a mixed install by itself.
    result = plan("it requires CUDA 11 or later but I built it with CUDA 10.1")
    assert all(f.category != "mixed_installs" for f in result.findings)


@pytest.mark.parametrize(
    ("line", "category"),
    [
        ("ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory", "oom_or_memory"),
        ("Vulkan Error, code=-2: VK_ERROR_OUT_OF_DEVICE_MEMORY", "oom_or_memory"),
        ("E tensorflow/stream_executor/cuda/cuda_dnn.cc:328] Could not create cudnn handle: "
         "CUDNN_STATUS_INTERNAL_ERROR", "oom_or_memory"),
        ("Failed to get convolution algorithm. This is probably because cuDNN failed to initialize, so try looking",
         "oom_or_memory"),
        ("RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR", "gpu_arch_unsupported"),
        # triton-lang/triton#8539 (tune): Triton's bundled ptxas older than DGX Spark's sm_121a.
        ("ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'", "gpu_arch_unsupported"),
        ("[Error] [gpu.foundation.plugin] The currently installed NVIDIA graphics driver is unsupported or has known "
         "issues.", "driver_too_old"),
        ("RuntimeError：LoadNvEncAPI：Current Driver Version does not support this NvEncodeAPI version, please "
         "upgrade driver", "driver_too_old"),
        # NixOS/nixos-hardware#1880 (tune): the 595 driver ignores a Pascal GPU; the legacy 580 branch binds it.
        ("                           NVRM:  supported through the NVIDIA 580.xx Legacy drivers. Please",
         "driver_not_loaded"),
        # cedricxie/apollo_perception_ros#20 (tune): the host's driver, not the toolkit.
        ("stderr: nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown.",
         "driver_not_loaded"),
    ],
)  # fmt: skip
def test_other_stacks_memory_and_driver_texts(line: str, category: str) -> None:
    assert top(line)[0] == category


def test_tensorflow_cudnn_handle_fix_speaks_of_memory_growth_not_torch() -> None:
    fix = top("Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR")[2]
    assert "memory growth" in fix and "PYTORCH_CUDA_ALLOC_CONF" not in fix


def test_ptxas_fix_points_triton_at_a_newer_ptxas() -> None:
    assert "TRITON_PTXAS_PATH" in top("ptxas fatal : Value 'sm_120' is not defined for option 'gpu-name'")[2]


def test_cufft_fix_names_the_cuda_that_fixed_it() -> None:
    fix = top("CUFFT_INTERNAL_ERROR on RTX4090")[2]
    assert "11.8" in fix and "sm_89" in fix


def test_other_container_toolkit_errors_stay_container_problems() -> None:
    line = "nvidia-container-cli: initialization error: WSL environment detected but no adapters were found"
    assert top(line)[0] in ("container_runtime", "wsl_specific")


@pytest.mark.parametrize(
    "line",
    [
        # songlab-cal/tape-neurips2019#17, torch/distro#80, jhj0517/Whisper-WebUI#102, yolact_edge#186 (tune)
        "ImportError: libcublas.so.9.0: cannot open shared object file",
        "`libcublas.so.6.5: cannot open shared object file: No such file or directory`",
        'Error: Library cublas64_12.dll is not found or cannot be loaded"',
        "RuntimeError: nvrtc: error: failed to open libnvrtc-builtins.so.11.1.",
        "FileNotFoundError: Could not find: nvinfer.dll. Is it on your PATH?",
        # openpose#153 (tune): two cuDNN copies on the path.
        "Check failed: status == CUDNN_STATUS_SUCCESS (3 vs. 0)  CUDNN_STATUS_BAD_PARAM",
        # apapiu/guided-diffusion-keras#8 (tune): TensorFlow found no cuDNN it can use.
        "UNIMPLEMENTED: DNN library is not found.",
    ],
)
def test_a_cuda_library_of_another_release_is_what_the_loader_finds(line: str) -> None:
    assert top(line)[0] == "library_shadowing"


def test_the_drivers_own_library_is_not_a_toolkit_library() -> None:
    assert top("OSError: libcuda.so.1: cannot open shared object file: No such file or directory")[0] != (
        "library_shadowing"
    )


def test_lightgbm_without_its_gpu_learner_is_its_cpu_build() -> None:
    # lightgbm-org/LightGBM#6631 (tune): the pip wheel has no CUDA tree learner.
    result = plan(
        "[Fatal] CUDA Tree Learner was not enabled in this build.\nPlease recompile with CMake option -DUSE_CUDA=1"
    )
    top_finding = next(f for f in result.findings if f.severity != "info")
    assert top_finding.category == "cpu_only_wheel" and "LightGBM" in top_finding.title + top_finding.fix
