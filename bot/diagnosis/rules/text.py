"""What the words say when the facts don't: known error texts, a missing report, versions the matrix lacks."""

from __future__ import annotations

from collections.abc import Iterator

from bot.diagnosis import policy
from bot.diagnosis.findings import CATEGORIES, Finding
from bot.diagnosis.matrix.model import Cue, ErrorSignature
from bot.diagnosis.readers.base import Quote
from bot.diagnosis.readers.own import NAME as TWIN_FORMAT
from bot.diagnosis.rules import finding, gpus, rule
from bot.diagnosis.rules.view import View
from collector.report.schema import TORCH

# Confidence of a diagnosis that rests on an error text alone.
TEXT_CONFIDENCE = {"decisive": 0.8, "suggestive": 0.5}


@rule
def known_error(v: View) -> Iterator[Finding]:
    """One finding per category the quoted errors point to; `diagnose` drops it where facts said more. Where the
    prose names another usual cause of the text (the row's `other_causes`), the finding is that cause's, a warning
    at a suggestive text's confidence: the category then rests on the words as much as on the text."""
    strongest: dict[str, tuple[ErrorSignature, Quote, Quote | None]] = {}
    for signature, quote in v.signatures:
        category, context = _in_context(v, signature, quote)
        if signature.package and context is None:
            continue  # another package's own build: package_without_cuda
        held = strongest.get(category)
        stronger = _strength(signature, context) == "decisive"
        if held is None or (stronger and _strength(held[0], held[2]) == "suggestive"):
            strongest[category] = (signature, quote, context)
    for category, (signature, quote, context) in strongest.items():
        strength = _strength(signature, context)
        evidence = [f"{quote.text} ({quote.where})"] + ([f"{context.text} ({context.where})"] if context else [])
        yield finding(
            "known_error", category, policy.text_severity(category, strength == "decisive"), evidence,
            confidence=TEXT_CONFIDENCE[strength], signature=signature, quote=quote.text,
            context=context.text if context else None, summary=CATEGORIES[category], have_report=v.usable_report(),
            families=v.matrix.matrix.families,
        )  # fmt: skip


@rule
def package_without_cuda(v: View) -> Iterator[Finding]:
    """A package other than torch says its own build has no CUDA (DGL, jaxlib, PaddlePaddle...): the fix is that
    package's CUDA build, whatever torch is; torch's facts neither confirm nor refute it."""
    seen: dict[str, tuple[ErrorSignature, Quote]] = {}
    for signature, quote in v.signatures:
        if not signature.package or _in_context(v, signature, quote)[1] is not None:
            continue
        held = seen.get(signature.package)
        if held is None or (signature.strength == "decisive" and held[0].strength == "suggestive"):
            seen[signature.package] = (signature, quote)
    for package, (signature, quote) in seen.items():
        decisive = signature.strength == "decisive"
        yield finding(
            "package_without_cuda", signature.category, policy.text_severity(signature.category, decisive),
            [f"{quote.text} ({quote.where})"], confidence=TEXT_CONFIDENCE[signature.strength], package=package,
            install=signature.install, quote=quote.text, have_report=v.usable_report(),
        )  # fmt: skip


def _strength(signature: ErrorSignature, context: Quote | None) -> str:
    return "suggestive" if context else signature.strength


def _in_context(v: View, signature: ErrorSignature, quote: Quote) -> tuple[str, Quote | None]:
    """The category the text points to in this issue, and the prose that moved it from the row's own (or None): the
    first of the row's other causes that a specific cue names, else the first a broad mention names. Words on the
    error's own line are the message, not prose about the setup ("needs a GPU with at least compute capability 2.0"
    names no GPU's capability)."""
    if not signature.other_causes or TWIN_FORMAT in v.case.formats:
        return signature.category, None
    if "gpu_too_old_for_cuda" in signature.other_causes and (dropped := gpus.dropped_by_current_torch(v)):
        return "gpu_too_old_for_cuda", dropped
    named: dict[tuple[bool, str], Quote] = {}
    for cue in v.matrix.matrix.cues:
        said = v.cues.get(cue.id)
        if said is not None and cue.category in signature.other_causes and said.where != quote.where:
            named.setdefault((cue.weak, cue.category), said)
    for weak in (False, True):
        for category in signature.other_causes:
            if (weak, category) in named:
                return category, named[(weak, category)]
    return signature.category, None


