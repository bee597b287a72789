"""Texts about what failed to load or start: torch's dummy CUDA classes, Paddle's and jaxlib's cuDNN loaders,
cuBLASLt's symbol versions, a compiled extension's typeinfo or torch's split CUDA library, a container on a Windows
host whose runtime is older than the driver, a library asked for by its unversioned name or inside a companion's
traceback, NCCL older than its caller, a driver API function the driver lacks, WSL 1 and WSL's own messages, and
words run into CJK prose."""

from __future__ import annotations

import pytest

from tests.bot.diagnosis.test_other_stacks import top
from tests.bot.diagnosis.test_policy import plan


def rows(body: str) -> set[str]:
    """The categories error rows find in `body` (not the learned fallback's guess, which any words may move)."""
    return {f.category or "" for f in plan(body).findings if f.id == "known_error"}


@pytest.mark.parametrize("name", ["CUDAGraph", "Stream", "Event"])
def test_torchs_dummy_cuda_classes_mean_a_cpu_only_build(name: str) -> None:
    # Roblox/cube#62, pytorch/pytorch#159744 (tune): torch.cuda's classes stand on dummies without CUDA.
    found, severity, _ = top(f"RuntimeError: Tried to instantiate dummy base class {name}")
    assert (found, severity) == ("cpu_only_wheel", "error")
    # Another backend's dummy class says nothing about CUDA.
    assert "cpu_only_wheel" not in rows("RuntimeError: Tried to instantiate dummy base class XPUGraph")


def test_paddle_not_finding_cudnn_is_the_library_path() -> None:
    # opendatalab/PDF-Extract-Kit#77, PaddlePaddle/PaddleOCR#300 (tune): cuDNN outside LD_LIBRARY_PATH.
    text = (
        "RuntimeError: (PreconditionNotMet) Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion.\n"
        "  [Hint: cudnn_dso_handle should not be null.] (at ../paddle/phi/backends/dynload/cudnn.cc:76)"
    )
    found, severity, fix = top(text)
    assert (found, severity) == ("library_shadowing", "warning") and "LD_LIBRARY_PATH" in fix


@pytest.mark.parametrize(
    "text",
    [
        "libcublasLt.so.11 not defined",  # Skylark0924/Rofunc#36's title
        "OSError: ... symbol free_gemm_select version libcublasLt.so.11 not defined",  # Sara-Ahmed/SiT#12
    ],
)
def test_cublaslt_symbol_versions_cut_short(text: str) -> None:
    assert top(text)[0] == "library_shadowing"
    # The library named in a sentence is not the loader's message.
    assert "library_shadowing" not in rows("we link against libcublasLt.so.11 not defined elsewhere")


def test_an_extension_missing_a_torch_class_typeinfo_was_built_for_another_torch() -> None:
    # Lightning-AI/pytorch-lightning#1620 (tune): horovod from a pip cache built against an older torch.
    text = (
        "ImportError: /opt/hostedtoolcache/Python/3.6.10/x64/lib/python3.6/site-packages/horovod/torch/"
        "mpi_lib_v2.cpython-36m-x86_64-linux-gnu.so: undefined symbol: _ZTIN3c1021AutogradMetaInterfaceE"
    )
    assert top(text)[0] == "mixed_installs"


def test_cuda_error_500_at_init_in_a_container_is_the_runtime_on_a_windows_host() -> None:
    # YanWenKun/ComfyUI-Docker#74, jhj0517/Whisper-WebUI#279 (tune): updating Docker Desktop fixed it.
    text = (
        "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling "
        "NumCudaDevices() that might have already set an error? Error 500: named symbol not found"
    )
    found, severity, fix = top(text)
    assert (found, severity) == ("container_runtime", "warning") and "Docker Desktop" in fix
    # A kernel's own symbol not found in a module is no container matter.
    assert "container_runtime" not in rows("cuModuleGetFunction failed: named symbol not found")


def test_torchvisions_nms_retold_without_its_namespace() -> None:
    # xg-chu/CrowdDet#15 (tune): torchvision not paired with torch 1.5.
    assert top("I got no operator nms Exception when calling torchvision.nms")[0] == "torchvision_mismatch"
    assert "torchvision_mismatch" not in rows("there is no operator nms in my own code")


