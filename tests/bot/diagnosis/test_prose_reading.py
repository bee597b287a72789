"""How the prose reader reads what people type (bot/diagnosis/readers/freeform.py) and how words alone are worded:
shapes that look like something else (a listing, a version), and a symptom that names no cause."""

from __future__ import annotations

from bot.diagnosis.matrix import default
from bot.diagnosis.plan import Plan, triage
from bot.diagnosis.readers import read_case
from bot.diagnosis.readers.freeform import _prose_only
from collector.report.schema import PACKAGES, TORCH


def plan(body: str, title: str = "") -> Plan:
    return triage(default(), body, title)


def first(result: Plan) -> tuple[str | None, str] | None:
    cause = next((f for f in result.findings if f.severity != "info"), None)
    return (cause.category, cause.severity) if cause else None


def test_prose_typed_with_a_double_space_is_still_prose() -> None:
    # facefusion/facefusion#156: "1.3.1   EXECUTION PROVIDERS only azure and cpu" has a conda-list line's shape, but
    # a listing is never one line alone; a real `conda list` around it stays context.
    said = "1.3.1   EXECUTION PROVIDERS only azure  and cpu,not have cuda and tensorrt"
    assert first(plan(said, "not have cuda and tensorrt")) == ("cpu_only_wheel", "warning")
    listed = ["# Name   Version   Build", "pytorch   2.1.0   py3.10_cpu_0", "torchvision   0.16.0   py310_cpu"]
    assert _prose_only([said]) == said
    assert _prose_only(listed).split("\n") == [listed[0], *(" " * len(line) for line in listed[1:])]


def test_torch_and_a_cuda_version_in_one_breath_is_not_a_torch_version() -> None:
    # graphdeco-inria/diff-gaussian-rasterization#97: "Torch 12.8" names the CUDA of a build. Read as torch 12.8 it
    # was newer than every release the matrix knows, and that refuted the RTX 50-series named in the same line.
    body = "The 5070Ti cannot work with CUDA 11.8 and the corresponding Torch; it requires Torch 12.8 nightly."
    assert first(plan(body, "RTX 50 series cannot use CUDA 11.8")) == ("gpu_arch_unsupported", "warning")
    assert "torch" not in read_case(default(), body).report.facts


def test_a_symptom_alone_is_a_possibly_with_a_check_only() -> None:
    # "The GPU is not used" has many causes: the commonest is named as possible, with a read-only check, no fix.
    body = "I'm pretty sure my GPU isn't found. It is using my CPU and is therefore slow."
    result = plan(body, "GPU not being found?")
    cause = result.findings[0]
    assert (cause.category, cause.severity) == ("cpu_only_wheel", "warning")
    assert cause.title.startswith("Possibly") and "torch.version.cuda" in cause.fix and "pip install" not in cause.fix
    # A cue that names the cause keeps "Likely" and the fix.
    named = plan("It is using my CPU: pip installed the CPU version of torch.").findings[0]
    assert named.title.startswith("Likely") and named.category == "cpu_only_wheel"


def test_words_on_the_error_s_own_line_do_not_pick_its_other_cause() -> None:
    # alicevision/Meshroom#182: "at least compute capability 2.0" is the message's minimum, not the GPU's capability;
    # read as prose it had made the row's other cause (a GPU too old) the finding. The thread: the driver was too old.
    body = (
        "I'm getting this error:\n[error] This program needs a CUDA-Enabled GPU (with at least compute capability "
        "2.0).\nI'm running on Windows 10, GeForce GTX 1080, driver 385.54"
    )
    assert first(plan(body, "Not recognizing my GPU")) == ("driver_too_old", "warning")
    # The same words in the prose about the setup still count.
    said = "This program needs a CUDA-Enabled GPU\nMy card is a GTX 480, compute capability 2.0."
    assert first(plan(said)) == ("gpu_too_old_for_cuda", "warning")