# What people write about their setup, where nothing printed decides: above the ask for a report, below any error text.
CUE_CONFIDENCE = 0.4
WEAK_CUE_CONFIDENCE = 0.37  # broad mentions only: below one specific cue, above a learned guess (0.35)
CUE_AGREEING = 0.02  # each further cue for the same category
CUE_CEILING = 0.46
SYMPTOM_CUE_CONFIDENCE = 0.36  # below any cue that names a cause, above a learned guess


@rule
def prose_cue(v: View) -> Iterator[Finding]:
    """One "likely" finding per category the prose points to (matrix data/cues.yaml); policy keeps it only where no
    stronger finding exists."""
    if TWIN_FORMAT in v.case.formats:
        return  # our own report says what the words would: its listings (modules, paths, variables) are not prose
    by_category: dict[str, list[tuple[Cue, Quote]]] = {}
    for cue in v.matrix.matrix.cues:
        if cue.id in v.cues and not cue.context_only:
            by_category.setdefault(cue.category, []).append((cue, v.cues[cue.id]))
    for category, cued in by_category.items():
        kinds = {"symptom" if cue.symptom else "weak" if cue.weak else "specific" for cue, _ in cued}
        base = (
            CUE_CONFIDENCE
            if "specific" in kinds
            else WEAK_CUE_CONFIDENCE
            if "weak" in kinds
            else SYMPTOM_CUE_CONFIDENCE
        )
        confidence = min(CUE_CEILING, base + CUE_AGREEING * (len(cued) - 1))
        yield finding(
            "prose_cue", category, "warning", [f"{quote.text} ({quote.where})" for _, quote in cued],
            confidence=confidence, summary=CATEGORIES[category], quote=cued[0][1].text,
            families=v.matrix.matrix.families, fix=_cue_wording(v, category, [cue for cue, _ in cued]),
            possibly=kinds == {"symptom"},
        )  # fmt: skip


# Categories about torch's own build, and their wording for an issue that never names torch (the words may be
# about another package's build: "the release binary is a CPU-only build").
UNNAMED = {"cpu_only_wheel": "cpu_only_wheel_unnamed"}


def _cue_wording(v: View, category: str, cues: list[Cue]) -> str | None:
    """The cues' own wording of the fix, else the wording for an issue that never names torch, else None."""
    own = next((cue.fix for cue in cues if cue.fix), None)
    if own or v.torch_in_play:
        return own
    return UNNAMED.get(category)


# Below every diagnosis, even one from a vague error text: asking for a report is what to do next, not the cause.
MISSING_REPORT_CONFIDENCE = 0.3


@rule
def missing_env_report(v: View) -> Iterator[Finding]:
    if v.usable_report() and not v.case.damaged_report:
        return
    empty = [field.heading for field in v.case.fields if field.role == "environment" and field.empty]
    evidence = [f"the '{heading}' field is empty" for heading in empty] or [
        "no PyTorch version, GPU, driver or package list found in the issue"
    ]
    yield finding(
        "missing_env_report", "missing_env_report", "warning", evidence, confidence=MISSING_REPORT_CONFIDENCE,
        damaged=v.case.damaged_report, has_error=bool(v.case.errors),
    )  # fmt: skip


@rule
def matrix_does_not_know(v: View) -> Iterator[Finding]:
    version = v.torch.version if v.torch else None
    if version and v.release is None and v.matrix.is_newer_than_known(version):
        yield finding(
            "matrix_does_not_know", None, "info", v.evidence(TORCH),  # type: ignore[arg-type]
            version=version, newest=v.matrix.newest_release().series, reviewed=v.matrix.matrix.reviewed,
        )  # fmt: skip
