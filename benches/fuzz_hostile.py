"""The adversarial 64 KB bodies benches/fuzz_bench.py times: structure that breaks naive parsers, and for every
regular expression in bot/readers and bot/matrix (the matrix's error and GPU patterns included) lines of 2,000
characters made of the runs its quantifiers overlap on (blanks, digits and dots, `=`, `|`, `-`, ...), with a
character at the end that makes the match fail, so a backtracking engine tries every split.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from bot.matrix import Index
from bot.matrix.screen import Screened
from bot.readers import base, collect_env, freeform, nvidia_smi, own, packages, sections, torch_messages

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"
SIZE = 64 * 1024
TARGET_MS = 50
LINE = 1990  # lines are cut to base.MAX_LINE (2,000) before the line readers see them
FILLERS = [" ", "\t", "1.", "1", ".", "a.", "=", "|", "-", ":", "/", "_1", "a", "`", "#", "(", "+", "@", "<"]
BREAK = "\u00a7"  # § ends every line: no pattern's tail accepts it
# Every reader sees the section: a collect_env signature, nvidia-smi's marks, torch's message words.
CONTEXT = "Is CUDA available: no\nnvidia-smi Driver Version: 1 (UUID: GPU-1) Product Name: x\ncapability too old\n"
GPU_ROW = "|   0  NVIDIA H200    On  |   00000000:01:00.0 Off |"
# (pattern, what a line starts with so the pattern gets to run, what ends it); the run of fillers goes between.
READER_INPUTS: dict[str, list[tuple[str, str]]] = {
    "base.CONTROL": [("", "")],
    "base.ANSI": [("\x1b[", "")],
    "base.QUOTE": [("   >", "")],
    "base.labelled (inline)": [("PyTorch version: 2", BREAK), ("A", " :x")],
    "collect_env.GPU_LINE, UUID_TAIL": [
        ("GPU models and configuration: GPU 0: a", BREAK),
        ("GPU 0: a", "(UUID: x" + BREAK),
        ("GPU 0: a (UUID: ", BREAK + ")"),
    ],
    "collect_env.LIBRARY_LINE": [("[pip3] torch", ""), ("[conda] torch 1", BREAK)],
    "collect_env.CUDNN_FILE": [("libcudnn /", BREAK), ("/libcudnn.so.", BREAK)],
    "collect_env.ENV_LINE": [("CUDA_HOME=", BREAK), ("CUDA", "=x")],
    "collect_env.SIGNATURE": [("pytorch version", BREAK)],
    "collect_env.MACHINE, _os": [("OS: a", BREAK), ("OS: a", "(x86_64)" + BREAK)],
    "collect_env._python, _driver, _nvcc (inline)": [
        ("Python version: ", BREAK),
        ("Nvidia driver version: ", BREAK),
        ("CUDA runtime version: ", BREAK),
    ],
    "freeform.TORCH_VERSION": [("torch", BREAK), ("pytorch version", "v1" + BREAK)],
    "freeform.TAG_ONLY": [("1.1.1+cu", BREAK), ("1.1.", "+cpu")],
    "freeform.DRIVER_VERSION": [("nvidia driver version", BREAK), ("driver", "is" + BREAK)],
    "freeform.COMPANION": [("torchvision", BREAK), ("flash_attn", "==1" + BREAK)],
    "freeform.PYTHON_VERSION": [("python", BREAK), ("python version", ":" + BREAK)],
    "freeform.WINDOWS": [("windows", BREAK), ("C:\\", BREAK)],
    "freeform.WSL": [("WSL", BREAK)],
    "freeform.DOCKER": [("docker", BREAK), ("inside the", "docker" + BREAK)],
    "freeform.ASSIGNMENT": [("CUDA_VISIBLE_DEVICES", "=" + BREAK), ('os.environ["NCCL_X"]', "='" + BREAK)],
    "freeform.TOPICS": [("fp8 flash attn 3 MIG nccl", "hang" + BREAK), ("flash", "attention" + BREAK)],
    "freeform.EXCEPTION": [("E ", "Error" + BREAK), ("E RuntimeError", ":" + BREAK)],
    "nvidia_smi.HEADER": [("NVIDIA-SMI ", BREAK), ("NVIDIA-SMI 1 ", "Driver Version:" + BREAK)],
    "nvidia_smi.TABLE_GPU": [("| 0 a", "On |" + BREAK), ("|   0  NVIDIA", BREAK)],
    "nvidia_smi.TABLE_MEMORY": [(GPU_ROW + "\n|", "MiB" + BREAK)],
    "nvidia_smi.TABLE_MIG": [(GPU_ROW + "\nx\n|", "|" + BREAK)],
    "nvidia_smi.LIST_GPU": [("GPU 0: a", "(UUID: GPU-" + BREAK)],
    "nvidia_smi.Q_DRIVER, Q_CUDA, Q_PRODUCT": [
        ("Driver Version", BREAK),
        ("CUDA Version", BREAK),
        ("Product Name", ""),
    ],
    "own.JSON_START": [("{", '"schema"' + BREAK)],
    "packages.FREEZE, FREEZE_URL": [("torch", "==" + BREAK), ("torch @ ", BREAK), ("torch @ http://x/-1", BREAK)],
    "packages.COLUMNS, CONDA_BUILD": [("torch 1", BREAK), ("torch 1.0 a", BREAK), ("torch 1.0", " x y z" + BREAK)],
    "sections.HEADING": [("## a", "#" + BREAK)],
    "sections.FENCE": [("```", BREAK)],
    "torch_messages.NOT_COMPATIBLE": [("NVIDIA X", " with CUDA capability sm_1 is" + BREAK)],
    "torch_messages.SUPPORTS": [("current PyTorch install supports CUDA capabilities sm_1", BREAK)],
    "torch_messages.FOUND_GPU": [("Found GPU0 a", "which is of" + BREAK)],
    "torch_messages.CC_TABLE": [("- 1", "which supports" + BREAK)],
    "torch_messages.DRIVER_TOO_OLD": [("driver on your system is too old (found version ", BREAK)],
    "model.version_key (inline)": [("PyTorch version: 1", BREAK)],
}
MODULES = [base, collect_env, freeform, nvidia_smi, own, packages, sections, torch_messages]


def uncovered() -> list[str]:
    """Module-level patterns of the readers without an entry above (a new pattern needs one)."""
    named = " ".join(READER_INPUTS)
    return [
        f"{module.__name__.rsplit('.', 1)[-1]}.{name}"
        for module in MODULES
        for name, value in vars(module).items()
        if isinstance(value, (re.Pattern, Screened)) and name not in named
    ]


def lines_of(prefix: str, suffix: str, filler: str) -> str:
    last = prefix.rsplit("\n", 1)[-1]
    runs = max(1, (LINE - len(last) - len(suffix)) // len(filler))
    return prefix + filler * runs + suffix


def filled(lines: list[str], head: str = "") -> str:
    text = head
    while len(text) < SIZE:
        text += "\n".join(lines) + "\n"
    return text[:SIZE]


def candidates(matrix: Index) -> Iterator[tuple[str, list[tuple[str, str]]]]:
    """For each pattern, its hostile lines: (filler, line), the filler also being the pattern's own prefix."""
    for name, inputs in READER_INPUTS.items():
        yield name, [(f, lines_of(p, s, f)) for p, s in inputs for f in [*FILLERS, p.rsplit("\n", 1)[-1] or " "]]
    rows = [(f"errors.yaml {e.id}", e.example) for e in matrix.matrix.errors]
    rows += [(f"gpus.yaml {g.example}", g.example) for g in matrix.matrix.gpus]
    for name, example in rows:
        words = [m.end() for m in re.finditer(r"\S+", example)]
        cuts = sorted({words[0], words[len(words) // 2], words[-1] - 1} if words else {0})
        yield name, [(f, lines_of(example[:cut], example[cut:] + BREAK, f)) for cut in cuts for f in FILLERS]


def regex_bodies(matrix: Index, cost: Callable[[str], float]) -> Iterator[tuple[str, str]]:
    """One 64 KB body per pattern, of its costliest line (`cost` times a body of four copies)."""
    for name, lines in candidates(matrix):
        filler, line = max(lines, key=lambda item: cost(CONTEXT + (item[1] + "\n") * 4))
        yield f"{name} (run of {filler[:12]!r})", filled([line], CONTEXT)


def structure() -> Iterator[tuple[str, str]]:
    collect = (FIXTURES / "h200" / "torch-collect-env.txt").read_text()
    report = (FIXTURES / "h200-1gpu" / "collector.md").read_text()
    twin = report[report.index("<!-- envtriage:report ") :]
    noise = random.Random(1).randbytes(SIZE).decode("utf-8", errors="replace")
    yield "nested fences (``` in ~~~~ in ````` ...)", filled([f"{'`~'[n % 2] * (3 + n)}\n### x" for n in range(40)])
    yield "unclosed fence, then collect_env", filled([collect], "```python\n")
    yield "unclosed fences only (``` and ~~~)", filled(["```", "~~~", "x"])
    yield "10,922 headings (### a)", "### a\n" * (SIZE // 6)
    yield "5,041 issue-form fields (### Versions / _No response_)", filled(["### Versions\n_No response_"])
    yield "one 64 KB line (a known error)", filled(["RuntimeError: CUDA error: no kernel image is available "])[:-1]
    yield "one 64 KB line of backticks", "`" * SIZE
    yield "invalid UTF-8 decoded with errors='replace'", noise
    yield "NUL bytes only", "\x00" * SIZE
    yield "collect_env with a NUL after every character", filled(["\x00".join(collect)])
    yield "collect_env, every line doubled", filled([line + "\n" + line for line in collect.splitlines()])
    yield "collect_env with CRLF, then CR only", filled([collect.replace("\n", "\r\n"), collect.replace("\n", "\r")])
    yield "our report twin, 3,000 openings without a closing", filled(["<!-- envtriage:report {"])
    yield "our report (Markdown and twin) repeated", filled([report])
    yield "twin nested 30,000 deep", "<!-- envtriage:report {" + '"a":' + "[" * 30_000 + "} -->"
    yield "JSON report nested 30,000 deep", '{"schema": "envtriage.report/1", "a": ' + "[" * 30_000
    yield "twin with a 5,000-digit number", twin.replace('"duration_seconds":', '"duration_seconds":' + "9" * 5000, 1)
    yield "<!-- without end, <details> without close", filled(["<!-- x", "<details><summary>", "@octocat"])
    yield "@mentions in every reader's quote", filled([f"GPU 0: @octocat\nRuntimeError: @octocat {'`' * 3}@x"])
    yield "emoji, RTL and zero-width characters", filled(["😀👨‍👩‍👧\u202e\u2067\u200b\u200d\ufeff torch 2.4.1 🚀"])
    yield "pip freeze repeated", filled([(FIXTURES / "h200" / "pip-list.txt").read_text()])
    yield "nvidia-smi -q repeated", filled([(FIXTURES / "h200" / "nvidia-smi-q.txt").read_text()])


def hostile(matrix: Index, cost: Callable[[str], float]) -> Iterator[tuple[str, str]]:
    missing = uncovered()
    if missing:
        raise SystemExit(f"no adversarial input for {', '.join(missing)}: add them to READER_INPUTS")
    yield from structure()
    yield from regex_bodies(matrix, cost)
