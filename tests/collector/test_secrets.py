"""Planted secrets and identities never reach the collector's markdown or JSON, on whole runs of every probe.

Each kind in tests/planted.py is planted where a real machine holds such things: environment variables named
innocently and named like secrets, paths (HOME, PATH, PYTHONPATH, LD_LIBRARY_PATH, the interpreter), captured
command outputs the probes parse (`nvidia-smi -q -x` with a planted serial and UUID, `ldconfig -p`), /proc and
/sys files, the host and user names, and the error text of an `import torch` that fails. The collector runs
with the fakes the other collector tests use; the interpreter children run for real.
"""

from __future__ import annotations

import getpass
import html
import json
import re
import socket
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

from collector import gather, markdown
from collector.check import Engine, verdicts
from collector.collect import collect
from collector.context import Options
from collector.gather import redactor_for
from collector.probes import all_probes
from collector.redact import REDACTED, SAFE_USERS, Redactor, short_hash
from collector.report.model import Fact, Meta, Report, from_json, to_json
from collector.report.schema import CPU, DRIVER, ENV, GPUS, LIBRARY_COPIES, OS, PYTHON, TOOLKIT, TORCH, Key
from collector.run import Deadline
from tests.collector.conftest import FakeRunner, make_context, ok
from tests.collector.test_cli import run as cli_run
from tests.collector.test_platform import captured_tree
from tests.conftest import FIXTURES, captured, captured_output, fixture_text
from tests.planted import GPU_UUID, HOST, HOST_FQDN, IDENTITIES, MIG_UUID, SECRETS, SERIAL, USER, Plant, body

T = TypeVar("T")
REPO = Path(__file__).resolve().parents[2]
PLANTS = SECRETS + IDENTITIES
WINDOW = 12  # a leak of any 12 consecutive characters of a planted value counts
# Values the capture itself holds for the second GPU, and things the collector must never even read.
CAPTURED_GPU1 = ("1653824128734", "7dbd9f1c-e44a-7160-20c9-a2df30fa2827")
UNREAD = {
    "/etc/hostname": HOST_FQDN,
    "/etc/machine-id": body("machine-id", 32, "0123456789abcdef"),
    "/sys/class/dmi/id/product_serial": "VMW-" + body("product-serial", 16),
    "/sys/class/dmi/id/board_serial": body("board-serial", 14),
}
NVCC = "cuda-13.0/bin/nvcc"
SMI_XML = ("nvidia-smi", "-q", "-x")
SMI_CC = ("nvidia-smi", "--query-gpu=pci.bus_id,compute_cap", "--format=csv,noheader")


@dataclass(frozen=True)
class Run:
    md: str
    js: str
    home: Path
    real_host: str
    real_user: str

    @property
    def report(self) -> Report:
        return from_json(self.js)

    def haystack(self) -> str:
        """Everything a reader could recover: both outputs raw, unescaped, and every string decoded from JSON."""
        start = self.md.rindex(markdown.TWIN_OPEN) + len(markdown.TWIN_OPEN)  # the twin comes last
        twin = json.loads(self.md[start : self.md.index(markdown.TWIN_CLOSE, start)])
        decoded = [*strings(twin), *strings(json.loads(self.js))]
        return "\n".join([self.md, html.unescape(self.md).replace("\\\\", "\\"), self.js, *decoded])


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def need(report: Report, key: Key[T]) -> T:
    value = report.get(key)
    assert value is not None, key.name
    return value


def leaked(secret: str, haystack: str) -> str | None:
    width = min(WINDOW, len(secret))
    return next(
        (secret[i : i + width] for i in range(len(secret) - width + 1) if secret[i : i + width] in haystack), None
    )


