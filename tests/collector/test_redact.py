"""Nothing identifying or secret survives redaction, in facts, reasons, sources or options."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collector.redact import Redactor, short_hash
from collector.report.model import Fact, Meta, Missing, Report
from collector.report.schema import ENV, TORCH, TorchInfo

# (planted value, text it sits in): one row per kind of secret the collector must never print.
PLANTED = [
    ("ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8", "token {}"),
    ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ", "pat={}"),
    ("gho_" + "z" * 36, "{}"),
    ("hf_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ012345", "HF: {}"),
    ("sk-proj-" + "Ab1" * 16, "openai {}"),
    ("sk-ant-api03-" + "x1" * 20, "anthropic {}"),
    ("AKIAIOSFODNN7EXAMPLE", "aws {}"),
    ("ASIAIOSFODNN7EXAMPL2", "sts {}"),
    ("AIzaSyA" + "b" * 32, "google {}"),
    ("xoxb-123456789012-abcdefghijkl", "slack {}"),
    ("glpat-" + "q" * 20, "gitlab {}"),
    ("npm_" + "n" * 36, "npm {}"),
    ("pypi-AgEIcHlwaS5vcmc" + "p" * 50, "pypi {}"),
    ("sk_live_" + "s" * 24, "stripe {}"),
    ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "jwt {}"),
    ("hunter2secret", "https://alice:{}@example.com/simple"),
    ("hunter3secret", "password={} --verbose"),
    ("MIIEowIBAAKCAQEA7", "-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----"),
    ("b64accountkey==", "DefaultEndpointsProtocol=https;AccountName=x;AccountKey={};EndpointSuffix=core"),
]


@pytest.mark.parametrize(("secret", "context"), PLANTED)
def test_planted_secret_never_survives(secret: str, context: str) -> None:
    redactor = Redactor()
    assert secret not in redactor.text(context.format(secret))
    assert sum(redactor.counts.values()) >= 1


def test_identities_are_replaced() -> None:
    redactor = Redactor(host_names=["gpu-node-17"], user_names=["alice"], homes=["/home/alice"])
    text = redactor.text("alice@gpu-node-17:/home/alice/venv and /home/bob/x on 10.1.2.3, fe80::1ff:fe23:4567:890a")
    assert text == "<user>@<host>:~/venv and /home/<user>/x on <ip>, <ip>"


def test_versions_are_not_mistaken_for_addresses() -> None:
    redactor = Redactor()
    assert redactor.text("9.19.0.56", version=True) == "9.19.0.56"
    report = Report(Meta("t"), {TORCH.name: Fact(TorchInfo(version="2.11.0+cu130", cudnn="9.19.0"), "torch")})
    assert redactor.report(report).get(TORCH) == TorchInfo(version="2.11.0+cu130", cudnn="9.19.0")


def test_gpu_uuids_become_stable_short_hashes() -> None:
    redactor = Redactor()
    nvml = redactor.text("GPU-e858ebac-881e-1077-320c-08724ec5a187")
    torch = redactor.text("e858ebac-881e-1077-320c-08724ec5a187")
    assert nvml == "GPU-" + short_hash("e858ebac-881e-1077-320c-08724ec5a187") and torch.endswith(nvml[4:])


def test_secret_named_variables_are_blanked_whatever_their_value() -> None:
    redactor = Redactor()
    env = redactor.env({"NCCL_IB_HCA": "mlx5", "MY_API_KEY": "plain", "TORCH_HUB_TOKEN": "t", "CUDA_HOME": "/x"})
    assert env == {
        "NCCL_IB_HCA": "mlx5",
        "MY_API_KEY": "<redacted>",
        "TORCH_HUB_TOKEN": "<redacted>",
        "CUDA_HOME": "/x",
    }


def test_whole_report_and_counts() -> None:
    redactor = Redactor(host_names=["box"], user_names=["carol"], homes=["/home/carol"])
    report = Report(
        Meta("t", options={"python": "/home/carol/env/bin/python"}),
        {
            ENV.name: Fact({"NCCL_SOCKET_IFNAME": "eth0", "MASTER_ADDR": "192.168.1.20"}, "env"),
            "driver": Missing("nvidia-smi failed on box", detail="see /home/carol/log"),
        },
    )
    clean = redactor.report(report)
    assert clean.meta.options["python"] == "~/env/bin/python"
    assert clean.facts["driver"] == Missing("nvidia-smi failed on <host>", detail="see ~/log")
    assert clean.get(ENV) == {"NCCL_SOCKET_IFNAME": "eth0", "MASTER_ADDR": "<ip>"}
    assert clean.meta.redacted == {"IP address": 1, "home path": 2, "host name": 1}


def test_every_pattern_runs_where_its_hints_say() -> None:
    """A pattern skipped for want of a hint must have had nothing to match: each match holds one of its hints."""
    from collector.redact import ASSIGNMENT, BLOCK_PATTERNS, FLAG, HINTS, SECRET_PATTERNS, hinted
    from tests.planted import SECRETS

    patterns = [*BLOCK_PATTERNS, *SECRET_PATTERNS, ("secret assignment", ASSIGNMENT), ("secret argument", FLAG)]
    assert sorted(HINTS) == sorted(what for what, _ in patterns)
    matched = 0
    for plant in SECRETS:
        for what, pattern in patterns:
            for match in pattern.finditer(plant.text):
                matched += 1
                near = plant.text[max(0, match.start() - 16) : match.end() + 16].lower()  # lookarounds included
                assert hinted(HINTS[what], near), (what, match.group())
    assert matched >= len(SECRETS)


FLAG_NAMES = ["apikey", "mytoken", "hf-token", "db-password", "api_key", "passphrase", "x-auth-key", "pwd"]
CONTEXTS = [
    "{secret}", "run --{name} {secret} now", "{name}={secret}", '"{name}": "{secret}"', "{name} : {secret}",
    "https://u:{secret}@host/x?sig={secret}&token={secret}", "Authorization: Bearer {secret}", "\\n{secret}\\n",
]  # fmt: skip


@pytest.mark.parametrize("context", CONTEXTS)
def test_hints_change_nothing_but_speed(context: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Redaction with the hints gives what running every pattern gives, whatever the context."""
    from collector import redact
    from tests.planted import SECRETS

    texts = [context.format(name=name, secret=plant.text) for plant in SECRETS for name in FLAG_NAMES]
    hinted = [Redactor(secrets_only=True).secrets(text) for text in texts]
    monkeypatch.setattr(redact, "HINTS", {what: ("",) for what in redact.HINTS})  # "" is in every text
    assert hinted == [Redactor(secrets_only=True).secrets(text) for text in texts]


