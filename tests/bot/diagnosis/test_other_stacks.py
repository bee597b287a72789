"""Error texts other GPU stacks print about the environment (TensorRT, JAX, PaddlePaddle, CuPy): the category each
points to, its fix's own wording (not torch's), and where a number in the message decides the direction."""

from __future__ import annotations

import pytest

from bot.diagnosis.matrix import default
from bot.diagnosis.plan import triage


def top(body: str, title: str = "") -> tuple[str | None, str, str]:
    found = next(f for f in triage(default(), body, title).findings if f.severity != "info")
    return found.category, found.severity, found.fix


@pytest.mark.parametrize(
    ("sm", "category"),
    [("60", "gpu_too_old_for_cuda"), ("61", "gpu_too_old_for_cuda"), ("70", "gpu_too_old_for_cuda"),
     ("75", "gpu_too_old_for_cuda"), ("120", "gpu_arch_unsupported"), ("100", "gpu_arch_unsupported"),
     ("89", "gpu_arch_unsupported")],
)  # fmt: skip
def test_tensorrt_names_the_sm_and_the_number_says_which_way(sm: str, category: str) -> None:
    # ArgoHA/D-FINE-seg#20 (a P100 under TensorRT 10), NVIDIA/TensorRT-LLM#2400 (a V100 under 10.5, which dropped
    # Volta), DDTRobot/tita_rl_sim2sim2real#7 (an RTX 5070 Ti under 10.7).
    line = f"Error Code 9: API Usage Error (Target GPU SM {sm} is not supported by this TensorRT release.)"
    found, severity, fix = top(line)
    assert (found, severity) == (category, "error")
    assert "TensorRT" in fix and "torch" not in fix


def test_jax_found_an_older_cuda_library() -> None:
    for line in (
        "CUDA backend failed to initialize: Found cuDNN version 8600, but JAX was built against version 8906, "
        "which is newer.",
        "Unable to initialize backend 'cuda': Found cuSOLVER version 11002, but JAX was built against version "
        "11401, which is newer.",
    ):
        category, severity, fix = top(line)
        assert (category, severity) == ("library_shadowing", "warning")
        assert "jax[cuda12]" in fix


def test_paddle_compiled_for_other_architectures() -> None:
    line = (
        "E0628 11:38:05.609311 27896 gpu_resources.cc:98] Mismatched GPU Architecture: The installed PaddlePaddle "
        "package was compiled for 75 80 86 89 ,but your current GPU is 120 Solution: Install the correct wheel package"
    )
    category, severity, fix = top(line)
    assert (category, severity) == ("gpu_arch_unsupported", "error")
    assert "paddlepaddle-gpu" in fix and "CPU-only" not in fix
    # An old GPU under Paddle's list is its other, often harmless warning: no row speaks (at most the learned
    # fallback's "possibly", a warning).
    old = triage(default(), line.replace("is 120", "is 61")).findings
    assert not any(f.id == "known_error" or f.severity == "error" for f in old)


def test_paddle_cudnn_of_another_major_than_its_headers() -> None:
    # PaddlePaddle/Paddle#12965 (a v5 copy on the host, v7 headers) and #10238 (a wheel built for cuDNN 5 on a
    # machine with 7): either way the loaded copy is not the build's.
    for line in (
        "Check failed: (cudnn_cuh_major < 4 && cudnn_dso_major < 4) || (cudnn_cuh_major == cudnn_dso_major) [cudnn "
        "init] libcudnn v5 with header v7 unmatched!",
        "F0426 19:12:07.087769 28996 hl_cuda_cudnn.cc:171] [cudnn init] libcudnn v7 with header v5 unmatched!\n"
        "PaddlePaddle Requirement: (header v[2-3] with libcudnn v[2-3]) Or (header v4 with libcudnn v4)",
    ):
        category, severity, fix = top(line)
        assert (category, severity) == ("library_shadowing", "warning")
        assert "another major version" in fix and "torch" not in fix


def test_two_cupy_packages() -> None:
    body = "CuPy may not function correctly because multiple CuPy packages are installed\n  in your environment:\n"
    category, severity, fix = top(body + "    cupy-cuda12x, cupy-cuda13x\n")
    assert (category, severity) == ("mixed_installs", "error")
    assert "cupy" in fix


def test_tensorflow_resource_exhausted_named_alone() -> None:
    # stardist/stardist#119: the class name in a title and a notebook's traceback header, no "OOM when allocating".
    assert top("", "ResourceExhaustedError in predict_function")[:2] == ("oom_or_memory", "warning")
    # google.api_core's quota error is no allocation: no row speaks for it.
    found = triage(default(), "google.api_core.exceptions.ResourceExhausted: 429 Quota exceeded").findings
    assert not any(f.category == "oom_or_memory" and f.id == "known_error" for f in found)


def test_an_extension_built_against_another_torch() -> None:
    # state-spaces/mamba#217, spla-tam/SplaTAM#138: a compiled extension misses a torch C++ symbol (c10::, at::).
    for path, symbol in (
        ("site-packages/selective_scan_cuda.cpython-310-x86_64-linux-gnu.so", "_ZN3c104cuda9SetDeviceEi"),
        ("site-packages/diff_gaussian_rasterization/_C.cpython-310-x86_64-linux-gnu.so",
         "_ZNK3c1010TensorImpl18compute_contiguousEv"),
    ):  # fmt: skip
        category, severity, fix = top(f"ImportError: /home/u/env/lib/python3.10/{path}: undefined symbol: {symbol}")
        assert (category, severity) == ("mixed_installs", "warning")
        assert "no-build-isolation" in fix
    # torchvision's own library keeps its decisive row.
    line = "ImportError: /x/torchvision/_C.so: undefined symbol: _ZN3c1019UndefinedTensorImpl10_singletonE"
    assert top(line)[:2] == ("torchvision_mismatch", "error")


def test_a_symbol_versioned_by_a_cuda_library() -> None:
    # pytorch/pytorch#157381 (a local libcupti first), #90692 (the loader's "not defined in file" wording).
    for line in (
        "libtorch_cpu.so: undefined symbol: cuptiActivityEnableDriverApi, version libcupti.so.12",
        "libtorch_cuda_cu.so: symbol cusparseSpSM_analysis, version libcusparse.so.11 not defined in file "
        "libcusparse.so.11 with link time reference",
    ):
        assert top(line)[:2] == ("library_shadowing", "warning")


def test_an_application_that_needs_a_newer_compute_capability() -> None:
    # graphdeco-inria/gaussian-splatting#206 (SIBR viewer on a GTX 1080), iperov/DeepFaceLab#264: the program's own
    # floor, not a wheel's arch list.
    for text in ("Sorry, need at least compute capability 7.0+!",
                 "No CUDA device found with minimum required compute capability 3.5"):  # fmt: skip
        assert top(text)[:2] == ("gpu_too_old_for_cuda", "warning")
