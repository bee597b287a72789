"""Planted secrets and identities: one row per kind the collector must never print and the bot never repeat.

Every value is made at run time from a hash of its kind, so no token-shaped literal sits in the repository
(secret scanners would flag it) and every value is distinct and random-looking: a leak of any part of it
cannot be a coincidence. SECURITY.md lists the same kinds; tests/collector/test_secrets.py holds it to that.
"""

from __future__ import annotations

import base64
import hashlib
import json
import string
from dataclasses import dataclass

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "-_"
B64 = ALNUM + "+/"
HEX = "0123456789abcdef"
UPPER = string.ascii_uppercase + string.digits


def body(kind: str, length: int, alphabet: str = ALNUM) -> str:
    """`length` characters of `alphabet`, the same on every run, different for every kind."""
    out = ""
    while len(out) < length:
        digest = hashlib.sha256(f"{kind}/{len(out)}".encode()).digest()
        out += "".join(alphabet[byte % len(alphabet)] for byte in digest)
    return out[:length]


def digits(kind: str, length: int) -> str:
    return body(kind, length, string.digits)


@dataclass(frozen=True)
class Plant:
    kind: str  # as SECURITY.md names it
    text: str  # the secret in the surroundings it usually has
    secrets: tuple[str, ...]  # what must never come out, whole or in part
    label: str  # what the Redactor counts when it removes it


def plant(kind: str, label: str, text: str, *secrets: str) -> Plant:
    return Plant(kind, text, secrets or (text,), label)


def _password(kind: str) -> str:
    return "Pw" + body(kind, 14, URLSAFE)


def _jwt() -> str:
    header = base64.urlsafe_b64encode(b'{"alg":"RS256","typ":"JWT"}').rstrip(b"=").decode()
    claims = json.dumps({"sub": body("jwt-sub", 12), "aud": "inference", "exp": 1893456000}).encode()
    payload = base64.urlsafe_b64encode(claims).rstrip(b"=").decode()
    return f"{header}.{payload}.{body('jwt', 86, URLSAFE)}"


def _service_account() -> Plant:
    key_id, key = body("sa-id", 40, HEX), body("sa-key", 64, B64)
    pem = f"-----BEGIN PRIVATE KEY-----\\n{key}\\n-----END PRIVATE KEY-----\\n"
    text = json.dumps({"type": "service_account", "private_key_id": key_id, "private_key": pem}).replace("\\\\", "\\")
    return plant("GCP service-account JSON key", "service-account key", text, key_id, key)


def _pem() -> Plant:
    lines = [body(f"pem-{i}", 70, B64) for i in range(3)]
    text = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END OPENSSH PRIVATE KEY-----"
    return plant("PEM private key block", "private key", text, *lines)


