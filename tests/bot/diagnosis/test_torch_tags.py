"""torch's version and wheel tag as people paste them: trimmed collect_env, prose punctuation, Windows paths and
download URLs, torchvision's tagged versions beside torch's (issue 17, items 4 and the false errors)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.diagnosis.matrix import Index
from bot.diagnosis.plan import Plan
from bot.diagnosis.readers import read_case
from collector.report.schema import TORCH
from tests.conftest import captured_output

Run = Callable[..., Plan]
H200_ENV = captured_output("h200", "torch-collect-env.txt")


def torch_of(matrix: Index, text: str) -> tuple[str | None, str | None, str | None] | None:
    torch = read_case(matrix, text).report.get(TORCH)
    return (torch.version, torch.tag, torch.build) if torch else None


def trimmed(version_line: str) -> str:
    """The real H200 collect_env as a reporter trims it: no "CUDA used to build PyTorch" line, no package list."""
    head = H200_ENV.split("Versions of relevant libraries")[0].splitlines()
    lines = [line for line in head if not line.startswith("CUDA used to build PyTorch")]
    return "\n".join(lines).replace("PyTorch version: 2.11.0+cu130", version_line) + "\n"


@pytest.mark.parametrize("tail", ["", ",", "."])
def test_a_trimmed_collect_env_with_a_cuda_tag_is_no_cpu_only_build(matrix: Index, run: Run, tail: str) -> None:
    text = trimmed(f"PyTorch version: 2.5.1+cu124{tail}")
    assert torch_of(matrix, text) == ("2.5.1+cu124", "cu124", "cuda")
    plan = run(text)
    assert "cpu_only_wheel" not in {f.category for f in plan.findings}
    assert not [f for f in plan.findings if f.severity == "error"]


def test_collect_env_values_lose_prose_punctuation(matrix: Index) -> None:
    text = H200_ENV.replace("2.11.0+cu130", "2.11.0+cu130,").replace("build PyTorch: 13.0", "build PyTorch: 13.0.")
    torch = read_case(matrix, text).report.get(TORCH)
    assert torch and (torch.version, torch.tag, torch.cuda, torch.build) == ("2.11.0+cu130", "cu130", "13.0", "cuda")


def test_collect_env_says_cpu_only_when_torch_has_no_cuda(matrix: Index) -> None:
    no_cuda = "CUDA used to build PyTorch: None"
    cpu = H200_ENV.replace("2.11.0+cu130", "2.5.1").replace("CUDA used to build PyTorch: 13.0", no_cuda)
    assert torch_of(matrix, cpu) == ("2.5.1", None, "cpu")
    assert torch_of(matrix, trimmed("PyTorch version: 2.5.1"))[2] is None  # type: ignore[index]  # unknown, not CPU
    xpu = cpu.replace("PyTorch version: 2.5.1", "PyTorch version: 2.6.0+xpu")
    assert torch_of(matrix, xpu) == ("2.6.0+xpu", "xpu", None)  # no CUDA, but no CPU-only build either


@pytest.mark.parametrize(
    ("text", "version"),
    [
        # The brief's Windows shapes: a wheel file and a dist-info folder under site-packages.
        (r"pip install C:\Users\me\Downloads\torch-2.5.1+cu124-cp311-cp311-win_amd64.whl", "2.5.1+cu124"),
        (r"C:\Users\me\venv\Lib\site-packages\torch-2.5.1+cu124.dist-info\METADATA", "2.5.1+cu124"),
        ("I am on torch 2.5.1+cu124, with an RTX 4090.", "2.5.1+cu124"),
        ("Installed torch 2.4.1+rocm6.1.", "2.4.1+rocm6.1"),
        # Comfy-Org/ComfyUI#9929, rusty1s/pytorch_scatter#237 (tune): the tag typed apart from the version.
        ("**Versions:** PyTorch 2.8.0 + cu129", "2.8.0+cu129"),
        ("Pytorch 1.6.0 + cu101", "1.6.0+cu101"),
        # pypa/pipenv#5864 (Windows): pip's resolver prints the wheel's URL, its "+" encoded as %2B.
        (
            "via=LinkCandidate('https://download.pytorch.org/whl/cu117/torch-2.0.1%2Bcu117-cp310-cp310-win_amd64.whl "
            "(from",
            "2.0.1+cu117",
        ),
    ],
)
def test_torch_tags_in_paths_urls_and_prose(matrix: Index, text: str, version: str) -> None:
    found = torch_of(matrix, text)
    assert found and found[0] == version and found[1] == version.split("+")[1]


def test_a_torchvision_version_is_not_read_as_torch(matrix: Index) -> None:
    # pytorch/pytorch#120575, verbatim: every tagged version on the line is torchvision's.
    text = (
        "ERROR: Could not find a version that satisfies the requirement Could not find a version that satisfies the "
        "requirement torchvision==0.14.1+cu117  (from versions: 0.1.6, 0.2.0, 0.15.0+cu117, 0.15.1, 0.15.1+cu117, "
        "0.15.2, 0.15.2+cu117, 0.16.0, 0.16.1, 0.16.2, 0.17.0, 0.17.1)\n"
        "ERROR: No matching distribution found for torchvision==0.14.1+cu117\n"
    )
    assert torch_of(matrix, text) is None
    listing = (
        r"E:\ComfyUI_windows_portable\python_embeded\Lib\site-packages\torchvision-0.19.0+cu124.dist-info" + "\n"
        r"E:\ComfyUI_windows_portable\python_embeded\Lib\site-packages\torch-2.5.1+cu124.dist-info" + "\n"
    )
    assert torch_of(matrix, listing) == ("2.5.1+cu124", "cu124", "cuda")


def test_a_cuda_named_after_a_plus_is_not_a_wheel_tag(matrix: Index) -> None:
    found = torch_of(matrix, "torch 2.1 + CUDA 12.1 on Ubuntu")
    assert found and found[0] == "2.1" and found[1] is None
