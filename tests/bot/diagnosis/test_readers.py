"""Readers on real pastes: our own report, torch collect_env, nvidia-smi, package lists, issue forms, prose."""

from __future__ import annotations

import pytest

from bot.diagnosis.matrix import Index
from bot.diagnosis.plan import triage
from bot.diagnosis.readers import read_case, sections
from bot.diagnosis.readers.wrapped import Unwrapped
from bot.diagnosis.rules import diagnose
from collector.report.schema import (
    DRIVER,
    ENV,
    GPUS,
    LIBRARY_COPIES,
    OS,
    PACKAGES,
    PYTHON,
    RUNTIME,
    TOOLKIT,
    TORCH,
)  # fmt: skip
from tests.conftest import captured_output, fixture_text

COLLECT_ENV = captured_output("h200", "torch-collect-env.txt")


def test_collect_env_from_a_real_h200(matrix: Index) -> None:
    case = read_case(matrix, COLLECT_ENV)
    report = case.report
    torch = report.get(TORCH)
    assert torch and (torch.version, torch.tag, torch.cuda, torch.build, torch.available) == (
        "2.11.0+cu130",
        "cu130",
        "13.0",
        "cuda",
        True,
    )
    assert report.get(DRIVER).version == "580.159.04"  # type: ignore[union-attr]
    assert [g.name for g in report.get(GPUS) or []] == ["NVIDIA H200", "NVIDIA H200"]
    assert report.get(OS).distro == "Ubuntu 24.04.3 LTS" and report.get(OS).machine == "x86_64"  # type: ignore[union-attr]
    assert report.get(PYTHON).version == "3.12.3"  # type: ignore[union-attr]
    assert report.get(TOOLKIT)[0].version == "13.0.88"  # type: ignore[index]
    assert {c.version for c in report.get(LIBRARY_COPIES) or []} == {"9.14.0"}
    packages = {p.name: p.version for p in report.get(PACKAGES).selected}  # type: ignore[union-attr]
    assert packages["torch"] == "2.11.0" and packages["torchvision"] == "0.26.0"
    assert case.formats[0] == "collect_env"
    fact = report.facts["torch"]
    assert fact.evidence == "PyTorch version: 2.11.0+cu130" and "line" in fact.source  # type: ignore[union-attr]


def test_collect_env_in_a_fence_with_crlf_and_yes_no(matrix: Index) -> None:
    pasted = (
        "```\r\n"
        + COLLECT_ENV.replace("Is CUDA available: True", "Is CUDA available: No").replace("\n", "\r\n")
        + "```\r\n"
    )
    torch = read_case(matrix, pasted).report.get(TORCH)
    assert torch and torch.version == "2.11.0+cu130" and torch.available is False


def test_cpu_build_in_collect_env(matrix: Index) -> None:
    text = COLLECT_ENV.replace("2.11.0+cu130", "2.4.1+cpu").replace(
        "CUDA used to build PyTorch: 13.0", "CUDA used to build PyTorch: None"
    )
    torch = read_case(matrix, text).report.get(TORCH)
    assert torch and torch.build == "cpu" and torch.cuda is None


def test_nvidia_smi_table(matrix: Index) -> None:
    report = read_case(matrix, captured_output("h200", "nvidia-smi.txt")).report
    assert report.get(DRIVER).cuda_max == "13.0"  # type: ignore[union-attr]
    gpus = report.get(GPUS) or []
    assert [(g.index, g.name, g.memory_mib, g.mig_mode, g.pci_bus_id) for g in gpus] == [
        (0, "NVIDIA H200", 143771, False, "00000000:00:06.0"),
        (1, "NVIDIA H200", 143771, False, "00000000:00:07.0"),
    ]


def test_nvidia_smi_q_and_topology(matrix: Index) -> None:
    report = read_case(matrix, captured_output("h200", "nvidia-smi-q.txt")).report
    assert report.get(DRIVER).version == "580.159.04"  # type: ignore[union-attr]
    assert [g.name for g in report.get(GPUS) or []] == ["NVIDIA H200", "NVIDIA H200"]
    topology = read_case(matrix, captured_output("h200", "nvidia-smi-topo.txt")).report.facts["topology"]
    assert topology.value.matrix == [["X", "NV18"], ["NV18", "X"]]  # type: ignore[union-attr]