def test_drivers_said_to_be_too_old_in_words() -> None:
    # googlecolab/colabtools#3333 (tune): Blender's OptiX needs a newer driver than the runtime had.
    result = plan("Nvidia drivers are too old. Please update for Optix support", "")
    assert result.findings[0].category == "driver_too_old"


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # RVC-Project/Retrieval-based-Voice-Conversion-WebUI#2563 (tune): the number before the brand.
        ("RVC-beta0717 not working with 5090 rtx ?", "gpu_arch_unsupported"),
        # rosinality/stylegan2-pytorch#355 (tune): nvcc's architecture without quotes or underscore.
        ("nvcc fatal: Unsupported gpu architecture compute86", "gpu_arch_unsupported"),
        # InternLM/xtuner#255 (tune): the exception's type without its module, as a title.
        ("inference CUDA OutOfMemoryError", "oom_or_memory"),
        # OHF-Voice/wyoming-faster-whisper#30 (tune): CTranslate2's Linux wording.
        ("RuntimeError: Library libcublas.so.12 is not found or cannot be loaded", "library_shadowing"),
        # karpathy/neuraltalk2#110 (tune): Lua Torch's cudnn.torch names the release it wants.
        ("libcudnn (R5) not found in library path.", "library_shadowing"),
    ],
)
def test_retold_and_shortened_forms(text: str, category: str) -> None:
    assert top(text)[0] == category


def test_a_library_asked_for_by_its_unversioned_name() -> None:
    # pytorch/vision#7423 (tune; root cause pytorch/pytorch#97041): cuDNN 8 dlopens plain libnvrtc.so.
    text = (
        "# Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared object file: "
        "No such file or directory"
    )
    assert top(text)[0] == "library_shadowing"
    # The loader's wording is the evidence, not the name in a sentence.
    assert "library_shadowing" not in rows("we dlopen libnvrtc.so when the kernel is compiled")


def test_wsl_messages_on_their_own_line_are_one_fact_not_two() -> None:
    # microsoft/WSL#40715 (tune, fine): dxg's ioctl messages on a host where CUDA works.
    body = (
        "## WSL2 dxg kernel module: `dxgkio_query_adapter_info` fails 20 times at boot (Quadro P4000 GPU-PV)\n\n"
        "[    3.902435] misc dxg: dxgk: dxgkio_query_adapter_info:    Ioctl failed: -22  (EINVAL)  x3"
    )
    result = plan(body)
    assert result.findings[0].category == "wsl_specific"
    assert not [f for f in result.findings if f.severity == "error"]


@pytest.mark.parametrize(
    "text",
    [
        # jax-ml/jax#20519 (tune): after the recommended jax[cuda12_pip] install.
        "CUDA backend failed to initialize: Unable to load cuDNN. Is it installed? (Set TF_CPP_MIN_LOG_LEVEL=0 and "
        "rerun for more info.)",
        # jcbmrshll/turbozero#19: a project's pins, fixed by bumping them.
        "I get: CUDA backend failed to initialize: Unable to load cuDNN. Is it installed?",
    ],
)
def test_jax_unable_to_load_cudnn(text: str) -> None:
    found, severity, fix = top(text)
    assert (found, severity) == ("library_shadowing", "warning") and "jax[cuda12]" in fix


@pytest.mark.parametrize(
    "text",
    [
        # pytorch/audio#1749 (tune): a ROCm torchaudio beside torch 1.9.0+cu111.
        "ImportError: libtorch_hip.so: cannot open shared object file: No such file or directory",
        # pytorch/hub#262 (tune): beside a +cpu torch pinned for Heroku.
        "I have thise error: libtorch_hip.so: cannot open shared object file: No such file or directory.",
    ],
)
def test_a_rocm_companion_beside_another_torch(text: str) -> None:
    assert top(text)[:2] == ("torchaudio_mismatch", "warning")
    # ROCm's own HIP runtime missing is another matter.
    assert "torchaudio_mismatch" not in rows("libamdhip64.so: cannot open shared object file")


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # hiyouga/LlamaFactory#7215 (tune): Chinese prose runs into the variable's name.
        ("多节点sft时，如果有节点设置了CUDA_VISIBLE_DEVICES，会导致加载模型之后卡住", "gpus_hidden_by_env"),
        ("用docker跑的时候报错", "container_runtime"),
    ],
)
def test_words_run_into_cjk_prose_are_still_words(text: str, category: str) -> None:
    assert category in {f.category for f in plan(text).findings}


@pytest.mark.parametrize(
    "text",
    [
        # Dao-AILab/flash-attention#236 (tune): an extension built for torch 1.x loaded beside torch 2.1.
        "ImportError: libtorch_cuda_cu.so: cannot open shared object file: No such file or directory",
        # k2-fsa/icefall#1283 (tune): k2 built for another torch.
        "OSError: libtorch_cuda_cpp.so: cannot open shared object file: No such file or directory",
    ],
)
def test_an_extension_asking_for_torchs_split_cuda_library(text: str) -> None:
    found, severity, fix = top(text)
    assert (found, severity) == ("mixed_installs", "warning") and "--no-build-isolation" in fix


