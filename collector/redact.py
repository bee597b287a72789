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
from collections.abc import Callable, Iterable
from typing import Any

from collector.report.model import Fact, Missing, Report, Result
from collector.report.schema import ENV

REDACTED = "<redacted>"

# (what, pattern): secrets whose shape gives them away wherever they appear. Where the pattern has a group named
# "secret", only that group goes and the label before it stays ("Authorization: Bearer <redacted>").
# Blocks may span lines and are matched on the whole text. Every other rule is matched between line breaks
# written as escapes ("\n" in a JSON string, in the repr a traceback prints), which would otherwise glue the
# token after the break to the letter "n" and hide it from every rule that starts at a word boundary.
ESCAPED_BREAK = re.compile(r"(\\[nrt])(?!\\)")
BLOCK_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    # Before the PEM rule: a service-account JSON value ends at its quote, and "private_key_id" goes too. The
    # quotes may be escaped themselves (the JSON file quoted inside a JSON log line).
    (
        "service-account key",
        re.compile(r"\\?\"private_key(?:_id)?\\?\"\s*:\s*\\?\"(?P<secret>(?:[^\"\\\n]|\\\\|\\[^\"\\])+)"),
    ),
    (
        "private key",
        # Unterminated (a paste cut short), it runs to the end, or to the quote that ends a JSON string.
        re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:.*?-----END [A-Z0-9 ]*PRIVATE KEY-----|[^\"]*)", re.S),
    ),
]
SECRET_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
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
    ("DigitalOcean token", re.compile(r"\bdo[opr]_v1_[a-f0-9]{64}\b")),
    ("SendGrid key", re.compile(r"\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,64}(?![\w-])")),
    ("Twilio API key", re.compile(r"\bSK[0-9a-fA-F]{32}\b")),
    # The bot id, a colon, then 35 characters that start with "A" ("AAH..." in every token seen so far).
    ("Telegram bot token", re.compile(r"\b\d{5,16}:A[A-Za-z0-9_-]{34}(?![\w-])")),
    # base64 of the bot's numeric id (so M, N or O first), a 6-character timestamp, then the HMAC.
    ("Discord bot token", re.compile(r"\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![\w-])")),
    ("Docker Hub token", re.compile(r"\bdckr_pat_[A-Za-z0-9_-]{20,}")),
    ("Databricks token", re.compile(r"\bdapi[0-9a-f]{32}(?:-\d)?\b")),
    ("Replicate token", re.compile(r"\br8_[A-Za-z0-9]{30,}\b")),
    ("Groq key", re.compile(r"\bgsk_[A-Za-z0-9]{40,}\b")),
    ("JWT", re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}")),
    ("Azure connection string", re.compile(r"(?i)(AccountKey|SharedAccessSignature|SharedAccessKey)=[^;\s\"']+")),
    ("webhook URL", re.compile(r"\b(?:hooks\.slack\.com|discord(?:app)?\.com/api/webhooks)/(?P<secret>[\w/-]+)")),
    (
        "authorization header",
        re.compile(
            r"(?i)\b(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?(?:(?:bearer|basic|token|bot|digest)\s+)?"
            r"(?P<secret>[^\s\"',;]+)"
        ),
    ),
    ("bearer token", re.compile(r"\bBearer\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)")),
    (
        "signed URL",
        re.compile(
            r"(?i)[?&](?:sig|signature|x-(?:amz|goog)-(?:signature|credential|security-token)|(?:access|id|refresh)"
            r"_token|token|client_secret|api_?key|key|code|password|secret)=(?P<secret>[^&#\s\"'<>`]+)"
        ),
    ),
    # user:password@ in any scheme, the user possibly empty (redis://:password@host); "@" may sit in the password.
    # No quote is ever taken: redacting a JSON twin must leave it valid JSON.
    ("URL credentials", re.compile(r"(?<=://)[^\s/:@\"'`<>]*:[^\s/\"'`<>]+(?=@[^\s/@\"'`<>]+)")),
]
# What each pattern's every match contains, lower-cased: a pattern runs only on text holding one of its hints
# (a substring, or a match of a cheap pattern searched in the lower-cased text). Thirty patterns each scanning a
# 64 KB issue cost 60 ms; a substring test costs microseconds.
_NAME_WORD = r"(?:passw(?:or)?d|passphrase|pwd|secret|token|credentials?|key)"
MAX_NAME = 100  # characters of a variable or option name before its secret word ("MY_SERVICE_API_KEY")
# "tokenizers==0.19" in every pip freeze holds "token": the name must end in the word, then "=" or ":".
ASSIGNMENT_HINT = re.compile(rf"{_NAME_WORD}[\"']?\s*(?:=(?!=)|:(?![:/]))")
HINTS: dict[str, tuple[str, ...] | re.Pattern[str]] = {
    "service-account key": ("private_key",),
    "private key": ("private key-----",),
    "GitHub token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "Hugging Face token": re.compile(r"hf_[a-z0-9]{20}"),
    "OpenAI/Anthropic key": ("sk-",),
    "AWS access key id": ("akia", "asia", "agpa", "aida", "aroa", "anpa"),
    "Google API key": ("aiza",),
    "Slack token": ("xox",),
    "GitLab token": ("glpat-",),
    "npm token": ("npm_",),
    "PyPI token": ("pypi-age",),
    "Stripe key": ("_live_", "_test_"),
    "Weights & Biases key": ("wandb_v1_",),
    "DigitalOcean token": ("_v1_",),
    "SendGrid key": ("sg.",),
    "Twilio API key": ("sk",),
    "Telegram bot token": (":a",),
    "Discord bot token": re.compile(r"\.[\w-]{6}\.[\w-]{27}"),  # starts at a dot: fast to search
    "Docker Hub token": ("dckr_pat_",),
    "Databricks token": ("dapi",),
    "Replicate token": ("r8_",),
    "Groq key": ("gsk_",),
    "JWT": ("eyj",),
    "Azure connection string": ("accountkey=", "sharedaccesssignature=", "sharedaccesskey="),
    "webhook URL": ("hooks.slack.com/", "/api/webhooks/"),
    "authorization header": ("authorization",),
    "bearer token": ("bearer",),
    "signed URL": re.compile(r"[?&][\w-]*(?:sig|signature|credential|token|secret|key|code|password)="),
    "URL credentials": ("://",),
    "secret assignment": ASSIGNMENT_HINT,
    # Starts where FLAG may start (the first "-" of a word), or it restarts at every "-" of a run and scans the rest
    # of it: 150 s for 64 KB of "-". The look-behind follows the "-", so the engine still skips to each "-" quickly.
    "secret argument": re.compile(rf"-(?<![\w-]-)-?[\w-]{{0,{MAX_NAME + 8}}}?{_NAME_WORD}\s+[^\s-]"),
}
# A name that ends in a secret word, then its value: "password=hunter2", "HF_TOKEN: x", "\"api_key\": \"x\"".
# Not "tokenizers==0.19" (a requirement) nor "max_tokens: 512" (the word does not end the name).
SENSITIVE = r"(?:passw(?:or)?d|passphrase|pwd|secret|token|credentials?|(?:api|access|private|auth|signing)[_-]?key)"
# What follows "token:" or "--password " in an error message is the error, not a value: "[Errno 13] Permission
# denied", "Error 13", "OSError: ...", "CUDA error: ...", "not found". Each alternative ends at a word end, a colon
# or a second word after one space, which no one-word secret has ("ErrorProne1", "Errors4ever" are still taken).
ERROR_TEXT = (
    r"[\"']?(?:\[?errno\b|error\b|\w{0,40}(?-i:Error|Exception|Warning):|\w{1,16} error\b"
    r"|(?:permission|access) denied|no such\b|not (?:found|permitted|set|available)\b|timed out\b)"
)
# The name before the secret word is bounded: a match starts only at a name's first character (the lookbehind), and
# an unbounded lazy prefix then tries the secret words at every character of a 64 KB word (milliseconds per word).
ASSIGNMENT = re.compile(
    rf"(?i)(?<![\w.-])([\w.-]{{0,{MAX_NAME}}}?{SENSITIVE})(?![\w-])([\"']?\s*(?:=(?!=)|:(?![:/]))\s*)"
    rf"(?!{REDACTED}|{ERROR_TEXT})"
    r"([\"'])?(?P<secret>(?(3)[^\"'\n]+|[^\s,;&'\"]+))"
)
# Tried at the start of every word, ASSIGNMENT costs 20 ms on 64 KB of prose. Each match ends its name with a secret
# word and a separator, which its hint finds in the lower-cased text in one fast scan (a literal-led pattern without
# re.I); ASSIGNMENT is then tried only where that name starts.
NAME_CHAR = re.compile(r"[\w.-]")
# The same on a command line, as a separate argument: "--hf-token hf_x", "--password hunter2".
FLAG = re.compile(
    rf"(?i)(-(?<![\w-]-)-?[\w-]{{0,{MAX_NAME}}}?{SENSITIVE})(?![\w-])\s+(?!{REDACTED}|-|{ERROR_TEXT})"
    r"(?P<secret>[^\s,;&'\"]+)"
)
SECRET_NAME = re.compile(
    r"(?i)(TOKEN|SECRET|PASSW(OR)?D|PASSPHRASE|CREDENTIAL|PRIVATE|API_?KEY|ACCESS_?KEY|_KEY$|^KEY$|AUTH)"
)
IPV4 = re.compile(r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\w.])")
IPV6 = re.compile(
    r"(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}(?![\w:])|(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){1,6}:(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){0,5})?(?![\w:])"
)
MAC = re.compile(r"(?<![\w:-])[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}(?![\w:-])")
UUID = re.compile(r"\b(GPU-|MIG-)?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\b")
# Linux, macOS (and WSL's /mnt/c/Users), and Windows homes on any drive, with single or doubled backslashes.
OTHER_HOME = re.compile(r"(/home/|/Users/|[A-Za-z]:[\\/]+Users[\\/]+)([^/\\\s\"'<>|:]+)")
EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w-])")
# "Serial Number : 1654024197299" (nvidia-smi -q), "serial=...", and -q -x's <serial> element.
SERIAL = re.compile(r"(?i)(\bserial(?:[ _-]?(?:number|no))?\s*[:=]\s*|<serial>)[A-Za-z0-9-]{6,}")
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