def test_pip_freeze(matrix: Index) -> None:
    packages = read_case(matrix, captured_output("h200", "pip-list.txt")).report.get(PACKAGES)
    names = {p.name: p.version for p in packages.selected}  # type: ignore[union-attr]
    assert names["torch"] == "2.11.0" and names["nvidia-cudnn-cu13"] == "9.19.0.56"
    assert "accelerate" in names and "absl-py" not in names


def test_uv_install_output_is_a_package_list(matrix: Index) -> None:
    # microsoft/onnxruntime#23833 (tune): uv marks what it installed with "+", what it removed with "-".
    body = (
        "root@ubuntu:~/proj# uv add onnxruntime-gpu onnxruntime\nInstalled 10 packages in 34ms\n"
        " + numpy==2.2.3\n + onnxruntime==1.20.1\n + onnxruntime-gpu==1.20.1\n - torch==2.1.0\n ~ triton==3.1.0\n"
    )
    packages = read_case(matrix, body).report.get(PACKAGES)
    names = {p.name: p.version for p in packages.selected}  # type: ignore[union-attr]
    assert names == {"numpy": "2.2.3", "onnxruntime": "1.20.1", "onnxruntime-gpu": "1.20.1", "triton": "3.1.0"}


def test_conda_list_with_two_torches(matrix: Index) -> None:
    body = fixture_text("issues", "real", "pytorch__pytorch__12031.yaml")
    case = read_case(matrix, body)
    duplicates = case.report.get(PACKAGES).duplicates  # type: ignore[union-attr]
    assert [d.name for d in duplicates] == ["torch"]


def test_own_report_twin_wins_over_its_own_markdown(matrix: Index) -> None:
    case = read_case(matrix, fixture_text("h200-1gpu", "broken-cvd-empty.md"))
    assert case.formats[0] == "envtriage report"
    assert case.report.get(ENV)["CUDA_VISIBLE_DEVICES"] == ""  # type: ignore[index]
    assert case.report.facts["torch"].source.startswith("envtriage report")  # type: ignore[union-attr]


def test_damaged_twin_is_reported(matrix: Index) -> None:
    text = fixture_text("h200-1gpu", "collector.md")
    cut = text[: text.index("<!-- envtriage:report") + 500] + "\n"
    case = read_case(matrix, cut)
    assert case.damaged_report and "cut off" in case.damaged_report
    assert "The pasted environment report cannot be read" in [f.title for f in diagnose(case, matrix)]


def test_json_twin_pasted_alone(matrix: Index) -> None:
    case = read_case(matrix, "here is my env:\n" + fixture_text("h200-1gpu", "collector.json"))
    assert case.formats[0] == "envtriage report" and case.report.get(TORCH).version == "2.11.0+cu130"  # type: ignore[union-attr]


def test_issue_form_sections_and_no_response(matrix: Index) -> None:
    body = (
        "### 🐛 Describe the bug\n\nIt crashes\n```\n### not a heading\n```\n\n"
        "### Versions\n\n_No response_\n\n### Anything else?\n\ntorch 2.4.1+cu121 on a GTX 1080\n"
    )
    whole, fields = sections.split(body)
    assert [(f.heading, f.role, f.empty) for f in fields] == [
        ("🐛 Describe the bug", "description", False),
        ("Versions", "environment", True),
        ("Anything else?", "other", False),
    ]
    assert (
        "### not a heading" in whole.text and whole.where(whole.lines.index("_No response_")) == "'Versions', line 10"
    )
    case = read_case(matrix, body)
    assert case.report.get(TORCH).version == "2.4.1+cu121"  # type: ignore[union-attr]
    assert "'Anything else?', line" in case.report.facts["torch"].source  # type: ignore[union-attr]