def _pieces() -> list[str]:
    from tests.planted import SECRETS

    separators = [" ", "=", ": ", '"', "'", "--", "-", "\n", "\\n", "?", "&", "@", "://", ".", "_", "Bearer "]
    return [plant.text for plant in SECRETS] + FLAG_NAMES + separators + ["tokenizers==0.19", "hf_xet", "x" * 30]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(text=st.lists(st.sampled_from(_pieces()), max_size=12).map("".join))
def test_hints_change_nothing_on_any_mix(text: str) -> None:
    from unittest import mock

    from collector import redact

    hinted = Redactor(secrets_only=True).secrets(text)
    with mock.patch.dict(redact.HINTS, {what: ("",) for what in redact.HINTS}):
        assert hinted == Redactor(secrets_only=True).secrets(text)


def _redaction_ms(text: str) -> float:
    import time

    best = float("inf")
    for _ in range(5):
        began = time.perf_counter()
        Redactor(secrets_only=True).secrets(text)
        best = min(best, (time.perf_counter() - began) * 1000)
    return best


# The bodies that froze the service: a pattern restarted at every "-" of a run and scanned the rest of it (150 s
# for 64 KB of "-"). Each is built at 8 KB and at 64 KB; linear redaction takes 8 times as long on the larger.
RUNS = {
    "dashes": lambda size: "-" * size,
    "-a": lambda size: "-a" * (size // 2),
    "& then a-": lambda size: "&" + "a-" * (size // 2),
    "lines of 1,999 dashes": lambda size: ("-" * 1999 + "\n") * (size // 2000),
    "a long option name": lambda size: "--" + "a" * size + " x",
    "a long variable name": lambda size: "a" * size + "=x",
}


@pytest.mark.parametrize("body", RUNS.values(), ids=list(RUNS))
def test_redaction_is_linear_on_runs_of_dashes(body) -> None:  # type: ignore[no-untyped-def]
    small = _redaction_ms(body(8 * 1024))
    assert small < 50, f"{small:.0f} ms for 8 KB"  # before: 1.7 s for 8 KB of dashes (and 150 s for 64 KB)
    large = _redaction_ms(body(64 * 1024))
    assert large < max(20 * small, 10), f"{small:.2f} ms for 8 KB, {large:.2f} ms for 64 KB"  # linear: 8 times


def test_long_names_still_redact_up_to_the_bound() -> None:
    from collector.redact import MAX_NAME

    name = "A" * (MAX_NAME - 10) + "_API_KEY"
    assert Redactor(secrets_only=True).secrets(f"{name}=hunter2secret") == f"{name}=<redacted>"
    assert Redactor(secrets_only=True).secrets(f"--{name.lower()} hunter2secret") == f"--{name.lower()} <redacted>"


@settings(max_examples=500, deadline=None, derandomize=True)
@given(
    text=st.lists(
        st.sampled_from([*_pieces(), "a.b", "x" * 120, "API_", "signing-", "\n", "  ", "\u0130"]), max_size=16
    )
)
def test_assignments_are_found_where_the_pattern_finds_them(text: list[str]) -> None:
    from collector.redact import ASSIGNMENT, _blank, assignments

    joined = "".join(text)
    assert assignments(joined, joined.lower()) == ASSIGNMENT.subn(_blank, joined)


def test_assignments_cost_what_one_scan_does_on_prose() -> None:
    import time

    from collector.redact import ASSIGNMENT, assignments

    prose = "password=x " + "hello world foo bar " * 3200

    def best_ms(run) -> float:  # type: ignore[no-untyped-def]
        times = []
        for _ in range(3):
            began = time.perf_counter()
            run()
            times.append((time.perf_counter() - began) * 1000)
        return min(times)

    # Tried at every word's start, the pattern costs 20 ms here; anchored, a fifth of that or less.
    assert best_ms(lambda: assignments(prose, prose.lower())) < best_ms(lambda: ASSIGNMENT.subn("", prose)) / 4


# Error texts after a secret word and a colon are messages, not values: "<redacted> 13] Permission denied" and a
# count of "secret assignment" for an errno told the reader nothing and hid the one line that mattered.
ERROR_TEXTS = [
    "cannot read /root/.cache/huggingface/token: [Errno 13] Permission denied: '/root/.cache/huggingface/token'",
    "could not load private_key: Errno 2",
    "HF_TOKEN: PermissionError: [Errno 13] Permission denied",
    "reading the password: OSError: [Errno 5] Input/output error",
    "AWS_SECRET_ACCESS_KEY: Error 13",
    "secret: ERROR(13) while reading",
    "token: CUDA error: an illegal memory access was encountered",
    "credentials: NCCL error: unhandled system error",
    "api_key: not found",
    "auth token: Permission denied",
    "--token Error 13",
]


@pytest.mark.parametrize("text", ERROR_TEXTS)
def test_error_texts_after_a_secret_word_survive(text: str) -> None:
    redactor = Redactor()
    assert redactor.text(text) == text
    assert not redactor.counts


@pytest.mark.parametrize(
    "text",
    ["password: ErrorProne1", "token=errno_x9Qz7", "api_key: Errors4ever", "--password Exception9"],
)
def test_secrets_that_merely_start_like_an_error_are_still_redacted(text: str) -> None:
    redactor = Redactor()
    assert redactor.text(text).endswith("<redacted>") and sum(redactor.counts.values()) == 1