def _secrets() -> list[Plant]:
    pw = {kind: _password(kind) for kind in ("url", "db", "redis", "assign", "flag", "basic")}
    token, sig, aws_sig = body("bearer", 40, URLSAFE), body("sas", 43, B64), body("aws-sig", 64, HEX)
    goog, oauth = body("goog-sig", 256, HEX), "ya29." + body("oauth", 100, URLSAFE)
    basic = base64.b64encode(f"deploy:{pw['basic']}".encode()).decode()
    discord = base64.b64encode(digits("discord-id", 18).encode()).decode().rstrip("=")
    azure_key = body("azure", 86, B64) + "=="
    return [
        plant("GitHub classic token", "GitHub token", "ghp_" + body("ghp", 36)),
        plant("GitHub fine-grained token", "GitHub token", f"github_pat_{body('pat1', 22)}_{body('pat2', 59)}"),
        plant("GitHub app/OAuth token", "GitHub token", "ghs_" + body("ghs", 36)),
        plant("Hugging Face token", "Hugging Face token", "hf_" + body("hf", 34, string.ascii_letters)),
        plant("OpenAI project key", "OpenAI/Anthropic key", "sk-proj-" + body("openai", 64, URLSAFE)),
        plant("OpenAI legacy key", "OpenAI/Anthropic key", f"sk-{body('oa1', 20)}T3BlbkFJ{body('oa2', 20)}"),
        plant("Anthropic key", "OpenAI/Anthropic key", f"sk-ant-api03-{body('ant', 93, URLSAFE)}AA"),
        plant("AWS access key id", "AWS access key id", "AKIA" + body("akia", 16, UPPER)),
        plant(
            "AWS secret access key",
            "secret assignment",
            f"aws_secret_access_key = {body('aws-secret', 40, B64)}",
            body("aws-secret", 40, B64),
        ),
        plant("Google API key", "Google API key", "AIza" + body("google", 35, URLSAFE)),
        _service_account(),
        _pem(),
        plant("Slack token", "Slack token", f"xoxb-{digits('s1', 12)}-{digits('s2', 13)}-{body('s3', 24)}"),
        plant(
            "Slack webhook URL",
            "webhook URL",
            f"https://hooks.slack.com/services/T{body('t', 10, UPPER)}/B{body('b', 10, UPPER)}/{body('hook', 24)}",
            body("hook", 24),
        ),
        plant(
            "Discord webhook URL",
            "webhook URL",
            f"https://discord.com/api/webhooks/{digits('dw', 18)}/{body('dwh', 68, URLSAFE)}",
            body("dwh", 68, URLSAFE),
        ),
        plant("GitLab token", "GitLab token", "glpat-" + body("glpat", 20, URLSAFE)),
        plant("npm token", "npm token", "npm_" + body("npm", 36)),
        plant("PyPI token", "PyPI token", "pypi-AgEIcHlwaS5vcmc" + body("pypi", 100, URLSAFE)),
        plant("Stripe secret key", "Stripe key", "sk_" + "live_" + body("stripe", 24)),
        plant("Weights & Biases key", "Weights & Biases key", "wandb_v1_" + body("wandb", 40)),
        plant("JWT", "JWT", _jwt()),
        plant(
            "Azure storage connection string",
            "Azure connection string",
            f"DefaultEndpointsProtocol=https;AccountName=mlprod;AccountKey={azure_key};EndpointSuffix=core.windows.net",
            azure_key[:-2],
        ),
        plant(
            "Azure SAS URL",
            "signed URL",
            f"https://mlprod.blob.core.windows.net/ckpt/model.bin?sv=2022-11-02&sp=r&se=2030-01-01&sig={sig}%3D",
            sig,
        ),
        plant(
            "AWS pre-signed URL",
            "signed URL",
            "https://ckpt.s3.amazonaws.com/w.bin?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20250101T000000Z"
            f"&X-Amz-Expires=3600&X-Amz-Signature={aws_sig}",
            aws_sig,
        ),
        plant(
            "GCS signed URL",
            "signed URL",
            f"https://storage.googleapis.com/ckpt/w.bin?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature={goog}",
            goog,
        ),
        plant("OAuth token in a URL", "signed URL", f"https://api.example.com/v1/models?access_token={oauth}", oauth),
        plant(
            "URL with user:password", "URL credentials", f"https://ci:{pw['url']}@pypi.example.com/simple", pw["url"]
        ),
        plant(
            "database URL",
            "URL credentials",
            f"postgresql://trainer:{pw['db']}@db.internal:5432/runs",
            pw["db"],
        ),
        plant("Redis URL (password only)", "URL credentials", f"redis://:{pw['redis']}@cache:6379/0", pw["redis"]),
        plant("DigitalOcean token", "DigitalOcean token", "dop_v1_" + body("do", 64, HEX)),
        plant("SendGrid key", "SendGrid key", f"SG.{body('sg1', 22, URLSAFE)}.{body('sg2', 43, URLSAFE)}"),
        plant("Twilio API key", "Twilio API key", "SK" + body("twilio", 32, HEX)),
        plant("Telegram bot token", "Telegram bot token", f"{digits('tg', 10)}:AA{body('tg2', 33, URLSAFE)}"),
        plant(
            "Discord bot token",
            "Discord bot token",
            f"{discord}.{body('dc', 6, URLSAFE)}.{body('dc2', 38, URLSAFE)}",
        ),
        plant("Docker Hub token", "Docker Hub token", "dckr_pat_" + body("docker", 27, URLSAFE)),
        plant("Databricks token", "Databricks token", "dapi" + body("databricks", 32, HEX)),
        plant("Replicate token", "Replicate token", "r8_" + body("replicate", 37)),
        plant("Groq key", "Groq key", "gsk_" + body("groq", 52)),
        plant("Authorization: Bearer", "authorization header", f"Authorization: Bearer {token}", token),
        plant("Authorization: Basic", "authorization header", f"Authorization: Basic {basic}", basic),
        plant("password= in a value", "secret assignment", f"password={pw['assign']}", pw["assign"]),
        plant("--password on a command line", "secret argument", f"--password {pw['flag']}", pw["flag"]),
        plant(
            "secret-named assignment",
            "secret assignment",
            f"WANDB_API_KEY={body('wandb-legacy', 40, HEX)}",
            body("wandb-legacy", 40, HEX),
        ),
    ]


SECRETS = _secrets()

# Who the planted machine is: the collector learns these from socket.gethostname() and $USER / $HOME.
HOST_FQDN = "gpu-b07.mlops-lab.internal"
HOST = HOST_FQDN.split(".")[0]
USER = "mhernandez"
GPU_UUID = "GPU-" + "-".join(body("gpu-uuid", n, HEX) for n in (8, 4, 4, 4, 12))
MIG_UUID = "MIG-" + "-".join(body("mig-uuid", n, HEX) for n in (8, 4, 4, 4, 12))
DEVICE_UUID = "-".join(body("dev-uuid", n, HEX) for n in (8, 4, 4, 4, 12))
SERIAL = digits("serial", 13)


def _identities() -> list[Plant]:
    return [
        plant("host name", "host name", f"nccl.{HOST}.log", HOST),
        plant("fully qualified host name", "host name", f"tcp://{HOST_FQDN}:29500", HOST_FQDN),
        plant("user name", "user name", f"running as {USER} on node 3", USER),
        plant("another user's home (Linux)", "user name", "/home/akowalski/cudnn-9.1/lib", "akowalski"),
        plant("home on macOS", "user name", "/Users/lchen/miniforge3/envs/gpu", "lchen"),
        plant("home on Windows", "user name", r"C:\Users\pnakamura\AppData\Local\Programs\Python", "pnakamura"),
        plant("Windows home seen from WSL", "user name", "/mnt/c/Users/obrien-k/cuda/lib", "obrien-k"),
        plant("IPv4 address", "IP address", "10.42.7.19"),
        plant("IPv6 address", "IP address", "fd12:3456:789a:1::17"),
        plant("MAC address", "MAC address", "3c:ec:ef:4a:19:b2"),
        plant("MAC address (Windows)", "MAC address", "3C-EC-EF-4A-19-B3"),
        plant("GPU UUID", "UUID (shortened)", GPU_UUID, GPU_UUID[4:]),
        plant("MIG UUID", "UUID (shortened)", MIG_UUID, MIG_UUID[4:]),
        plant("device UUID", "UUID (shortened)", f"device uuid {DEVICE_UUID}", DEVICE_UUID),
        plant("GPU serial number", "serial number", f"Serial Number : {SERIAL}", SERIAL),
        plant("e-mail address", "e-mail address", "m.hernandez@mlops-lab.example.org"),
    ]


IDENTITIES = _identities()