def planted_env(home: Path) -> dict[str, str]:
    env = dict(line.split("=", 1) for line in captured_output("h200", "env-cuda.txt").splitlines() if "=" in line)
    env.update(
        HOME=str(home),
        USER=USER,
        LOGNAME=USER,
        PATH=f"{home}/{Path(NVCC).parent}:/usr/bin:/bin",
        PYTHONPATH=f"{home}/src",
        VIRTUAL_ENV=f"{home}/envs/gpu",
        LD_LIBRARY_PATH="/home/akowalski/cudnn-9.1/lib:/usr/local/nvidia/lib64",
        CUDA_VISIBLE_DEVICES=f"{GPU_UUID},{MIG_UUID}",
        MASTER_ADDR=HOST_FQDN,
        NCCL_DEBUG_FILE=f"{home}/logs/nccl.{HOST}.%p.log",
    )
    env.update({f"VLLM_CONFIG_{i}": plant.text for i, plant in enumerate(PLANTS)})  # innocently named
    env.update({f"TORCH_API_KEY_{i}": plant.text for i, plant in enumerate(SECRETS)})  # named like a secret
    return env


def runner(home: Path) -> FakeRunner:
    xml = captured("h200", "nvidia-smi-qx.txt")
    stdout = xml.stdout.replace("1654024197299", SERIAL).replace("GPU-e858ebac-881e-1077-320c-08724ec5a187", GPU_UUID)
    ldconfig = captured_output("h200", "ldconfig.txt")
    ldconfig += "\tlibcudart.so.12 (libc6,x86-64) => /mnt/c/Users/obrien-k/cuda/lib/libcudart.so.12\n"
    return FakeRunner(
        {
            SMI_XML: ok(SMI_XML, stdout),
            SMI_CC: ok(SMI_CC, "00000000:00:06.0, 9.0\n00000000:00:07.0, 9.0\n"),
            ("nvidia-smi", "topo", "-m"): captured("h200", "nvidia-smi-topo.txt"),
            ("ldconfig", "-p"): ok(("ldconfig", "-p"), ldconfig),
            (f"{home}/{NVCC}", "--version"): captured("h200", "nvcc.txt"),
        }
    )


def host_files(home: Path) -> dict[str, str]:
    return {
        **captured_tree("cpubox"),
        "/etc/os-release": captured_output("h200", "osrel.txt"),
        "/proc/sys/kernel/osrelease": captured_output("h200", "uname.txt").split()[2],
        "/proc/driver/nvidia/version": captured_output("h200", "proc-driver.txt"),
        "/home/akowalski/cudnn-9.1/lib/libcudnn.so.9.1.0": "",
        f"{home}/{NVCC}": "",
        **UNREAD,
    }


def interpreter(home: Path) -> str:
    """This interpreter's environment as the planted user's venv: a link under their home."""
    prefix, executable = Path(sys.prefix), Path(sys.executable)
    (home / "envs").mkdir(parents=True)
    (home / "envs" / "gpu").symlink_to(prefix, target_is_directory=True)
    return str(home / "envs" / "gpu" / executable.relative_to(prefix))


def collector_run(base: Path, broken_torch: bool) -> Run:
    home = base / "home" / USER
    python = interpreter(home)
    if broken_torch:  # an import that fails with every planted value in its message
        (home / "src" / "torch").mkdir(parents=True)
        message = "\n".join(plant.text for plant in PLANTS)
        (home / "src" / "torch" / "__init__.py").write_text(f"raise ImportError({message!r})\n")
    env = planted_env(home)
    ctx = make_context(base, files=host_files(home), env=env, runner=runner(home))
    ctx.options = Options(python=python, smoke="none", timeout=60.0)
    ctx.deadline = Deadline(60.0)
    meta = Meta(generator="test", options={"smoke": "none", "timeout": "60", "python": python})
    real_host = socket.gethostname()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gather, "host_name", lambda: HOST_FQDN)
        report = redactor_for(env).report(collect(ctx, all_probes(), meta))
    engine = Engine()
    engine.load()
    rendered = markdown.render(report, verdicts(engine.diagnose(report)))
    return Run(rendered, to_json(report, indent=2), home, real_host, getpass.getuser())