def hinted(hint: tuple[str, ...] | re.Pattern[str], lowered: str) -> bool:
    if isinstance(hint, re.Pattern):
        return hint.search(lowered) is not None
    return any(word in lowered for word in hint)


class Redactor:
    """Removes secrets and identities from text, counting each kind it removed."""

    def __init__(
        self,
        host_names: Iterable[str] = (),
        user_names: Iterable[str] = (),
        homes: Iterable[str] = (),
        *,
        secrets_only: bool = False,
    ):
        self.secrets_only = secrets_only  # keep names, paths, addresses and UUIDs (--no-redact, the bot)
        self.hosts = sorted({h for h in host_names if h and len(h) >= 2 and h != "localhost"}, key=len, reverse=True)
        self.users = sorted({u for u in user_names if u and len(u) >= 2 and u not in SAFE_USERS}, key=len, reverse=True)
        self.homes = sorted({h.rstrip("/\\") for h in homes if h and len(h) > 1}, key=len, reverse=True)
        self.counts: Counter[str] = Counter()

    def secrets(self, value: str) -> str:
        """Only the secrets (tokens, keys, passwords, credentials in URLs): for text that is public already,
        like an issue the bot quotes, where addresses and names are the author's to show."""
        value = self._hinted(BLOCK_PATTERNS, value)
        return self._each_line(value, self._tokens)

    def _tokens(self, value: str) -> str:
        return self._hinted([*SECRET_PATTERNS, ("secret assignment", ASSIGNMENT), ("secret argument", FLAG)], value)

    def _hinted(self, patterns: list[tuple[str, re.Pattern[str]]], value: str) -> str:
        lowered = value.lower()
        for what, pattern in patterns:
            if hinted(HINTS[what], lowered):
                changed = self._sub(pattern, _blank, value, what)
                if changed != value:
                    value, lowered = changed, changed.lower()
        return value

    def text(self, value: str, *, version: bool = False) -> str:
        value = self.secrets(value)
        if self.secrets_only:
            return value
        # Homes are whole paths, and C:\Users\nancy must not lose its user name to the "\n" split below.
        for home in self.homes:
            value = self._sub(re.compile(re.escape(home) + r"(?![\w.-])"), "~", value, "home path")
        value = self._sub(OTHER_HOME, lambda m: m.group(1) + "<user>", value, "user name")
        return self._each_line(value, lambda line: self._names(line, version))

    def _names(self, value: str, version: bool) -> str:
        """Host and user names, e-mail addresses, serial numbers, UUIDs, and addresses unless it is a version."""
        for host in self.hosts:
            value = self._sub(re.compile(rf"(?<![\w-]){re.escape(host)}(?![\w-])", re.I), "<host>", value, "host name")
        for user in self.users:
            value = self._sub(re.compile(rf"(?<![\w-]){re.escape(user)}(?![\w-])"), "<user>", value, "user name")
        value = self._sub(EMAIL, "<email>", value, "e-mail address")
        value = self._sub(SERIAL, lambda m: m.group(1) + "<serial>", value, "serial number")
        value = self._sub(UUID, lambda m: (m.group(1) or "") + short_hash(m.group(2)), value, "UUID (shortened)")
        if not version:
            value = self._sub(IPV4, "<ip>", value, "IP address")
            value = self._sub(IPV6, "<ip>", value, "IP address")
            value = self._sub(MAC, "<mac>", value, "MAC address")
        return value

    def _each_line(self, value: str, clean: Callable[[str], str]) -> str:
        parts = ESCAPED_BREAK.split(value)
        return "".join(part if index % 2 else clean(part) for index, part in enumerate(parts))

    def _sub(self, pattern: re.Pattern[str], replacement: Any, value: str, what: str) -> str:
        result, count = assignments(value, value.lower()) if pattern is ASSIGNMENT else pattern.subn(replacement, value)
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


