"""Kernels and compilers that refuse a GPU or an install: xFormers' per-kernel refusals and its pinned torch, Triton's
compiler not knowing a newer GPU, ptxas refusing an instruction the GPU lacks or PTX newer than itself, and FP8 named
beside an Ampere GPU, which is a question rather than a failure."""

from __future__ import annotations

import pytest

from tests.bot.diagnosis.test_other_stacks import top
from tests.bot.diagnosis.test_policy import first, plan


def test_xformers_flash_kernels_refusing_an_older_gpu() -> None:
    # TheMistoAI/MistoControlNet-Flux-dev#6, deepbeepmeep/HunyuanVideoGP#29 (tune): Turing cards.
    text = (
        "NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
        "`flshattF@v2.5.7` is not supported because:\n"
        "    requires device with capability > (8, 0) but your GPU has capability (7, 5) (too old)\n"
        "    bf16 is only supported on A100+ GPUs"
    )
    assert top(text)[:2] == ("flash_attn_unsupported", "warning")


@pytest.mark.parametrize(
    "text",
    [
        # triton-lang/triton#6087 (tune): an RTX 5080 under Triton 3.2.0.
        "python: ../../../lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp:36: int mlir::triton::gpu::"
        '(anonymous namespace)::getMMAVersionSafe(int, DotOp): Assertion `false && "computeCapability not '
        "supported\"' failed.",
        # triton-lang/triton#6859's title.
        'Assertion `false && "computeCapability not supported"\' failed.',
    ],
)
def test_triton_not_knowing_a_newer_gpu(text: str) -> None:
    found, severity, fix = top(text)
    assert (found, severity) == ("gpu_arch_unsupported", "error") and "3.3.1" in fix


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # facebookresearch/chameleon#39 (tune): bf16 on a V100.
        (
            "ptxas /tmp/compile-ptx-src-ac38de, line 521; error   : Feature 'cvt.bf16.f32' requires .target sm_80 "
            "or higher",
            "gpu_too_old_for_cuda",
        ),
        # triton-lang/triton#542: Triton's matmul tests on a Pascal TITAN X.
        (
            "E       ptxas /tmp/fileeECWP1, line 297; error   : Feature 'mma' requires .target sm_70 or higher",
            "gpu_too_old_for_cuda",
        ),
        # Zyphra/Zonos#6 (tune): on a Turing card whose FlashAttention-2 kernels refuse it too.
        (
            "I need 2. FlashAttention2 support\nptxas /tmp/tmp7bnkl_sk.ptx, line 217; error   : Feature '.bf16' "
            "requires .target sm_80 or higher",
            "flash_attn_unsupported",
        ),
    ],
)
def test_ptxas_refusing_an_instruction_the_gpu_lacks(text: str, category: str) -> None:
    found, severity, fix = top(text)
    assert (found, severity) == (category, "warning")
    if category == "gpu_too_old_for_cuda":
        assert "float16" in fix


def test_fp8_named_beside_an_ampere_gpu_is_a_question_not_a_failure() -> None:
    # vllm-project/vllm#4827 (tune, fine): FP8 KV caches run on an A10.
    body = (
        "Can I still use FP8 E5M2 KV Cache if my GPU capability is less than 8.9? VLLM did not report any errors\n\n"
        "### How would you like to use vllm\n\nuse vllm in A10"
    )
    result = plan(body, "Can I still use FP8 E5M2 KV Cache if my GPU capability is less than 8.9?")
    assert not [f for f in result.findings if f.severity == "error"]
    # A failure text on the same GPU still is one.
    failed = plan(
        "use vllm in A10\nAssertionError: Device compute capability 8.9 or higher required for FP8 execution."
    )
    assert first(failed) == ("fp8_unsupported", "error")


@pytest.mark.parametrize(
    "text",
    [
        # triton-lang/triton#1246 (tune): a local CUDA 11.2 ptxas handed Triton's PTX 7.3.
        "ptxas /tmp/triton_k_90kFja, line 5; fatal   : Unsupported .version 7.3; current version is '7.2'",
        # triton-lang/triton#5929: ComfyUI portable running the CUDA 12.6 toolkit's ptxas.exe.
        "ptxas C:\\Users\\JJ\\AppData\\Local\\Temp\\tmpafhfmeeh.ptx, line 5; fatal   : Unsupported .version 8.6; "
        "current version is '8.5'",
    ],
)
def test_an_older_toolkits_ptxas_handed_newer_ptx(text: str) -> None:
    found, severity, fix = top(text)
    assert (found, severity) == ("library_shadowing", "warning") and "TRITON_PTXAS_PATH" in fix
    # The driver's own JIT says "ptxas application ptx input": the driver is what is old there.
    driver = "CUDA_ERROR_UNSUPPORTED_PTX_VERSION ptxas application ptx input, line 9; fatal : Unsupported .version 8.5"
    assert top(driver)[0] == "driver_too_old"


def test_one_xformers_kernels_capability_among_other_refusals_is_no_error() -> None:
    # facebookresearch/xformers#1263 (tune, fine): an Ada GPU; FA3 wants Hopper, the rest refuse the inputs.
    text = (
        "NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
        "`fa3F@0.0.0` is not supported because:\n"
        "    requires device with capability > (9, 0) but your GPU has capability (8, 9) (too old)\n"
        "    attn_bias type is <class 'torch.Tensor'>\n"
        "`fa2F@2.5.7-pt` is not supported because:\n"
        "    attn_bias type is <class 'torch.Tensor'>"
    )
    assert not [f for f in plan(text).findings if f.severity == "error"]


@pytest.mark.parametrize(
    "text",
    [
        "xformers==0.0.30 requires torch==2.7.0pip",  # lllyasviel/stable-diffusion-webui-forge#2898 (tune)
        "xformers 0.0.18 requires torch==2.0.0, but you'll have torch 1.12.1 which is incompatible.",  # DiAD#49
    ],
)
def test_xformers_pinning_another_torch(text: str) -> None:
    assert top(text)[:2] == ("mixed_installs", "warning")


@pytest.mark.parametrize(
    "text",
    [
        "Support for compute capability <7.0 - Is it possible to run on e.g. 6.0? Like a P100",  # vLLM#963 (tune)
        "Why triton only support nvidia gpu at least Compute Capability 7.0+?",  # triton-lang/triton#161 (tune)
        "UserWarning: WARNING: Compute capability < 7.5 detected! Only slow 8-bit matmul is supported for your GPU!",
    ],
)
def test_a_compute_capability_floor_named_in_words(text: str) -> None:
    assert top(text)[:2] == ("gpu_too_old_for_cuda", "warning")