@pytest.fixture(scope="module", params=["working torch", "broken torch"])
def run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Run:
    return collector_run(tmp_path_factory.mktemp("planted"), request.param == "broken torch")


def test_no_planted_value_leaks_into_markdown_or_json(run: Run) -> None:
    haystack = run.haystack()
    leaks = {
        plant.kind: part for plant in PLANTS for secret in plant.secrets for part in [leaked(secret, haystack)] if part
    }
    leaks.update({path: part for path, value in UNREAD.items() for part in [leaked(value, haystack)] if part})
    leaks.update({value: part for value in CAPTURED_GPU1 for part in [leaked(value, haystack)] if part})
    assert leaks == {}
    assert str(run.home.parents[1]) not in haystack, "nothing of the test's own temporary directory"


def test_nothing_identifies_the_machine_the_test_runs_on(run: Run) -> None:
    haystack = run.haystack()
    if len(run.real_host) >= 2 and run.real_host != "localhost":  # as a word: "vm" sits inside "nvml"
        assert not re.search(rf"(?<![\w-]){re.escape(run.real_host)}(?![\w-])", haystack, re.I)
    if len(run.real_user) >= 2 and run.real_user not in SAFE_USERS:
        assert not re.search(rf"(?<![A-Za-z0-9]){re.escape(run.real_user)}(?![A-Za-z0-9])", haystack)


def test_every_kind_is_counted_under_its_own_name(run: Run) -> None:
    counted = set(run.report.meta.redacted)
    expected = {plant.label for plant in PLANTS} | {"secret-named variable", "home path"}
    assert expected - counted == set()
    assert markdown.parse(run.md) == run.report, "the twin and the JSON are the same report"


def test_the_report_still_says_what_it_found(run: Run) -> None:
    report = run.report
    gpus, env = report.get(GPUS) or [], report.get(ENV) or {}
    assert (gpus[0].name, gpus[0].uuid) == ("NVIDIA H200", "GPU-" + short_hash(GPU_UUID[4:]))
    assert need(report, DRIVER).version == "580.159.04" and need(report, OS).distro == "Ubuntu 24.04.3 LTS"
    assert need(report, CPU).model == "AMD EPYC"
    assert env["NCCL_NVLS_ENABLE"] == "0" and env["MASTER_ADDR"] == "<host>"
    assert env["NCCL_DEBUG_FILE"] == "~/logs/nccl.<host>.%p.log"
    assert env["CUDA_VISIBLE_DEVICES"] == f"GPU-{short_hash(GPU_UUID[4:])},MIG-{short_hash(MIG_UUID[4:])}"
    assert all(env[f"TORCH_API_KEY_{i}"] == REDACTED for i in range(len(SECRETS)))
    kept = [env[f"VLLM_CONFIG_{i}"] for i, plant in enumerate(PLANTS)]
    assert "Authorization: Bearer <redacted>" in kept and "https://<redacted>@pypi.example.com/simple" in kept
    copies = {(c.name, c.version, c.path) for c in report.get(LIBRARY_COPIES) or []}
    assert ("libcudnn", "9.1.0", "/home/<user>/cudnn-9.1/lib/libcudnn.so.9.1.0") in copies
    assert ("libcudart", "12", "/mnt/c/Users/<user>/cuda/lib/libcudart.so.12") in copies
    assert [(n.path, n.version) for n in report.get(TOOLKIT) or []] == [(f"~/{NVCC}", "13.0.88")]
    python = report.get(PYTHON)
    assert python and python.executable == "~/envs/gpu/" + str(Path(sys.executable).relative_to(sys.prefix))
    assert report.meta.options["python"] == python.executable
    assert "| **GPUs** | 2× NVIDIA H200 (sm_90)" in run.md and "580.159.04" in run.md