def test_what_pip_replaced_is_not_what_is_installed() -> None:
    # Comfy-Org/ComfyUI#6197: pip's log names the versions it removes ("Found existing installation: torchvision
    # 0.20.1"); read as installed they made a matched torch 2.5.0 / torchvision 0.20.0 install a mismatch error.
    body = "\n".join([
        "`pip install torch==2.5.0 torchvision==0.20.0 torchaudio==2.5.0 --index-url https://download.pytorch.org/whl/cu124`",
        "Installing collected packages: torch, torchvision, torchaudio",
        "  Attempting uninstall: torch",
        "    Found existing installation: torch 2.5.1",
        "    Uninstalling torch-2.5.1:",
        "      Successfully uninstalled torch-2.5.1",
        "  Attempting uninstall: torchvision",
        "    Found existing installation: torchvision 0.20.1",
        "    Uninstalling torchvision-0.20.1:",
        "      Successfully uninstalled torchvision-0.20.1",
        "Successfully installed torch-2.5.0+cu124 torchaudio-2.5.0+cu124 torchvision-0.20.0+cu124",
    ])  # fmt: skip
    found = plan(body, "ComfyUI portable is using its own PyTorch version").findings
    assert not any(f.category in ("torchvision_mismatch", "torchaudio_mismatch") for f in found)
    packages = read_case(default(), body).report.get(PACKAGES)
    assert packages is None or all(p.version not in ("0.20.1", "2.5.1") for p in packages.selected)
    # A version in a line that is not pip's removal log is still read.
    assert first(plan("torch 2.5.0\ntorchvision 0.19.0\n")) == ("torchvision_mismatch", "error")


def test_what_pip_could_not_find_or_was_told_to_install_is_not_what_is_installed() -> None:
    # nerfstudio-project/nerfstudio#3730 (tune, fine): a documented install command that found no wheel (torch 2.1.2
    # has none for Python 3.12) beside an RTX 5070; read as installed, torch 2.1.2+cu118 and sm_120 made an error.
    body = "\n".join([
        "1. pip install torch==2.1.2+cu118 torchvision==0.16.2+cu118 --extra-index-url https://download.pytorch.org/whl/cu118",
        "2. ERROR: Could not find a version that satisfies the requirement torch==2.1.2+cu118",
        "I have Ubuntu 24 with both CUDA toolkits 12.8 (default) and 11.8 with RTX 5070 card.",
    ])  # fmt: skip
    found = plan(body, "Installation of Torch 2.1.2 with CUDA 11.8 broke").findings
    assert not any(f.severity == "error" for f in found)
    assert read_case(default(), body).report.get(TORCH) is None
    for refusal in (
        "ERROR: No matching distribution found for torch==2.1.2+cu118",
        "  Because there is no version of torch==2.1.2+cu118 and you require torch==2.1.2+cu118, we can",
    ):
        assert read_case(default(), refusal).report.get(TORCH) is None  # fmt: skip
    # What is installed, said in words, is still read.
    assert read_case(default(), "I have torch 2.1.2+cu118 and an RTX 5070").report.get(TORCH) is not None


def test_a_traceback_frame_is_no_word_about_the_setup() -> None:
    # vllm-project/vllm#31269 (tune): a module path in a frame behind vLLM's log prefix named FlashAttention.
    frame = (
        '(EngineCore_DP0 pid=43623)   File "/home/ml/miniconda3/lib/python3.13/site-packages/vllm/vllm_flash_attn/'
        'ops/triton/rotary.py", line 203, in apply_rotary'
    )
    assert "flash_attention_named" not in read_case(default(), f"Traceback:\n{frame}\n").cues
    # The same words in the reporter's own sentence are a cue, and the frame cues that exist to read frames still do.
    assert "flash_attention_named" in read_case(default(), "I installed vllm_flash_attn for this GPU.\n").cues
    torchvision_frame = '  File "/x/site-packages/torchvision/__init__.py", line 1, in <module>'
    assert "torchvision_frame_in_traceback" in read_case(default(), f"Traceback:\n{torchvision_frame}\n").cues
