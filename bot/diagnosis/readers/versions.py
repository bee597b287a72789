"""torch's version as people paste it: "2.5.1+cu124," in a sentence, "2.5.1%2Bcu124" in a download URL, a wheel's
file name in a Windows path, torchvision's "0.20.1+cu124" on the line before torch's."""

from __future__ import annotations

import re
from typing import Literal

# Prose closes a version with a comma, a full stop or a bracket; none of them ends a PEP 440 local version.
TRAILING = ".,;:!?)]}>'\"`*"
# Distributions whose versions carry the same "+cu124" tags as torch's; the last one named before a tagged version
# on its line is the one the version belongs to ("torchvision in c:\...\site-packages (0.20.1+cu124)").
OWNER = re.compile(
    r"\b(torch|pytorch|torchvision|torchaudio|torchtext|torchdata|xformers|triton|flash[-_]attn|"
    r"torch[-_]tensorrt|onnxruntime[-_]gpu|jax|jaxlib|cupy|bitsandbytes|vllm|deepspeed)\b",
    re.I,
)
OWN_NAMES = {"torch", "pytorch"}
INSTALL_COMMAND = re.compile(r"\b(?:pip3?|conda|mamba|micromamba|uv(?: pip)?) install\b", re.I)
# pip's log of what an install replaced ("Found existing installation: torchvision 0.20.1", "Successfully
# uninstalled torch-2.5.1"): versions that were there before and are gone after, never the installed ones.
REMOVED_BY_PIP = re.compile(
    r"^\s*(?:Found existing installation:|Attempting uninstall:|Uninstalling |Successfully uninstalled )", re.I
)
# pip's and uv's refusals name what they could NOT install ("Could not find a version that satisfies the requirement
# torch==2.1.2+cu118", "No matching distribution found for torch==2.1.2+cu118", uv's "Because there is no version of
# torch==2.1.2+cu118"): a wheel that does not exist for this Python or platform, never the installed one.
REFUSALS = (
    r"Could not find a version that satisfies the requirement|No matching distribution found for"
    r"|Because there is no version of"
)
NOT_INSTALLED_BY_PIP = re.compile(REFUSALS, re.I)
# The torch version such a refusal names: the same version elsewhere in the issue (the install command that asked for
# it) is what was asked for, not what is installed.
REFUSED_TORCH = re.compile(rf"(?:{REFUSALS})\s+(?:py)?torch\s*==\s*v?(\d[\w.+%]{{0,40}})", re.I)


def clean(word: str) -> str:
    """ "2.5.1+cu124," -> "2.5.1+cu124"; "2.5.1%2Bcu124" -> "2.5.1+cu124"."""
    return word.replace("%2B", "+").replace("%2b", "+").rstrip(TRAILING)


def tag_of(version: str) -> str | None:
    return version.split("+", 1)[1] or None if "+" in version else None


def build_of(tag: str | None) -> Literal["cuda", "rocm", "cpu"] | None:
    """What a local version tag says the build is; None where it says nothing ("+git1a2b", "+xpu")."""
    if not tag:
        return None
    if tag == "cpu":
        return "cpu"
    if tag.startswith("rocm"):
        return "rocm"
    return "cuda" if tag.startswith("cu") and tag[2:].isdecimal() and len(tag) in (4, 5) else None  # cu92, cu124


def owned_by_torch(before: str) -> bool:
    """Whether a tagged version, preceded on its line by `before`, is torch's: the last distribution named before
    it is torch (or none is). Only the line's last 300 characters are read."""
    names = [match.group(1).lower() for match in OWNER.finditer(before[-300:])]
    return not names or names[-1] in OWN_NAMES


def refused_by_pip(text: str) -> set[str]:
    """The torch versions pip or uv said they could not find ("2.1.2+cu118"), cleaned as the readers clean one."""
    return {clean(match.group(1)) for match in REFUSED_TORCH.finditer(text)}


def removed_by_pip(line: str) -> bool:
    """Whether pip's log says the line's versions are not installed: what it removed, or what it could not find."""
    return bool(REMOVED_BY_PIP.match(line) or NOT_INSTALLED_BY_PIP.search(line))