def test_freeform_versions_gpus_env_and_errors(matrix: Index) -> None:
    body = (
        "On my RTX 5090 with driver 570.124.06 I run torch==2.5.1+cu124 in WSL2.\n"
        "export CUDA_VISIBLE_DEVICES=1\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
    )
    case = read_case(matrix, body)
    report = case.report
    assert report.get(TORCH).version == "2.5.1+cu124" and report.get(TORCH).build == "cuda"  # type: ignore[union-attr]
    assert report.get(DRIVER).version == "570.124.06"  # type: ignore[union-attr]
    assert [g.name for g in report.get(GPUS) or []] == ["RTX 5090"]
    assert report.get(RUNTIME).wsl == 2  # type: ignore[union-attr]
    assert report.get(ENV) == {"CUDA_VISIBLE_DEVICES": "1"}
    assert case.errors[0].text.startswith("RuntimeError: CUDA error: no kernel image")


def test_torch_arch_warning_gives_gpu_cc_and_arch_list(matrix: Index) -> None:
    body = (
        "UserWarning: NVIDIA GeForce RTX 5070 Ti with CUDA capability sm_120 is not compatible with the current "
        "PyTorch installation.\nThe current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 "
        "sm_80 sm_86 sm_90.\n"
    )
    report = read_case(matrix, body).report
    assert [(g.name, g.cc) for g in report.get(GPUS) or []] == [("NVIDIA GeForce RTX 5070 Ti", "12.0")]
    assert report.get(TORCH).arch_list == ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"]  # type: ignore[union-attr]


def test_wrapped_error_lines_are_joined(matrix: Index) -> None:
    body = "ImportError: /x/torchaudio/_torch_sox.cpython-36m-x86_64-linux-gnu.so:\nundefined symbol: _ZN2at19Non\n"
    case = read_case(matrix, body)
    assert any("_torch_sox" in q.text and "undefined symbol" in q.text for q in case.errors)


@pytest.mark.parametrize(
    ("body", "category"),
    [
        # open-mmlab/mmrotate#395, as pasted: the line broke inside "cuda" (mmcv's ops built without CUDA)
        (
            '  File "C:\\Users\\u\\mmcv\\ops\\nms.py", line 28, in forward\n'
            "  RuntimeError: nms_impl: implementation for device cu\n  da:0 not found.\n",
            "cpu_only_wheel",
        ),
        # tensorflow/docs#2251: inside "CuDNN", in a sentence of prose
        (
            "I was hitting an error, `Loaded runtime CuD\nNN library: 8.1.0 but source was compiled with: 8.6.0.`\n",
            "library_shadowing",
        ),
    ],
)
def test_an_error_broken_inside_a_word_by_a_line_wrap_is_known(matrix: Index, body: str, category: str) -> None:
    result = triage(matrix, body)
    assert result.findings[0].category == category
    assert all("\n" not in q.text for q in read_case(matrix, body).errors)


def test_unwrapping_takes_out_only_breaks_inside_words_and_maps_offsets_back() -> None:
    original = "device cu\n  da:0 not\nfound. ok:\n next"
    unwrapped = Unwrapped.of(original)
    assert unwrapped.text == "device cuda:0 notfound. ok:\n next"  # ":\n n" is no word break
    start = unwrapped.text.index("cuda")
    end = start + len("cuda:0")
    assert unwrapped.crosses(start, end) and not unwrapped.crosses(0, len("device"))
    assert original[unwrapped.original(start) : unwrapped.original(end, end=True)] == "cu\n  da:0"
    assert unwrapped.lines_around(start, end) == "device cuda:0 notfound. ok:"


def test_nothing_to_read(matrix: Index) -> None:
    case = read_case(matrix, None)
    assert case.report.facts == {} and case.formats == [] and case.errors == []


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("env CUDA_VISIBLE_DEVICES= python3 train.py", ""),  # set to empty; python3 is the command
        ("CUDA_VISIBLE_DEVICES=0,1 torchrun train.py", "0,1"),
        ('os.environ["CUDA_VISIBLE_DEVICES"] = "2"', "2"),
        ("export CUDA_VISIBLE_DEVICES='3'", "3"),
        # spaces on both sides are no shell assignment; the value meant is the one written (pytorch/pytorch#49081)
        ("export CUDA_VISIBLE_DEVICES = 0", "0"),
    ],
)
def test_environment_assignments_read_as_the_shell_does(matrix: Index, line: str, value: str) -> None:
    assert read_case(matrix, line).report.get(ENV) == {"CUDA_VISIBLE_DEVICES": value}