def test_torch_facts_or_its_error_survive(run: Run) -> None:
    torch = run.report.result(TORCH)
    if isinstance(torch, Fact):
        assert torch.value.version and torch.value.location.startswith("~/envs/gpu/")
        return
    assert torch is not None and torch.status in ("error", "missing")
    if torch.status == "missing":  # no torch in this environment: the broken import is the only torch run
        return
    assert torch.reason.startswith("import torch failed: ImportError: ")
    assert "Authorization: Bearer <redacted>" in torch.reason and "~/src/torch/__init__.py" in (torch.detail or "")


def test_no_redact_keeps_identities_but_never_secrets(tmp_path: Path) -> None:
    home = tmp_path / "home" / USER
    (home / "src").mkdir(parents=True)
    env = {"HOME": str(home), "PYTHONPATH": str(home / "src")}
    env.update({f"VLLM_CONFIG_{i}": plant.text for i, plant in enumerate(SECRETS)})
    done = cli_run("--json", "--no-smoke", "--no-redact", env=env)
    assert done.returncode == 0, done.stderr
    values = json.loads(done.stdout)["facts"]["env"]["value"]
    assert {plant.kind: part for plant in SECRETS if (part := leaked_any(plant, done.stdout))} == {}
    assert values["PYTHONPATH"] == str(home / "src"), "names and paths are kept, as --no-redact says"
    assert values[f"VLLM_CONFIG_{len(SECRETS) - 1}"].endswith(REDACTED)


@pytest.mark.parametrize("plant", PLANTS, ids=[plant.kind for plant in PLANTS])
def test_each_kind_is_removed_where_it_stands(plant: Plant) -> None:
    redactor = Redactor(host_names=[HOST_FQDN, HOST], user_names=[USER])
    clean = redactor.text(f"before {plant.text} after")
    assert not any(leaked(secret, clean) for secret in plant.secrets), clean
    assert redactor.counts[plant.label] >= 1 and clean.startswith("before ") and clean.endswith(" after")


@pytest.mark.parametrize("quote", [repr, json.dumps], ids=["repr", "JSON"])
def test_escaped_line_breaks_hide_no_token(quote: Any) -> None:
    """A traceback prints a string's repr, a log its JSON: "\\nghp_…" must not read as one word "nghp_…"."""
    text = quote("\n".join(plant.text for plant in PLANTS))
    clean = Redactor(host_names=[HOST_FQDN, HOST], user_names=[USER]).text(text)
    assert {plant.kind: part for plant in PLANTS for part in [leaked_any(plant, clean)] if part} == {}


def leaked_any(plant: Plant, text: str) -> str | None:
    return next((part for secret in plant.secrets for part in [leaked(secret, text)] if part), None)


REAL_OUTPUTS = sorted(
    path.relative_to(FIXTURES)
    for folder in ("pastes", "h200", "h200-1gpu", "h200-2gpu")
    for path in (FIXTURES / folder).iterdir()
    if path.suffix in (".txt", ".md", ".json")
)


@pytest.mark.parametrize("path", REAL_OUTPUTS, ids=str)
def test_real_outputs_lose_no_secret_shaped_fact(path: Path) -> None:
    """Versions, wheel hashes, GPU names, library paths and bus ids in real captures are never taken for secrets."""
    text = fixture_text(*path.parts)
    redactor = Redactor()
    assert redactor.secrets(text) == text, dict(redactor.counts)


def test_security_md_lists_every_planted_kind() -> None:
    section = (REPO / "SECURITY.md").read_text().split("## Secrets and identities: what is redacted", 1)[1]
    rows = {line.split("|")[1].strip() for line in section.splitlines() if line.startswith("| ")}
    assert {plant.kind for plant in PLANTS} <= rows
    assert f"{len(PLANTS)} kinds" in section


def test_the_host_name_redacted_is_the_one_gethostname_gives() -> None:
    assert gather.host_name() == socket.gethostname()
