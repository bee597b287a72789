"""Features gated by compute capability: FP8 needs sm_89+, FlashAttention needs sm_80+ (FA3: Hopper)."""

from __future__ import annotations

from collections.abc import Iterator

from bot.diagnosis.findings import Finding, Severity
from bot.diagnosis.matrix.model import Feature, version_key
from bot.diagnosis.rules import finding, refutes, rule
from bot.diagnosis.rules.view import GpuView, View
from collector.report.model import Fact
from collector.report.schema import SMOKE_FP8, SMOKE_SDPA, Key, SmokeResult


def below(feature: Feature, gpus: list[GpuView]) -> list[GpuView]:
    """The GPUs the feature does not run on."""
    out = []
    for gpu in gpus:
        if gpu.cc is None:
            continue
        too_low = version_key(gpu.cc) < version_key(feature.min_cc)
        too_high = feature.max_cc is not None and version_key(gpu.cc) > version_key(feature.max_cc)
        not_listed = bool(feature.only_cc) and gpu.cc not in feature.only_cc
        if too_low or too_high or not_listed:
            out.append(gpu)
    return out


def smoke_failed(v: View, key: Key[SmokeResult]) -> str | None:
    result = v.report.facts.get(key.name)
    if isinstance(result, Fact) and not result.value.passed:
        return f"{key.title} failed: {result.value.detail}"
    return None


@rule
def fp8_unsupported(v: View) -> Iterator[Finding]:
    feature = v.matrix.feature("fp8")
    quoted = v.quoted("fp8_unsupported")
    failed = smoke_failed(v, SMOKE_FP8)
    unable = below(feature, v.gpus)
    mentioned = v.case.topics.get("fp8")
    if not (quoted or failed or (mentioned and unable)) or (v.gpus and not unable and not failed):
        return
    evidence = [*(f"{q.text} ({q.where})" for _, q in quoted), *v.gpu_evidence(), *([failed] if failed else [])]
    if mentioned:
        evidence.append(f"{mentioned.text} ({mentioned.where})")
    # FP8 named beside an older GPU is a question as often as a failure: FP8 KV caches and weight-only FP8 run on
    # Ampere (vllm-project/vllm#4827, an A10); only a failure text or a failed probe says it broke.
    severity: Severity = "error" if failed or v.decisively_quoted("fp8_unsupported") else "warning"
    yield finding(
        "fp8_unsupported", "fp8_unsupported", severity, evidence,
        confidence=0.95 if unable and (quoted or failed) else 0.75 if unable else 0.7,
        gpus=[f"{g.gpu.name} (sm_{(g.cc or '').replace('.', '')})" for g in unable], feature=feature,
    )  # fmt: skip


@refutes("fp8_unsupported")
def every_gpu_runs_fp8(v: View) -> bool:
    """Every GPU is known, at or above the FP8 floor, and no FP8 smoke test failed."""
    known = [gpu for gpu in v.gpus if gpu.cc]
    runs_everywhere = bool(known) and len(known) == len(v.gpus) and not below(v.matrix.feature("fp8"), known)
    return runs_everywhere and not smoke_failed(v, SMOKE_FP8)


@rule
def flash_attn_unsupported(v: View) -> Iterator[Finding]:
    fa3 = any(name.startswith(("flash-attn-3", "flash-attn3")) for name in v.packages)
    fa3 = fa3 or "flash_attention_3" in v.case.topics
    feature = v.matrix.feature("flash_attn_3" if fa3 else "flash_attn_2")
    quoted = v.quoted("flash_attn_unsupported")
    failed = smoke_failed(v, SMOKE_SDPA)
    mentioned = v.case.topics.get("flash_attention_3" if fa3 else "flash_attention")
    installed = fa3 or "flash-attn" in v.packages or mentioned is not None
    unable = below(feature, v.gpus)
    if not (quoted or failed or (installed and unable)) or (v.gpus and not unable and not failed):
        return
    evidence = [*(f"{q.text} ({q.where})" for _, q in quoted), *v.gpu_evidence(), *([failed] if failed else [])]
    if mentioned:
        evidence.append(f"{mentioned.text} ({mentioned.where})")
    # A suggestive text says the error only with more beside it: xFormers lists each kernel's refusals, and one
    # kernel's "(too old)" among others refused for the inputs (facebookresearch/xformers#1263) is no GPU fault.
    decided = bool(failed) or v.decisively_quoted("flash_attn_unsupported")
    severity: Severity = "error" if decided else "warning"
    yield finding(
        "flash_attn_unsupported", "flash_attn_unsupported", severity, evidence, confidence=1.0 if decided else 0.6,
        gpus=[f"{g.gpu.name} (sm_{(g.cc or '').replace('.', '')})" for g in unable], feature=feature, fa3=fa3,
    )  # fmt: skip
