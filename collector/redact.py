"""Privacy: what must never reach a public issue, and the counting of what was removed.

The report is redacted as data (every string of every fact) before it is rendered, so the markdown and the
JSON twin can never disagree about what was removed. Version fields are spared the IP-address rule, since
"9.19.0.56" is a cuDNN version, not an address.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from collector.report import Fact, Missing, Report, Result
from collector.schema import ENV

REDACTED = "<redacted>"

# (what, pattern): tokens whose shape gives them away wherever they appear.
SECRET_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "private key",
        re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)", re.S),
    ),
    ("GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})\b")),
    ("Hugging Face token", re.compile(r"\bhf_[A-Za-z0-9]{20,}\b")),
    ("OpenAI/Anthropic key", re.compile(r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,}")),
    ("AWS access key id", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b")),
    ("Google API key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b")),
    ("Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("GitLab token", re.compile(r"\bglpat-[A-Za-z0-9_\-]{20,}")),
    ("npm token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
    ("PyPI token", re.compile(r"\bpypi-AgE[A-Za-z0-9_\-]{50,}")),
    ("Stripe key", re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{20,}\b")),
    ("Weights & Biases key", re.compile(r"\bwandb_v1_[A-Za-z0-9_]{20,}")),
    ("JWT", re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}")),
    ("Azure connection string", re.compile(r"(?i)(AccountKey|SharedAccessSignature|SharedAccessKey)=[^;\s]+")),
    ("URL credentials", re.compile(r"(?<=://)[^\s/:@]+:[^\s/@]+(?=@)")),
]
# "password=hunter2" in a command line or config: keep the name, drop the value.
ASSIGNMENT = re.compile(r"(?i)\b(password|passwd|pwd|secret|token|api_?key|access_?key)(\s*[=:]\s*)([^\s,;&'\"]+)")
SECRET_NAME = re.compile(
    r"(?i)(TOKEN|SECRET|PASSW(OR)?D|PASSPHRASE|CREDENTIAL|PRIVATE|API_?KEY|ACCESS_?KEY|_KEY$|^KEY$|AUTH)"
)
IPV4 = re.compile(r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\w.])")
IPV6 = re.compile(
    r"(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}(?![\w:])|(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){1,6}:(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){0,5})?(?![\w:])"
)
MAC = re.compile(r"(?<![\w:])(?:[0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}(?![\w:])")
UUID = re.compile(r"\b(GPU-|MIG-)?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\b")
OTHER_HOME = re.compile(r"(/home/|/Users/|C:\\Users\\)([^/\\\s]+)")
SAFE_USERS = {"root", "nobody", "runner", "user"}
VERSION_FIELDS = {
    "version",
    "cuda",
    "cuda_max",
    "nvml",
    "cudnn",
    "cudnn_built",
    "nccl",
    "glibc",
    "kernel",
    "hip",
    "tag",
    "cc",
    "arch_list",
    "nvidia",
    "owner",
}


class Redactor:
    """Removes secrets and identities from text, counting each kind it removed."""

    def __init__(self, host_names: Iterable[str] = (), user_names: Iterable[str] = (), homes: Iterable[str] = ()):
        self.hosts = sorted({h for h in host_names if h and len(h) >= 2 and h != "localhost"}, key=len, reverse=True)
        self.users = sorted({u for u in user_names if u and len(u) >= 2 and u not in SAFE_USERS}, key=len, reverse=True)
        self.homes = sorted({h.rstrip("/\\") for h in homes if h and len(h) > 1}, key=len, reverse=True)
        self.counts: Counter[str] = Counter()

    def secrets(self, value: str) -> str:
        """Only the secrets (tokens, keys, passwords, credentials in URLs): for text that is public already,
        like an issue the bot quotes, where addresses and names are the author's to show."""
        for what, pattern in SECRET_PATTERNS:
            value = self._sub(pattern, REDACTED, value, what)
        return self._sub(ASSIGNMENT, lambda m: m.group(1) + m.group(2) + REDACTED, value, "password assignment")

    def text(self, value: str, *, version: bool = False) -> str:
        value = self.secrets(value)
        for home in self.homes:
            value = self._sub(re.compile(re.escape(home) + r"(?=[/\\]|$|\s)"), "~", value, "home path")
        value = self._sub(OTHER_HOME, lambda m: m.group(1) + "<user>", value, "user name")
        for host in self.hosts:
            value = self._sub(re.compile(rf"(?<![\w-]){re.escape(host)}(?![\w-])", re.I), "<host>", value, "host name")
        for user in self.users:
            value = self._sub(re.compile(rf"(?<![\w-]){re.escape(user)}(?![\w-])"), "<user>", value, "user name")
        value = self._sub(UUID, lambda m: (m.group(1) or "") + short_hash(m.group(2)), value, "UUID (shortened)")
        if not version:
            value = self._sub(IPV4, "<ip>", value, "IP address")
            value = self._sub(IPV6, "<ip>", value, "IP address")
            value = self._sub(MAC, "<mac>", value, "MAC address")
        return value

    def _sub(self, pattern: re.Pattern[str], replacement: Any, value: str, what: str) -> str:
        result, count = pattern.subn(replacement, value)
        if count:
            self.counts[what] += count
        return result

    def env(self, variables: dict[str, str]) -> dict[str, str]:
        clean = {}
        for name, value in variables.items():
            if SECRET_NAME.search(name) and value:
                self.counts["secret-named variable"] += 1
                clean[name] = REDACTED
            else:
                clean[name] = self.text(value)
        return clean

    def report(self, report: Report) -> Report:
        facts = {name: self._result(name, result) for name, result in report.facts.items()}
        options = {name: self.text(value) for name, value in report.meta.options.items()}
        meta = dataclasses.replace(report.meta, options=options, redacted=dict(sorted(self.counts.items())))
        return Report(meta=meta, facts=facts)

    def _result(self, name: str, result: Result) -> Result:
        if isinstance(result, Missing):
            return dataclasses.replace(
                result, reason=self.text(result.reason), detail=self.text(result.detail) if result.detail else None
            )
        value = self.env(result.value) if name == ENV.name else self._walk(result.value, version=False)
        evidence = self.text(result.evidence) if result.evidence else None
        return Fact(value, self.text(result.source), result.seconds, evidence)

    def _walk(self, value: Any, *, version: bool) -> Any:
        if isinstance(value, str):
            return self.text(value, version=version)
        if isinstance(value, list):
            return [self._walk(item, version=version) for item in value]
        if isinstance(value, dict):
            return {self._walk(k, version=version): self._walk(v, version=version) for k, v in value.items()}
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            changes = {
                field.name: self._walk(getattr(value, field.name), version=field.name in VERSION_FIELDS)
                for field in dataclasses.fields(value)
            }
            return dataclasses.replace(value, **changes)
        return value


def short_hash(uuid: str) -> str:
    """A stable 8-hex-digit stand-in, so maintainers can still tell GPUs apart and match NVML to torch."""
    return "#" + hashlib.sha256(uuid.lower().encode()).hexdigest()[:8]
