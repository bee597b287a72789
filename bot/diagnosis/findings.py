"""What the engine concludes: findings in a fixed vocabulary of categories, ordered most likely cause first.

A finding's title and fix are worded by templates/findings/<rule id>.md.j2 (`templated`); every value a rule hands to
that wording comes from the issue, so each is made one inert line (bot/diagnosis/inert.py) before a template prints it,
wherever the template puts it. Titles, fixes and evidence are one line whatever made them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from bot.diagnosis.inert import inert_values, one_line
from collector import templating

Severity = Literal["error", "warning", "info"]

# The fixed vocabulary (a public contract: labels and the JSON output use these names).
CATEGORIES: dict[str, str] = {
    "cpu_only_wheel": "torch is a CPU-only build",
    "driver_too_old": "the NVIDIA driver is older than the CUDA torch was built with needs",
    "driver_not_loaded": "no usable NVIDIA driver (not installed, nouveau, or a version mismatch)",
    "gpus_hidden_by_env": "CUDA_VISIBLE_DEVICES / NVIDIA_VISIBLE_DEVICES hide GPUs the driver sees",
    "gpu_arch_unsupported": "the wheel has no kernels for the GPU's (newer) architecture",
    "gpu_too_old_for_cuda": "the GPU is older than this build supports (its CUDA major or its wheel)",
    "torchvision_mismatch": "torchvision is from another torch release or variant",
    "torchaudio_mismatch": "torchaudio is from another torch release or variant",
    "library_shadowing": "another copy of a CUDA library shadows the one torch ships",
    "mixed_installs": "torch (or its CUDA libraries) installed more than once",
    "nccl_topology_or_p2p": "NCCL trouble from the topology, P2P or the transport",
    "fp8_unsupported": "FP8 needs compute capability 8.9 or newer",
    "flash_attn_unsupported": "FlashAttention does not support this GPU",
    "wsl_specific": "a WSL-specific problem",
    "container_runtime": "the container runtime does not expose the GPU or enough resources",
    "mig_related": "MIG partitioning changes what processes see",
    "oom_or_memory": "GPU memory exhausted or fragmented",
    "missing_env_report": "no environment report to diagnose",
}
SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


@dataclass(frozen=True)
class Finding:
    id: str  # the rule that produced it
    category: str | None  # None only for notes about the diagnosis itself (severity "info")
    severity: Severity
    title: str
    fix: str
    evidence: list[str] = field(default_factory=list)
    # How directly the evidence shows the cause: facts checked against the matrix beat words in a traceback.
    confidence: float = 1.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "title", one_line(self.title, composed=True))
        object.__setattr__(self, "fix", one_line(self.fix, composed=True))
        object.__setattr__(self, "evidence", list(dict.fromkeys(line for line in map(one_line, self.evidence) if line)))
        if self.category not in CATEGORIES and not (self.category is None and self.severity == "info"):
            raise ValueError(f"unknown finding category {self.category!r}")
        if not self.evidence:
            raise ValueError(f"finding {self.id} has no evidence")
        if not self.fix.strip():
            raise ValueError(f"finding {self.id} has no fix")


def templated(
    rule_id: str,
    category: str,
    severity: Severity,
    evidence: list[str],
    *,
    confidence: float = 1.0,
    **params: Any,
) -> Finding:
    """A finding whose title and fix come from templates/findings/<rule_id>.md.j2, given `params` made inert."""
    name = f"findings/{rule_id}.md.j2"
    context = {"category": category, **inert_values(params)}
    return Finding(
        id=rule_id,
        category=category,
        severity=severity,
        title=templating.render_block(name, "title", **context),
        fix=templating.render_block(name, "fix", **context),
        evidence=list(dict.fromkeys(item for item in evidence if item)),
        confidence=confidence,
    )


def ranked(findings: list[Finding]) -> list[Finding]:
    """Most likely cause first: errors before warnings before info, then by confidence; one per (id, title)."""
    seen: set[tuple[str, str]] = set()
    unique = []
    for finding in findings:
        if (finding.id, finding.title) not in seen:
            seen.add((finding.id, finding.title))
            unique.append(finding)
    return sorted(unique, key=lambda f: (SEVERITY_ORDER[f.severity], -f.confidence))