def assignments(value: str, lowered: str) -> tuple[str, int]:
    """`ASSIGNMENT.subn(_blank, value)`, trying the pattern only at the names its hint ends (`lowered` is
    value.lower(); where lower-casing changed the length, offsets differ and the pattern runs everywhere)."""
    if len(lowered) != len(value):
        return ASSIGNMENT.subn(_blank, value)
    parts, done, tried = [], 0, -1
    for anchor in ASSIGNMENT_HINT.finditer(lowered):
        start = anchor.start()
        while start > 0 and anchor.start() - start <= MAX_NAME + 12 and NAME_CHAR.match(value, start - 1):
            start -= 1
        if start < done or start == tried:
            continue
        tried, match = start, ASSIGNMENT.match(value, start)
        if match:
            parts += [value[done:start], _blank(match)]
            done = match.end()
    return "".join([*parts, value[done:]]), len(parts) // 2


def _blank(match: re.Match[str]) -> str:
    """The match, or its "secret" group, made REDACTED; the lines it spanned stay, so line numbers hold."""
    whole, start = match.group(0), match.start()
    if "secret" not in match.re.groupindex:
        return REDACTED + "\n" * whole.count("\n")
    secret = match.group("secret")
    head, tail = whole[: match.start("secret") - start], whole[match.end("secret") - start :]
    return head + REDACTED + "\n" * secret.count("\n") + tail


def short_hash(uuid: str) -> str:
    """A stable 8-hex-digit stand-in, so maintainers can still tell GPUs apart and match NVML to torch."""
    return "#" + hashlib.sha256(uuid.lower().encode()).hexdigest()[:8]