@pytest.mark.parametrize(
    "text",
    [
        # vllm-project/vllm#1726 (tune): nvidia-nccl-cu11 2.14.3 loaded under torch 2.1's CUDA 12 wheels.
        "ncclInvalidArgument: Invalid value for an argument.\nLast error:\nInvalid config blocking attribute value "
        "-2147483648",
        # NVIDIA/Megatron-LM#596: NCCL's own warning line.
        "dsw-226:71868:71868 [0] init.cc:1270 NCCL WARN Invalid config blocking attribute value -2147483648",
    ],
)
def test_an_nccl_older_than_the_headers_its_caller_was_built_with(text: str) -> None:
    assert top(text)[:2] == ("library_shadowing", "error")


def test_wsl_1s_kernel_means_no_gpu_at_all() -> None:
    # microsoft/WSL#6122 (tune): the issue form asks "WSL 2 and/or WSL 1", the kernel string answers it.
    body = (
        "Whether the issue is on WSL 2 and/or WSL 1: Linux version 4.4.0-20236-Microsoft (Microsoft@Microsoft.com)\n"
        "apt-cache show cuda-toolkit-11-1"
    )
    found, severity, fix = top(body, "CUDA throw cudaErrorInsufficientDriver error")
    assert (found, severity) == ("wsl_specific", "error") and "wsl --set-version" in fix
    # WSL 2's kernel names itself differently, and there the driver text keeps its own category.
    wsl2 = (
        "Linux version 5.15.153.1-microsoft-standard-WSL2\nCUDA driver version is insufficient for CUDA runtime version"
    )
    assert top(wsl2)[0] != "wsl_specific" or "wsl --set-version" not in top(wsl2)[2]


def test_nvidia_docker_1s_nvml_wording_of_the_version_mismatch() -> None:
    # NVIDIA/nvidia-docker#270 (tune): reinstall the driver and reboot.
    assert top("nvidia-docker | 2016/12/17 05:23:46 Error: nvml: Driver/library version mismatch")[:2] == (
        "driver_not_loaded",
        "error",
    )


@pytest.mark.parametrize(
    "text",
    [
        # vllm-project/vllm#11623 (tune): vLLM's _C on a CUDA 11.4 driver.
        "ImportError('/usr/local/app/.local/lib/python3.8/site-packages/vllm/_C.abi3.so: undefined symbol: "
        "cuTensorMapEncodeTiled')",
        # sgl-project/sglang#8131 (tune): sgl-kernel's green contexts need a CUDA 12.5 driver.
        "common_ops.abi3.so: undefined symbol: cuGreenCtxStreamCreate.",
    ],
)
def test_a_driver_api_function_the_driver_lacks(text: str) -> None:
    assert top(text)[:2] == ("driver_too_old", "warning")
    # A runtime library's own symbol (lower case after "cu") is another copy of that library.
    assert top("libtorch_cuda.so: undefined symbol: cudnnSetConvolutionGroupCount")[0] == "library_shadowing"


def test_a_cuda_library_asked_for_inside_torchvisions_traceback_is_torchvisions_build() -> None:
    # pytorch/vision#946, pytorch/pytorch#25173 (tune): torchvision 0.3.0's pip wheel was the CUDA 9.0 build.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/lyt/venv_pytorch/lib/python3.5/site-packages/torchvision/__init__.py", line 1, in <module>\n'
        "    from torchvision import models\n"
        "ImportError: libcudart.so.9.0: cannot open shared object file: No such file or directory"
    )
    assert top(text)[:2] == ("torchvision_mismatch", "warning")
    outside = "ImportError: libcudart.so.9.0: cannot open shared object file: No such file or directory"
    assert top(outside)[0] == "library_shadowing"


def test_gpu_to_gpu_copies_that_land_as_zeros_are_peer_to_peer_trouble() -> None:
    # pytorch/pytorch#84803, #132397 (tune): fixed by turning the IOMMU off.
    assert top("tensor.to(device) not copying data correctly between two GPUs")[0] == "nccl_topology_or_p2p"
    assert top("How do I split my model between two GPUs?")[0] != "nccl_topology_or_p2p"


def test_cudnn_8s_windows_loader_wording() -> None:
    # pytorch/pytorch#46312, savbell/whisper-writer#29 (tune).
    assert top("Could not load library cudnn_ops_infer64_8.dll. Error code 126")[:2] == ("library_shadowing", "warning")


def test_jaxs_cuda_plugin_from_another_release() -> None:
    # jax-ml/jax#22416 (tune), #24901: jax, jaxlib and the CUDA plugin must be one release.
    text = (
        "RuntimeError: Unable to initialize backend 'cuda': INVALID_ARGUMENT: Mismatched PJRT plugin PJRT API version "
        "(0.54) and framework PJRT API version 0.51)."
    )
    found, severity, fix = top(text)
    assert (found, severity) == ("mixed_installs", "error") and "jax[cuda12]" in fix
