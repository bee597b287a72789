"""The ranking and severity policy, in one place: which findings are kept, in what order, and which earn a label.

The rules say what they saw; this module decides what of it the maintainer and the reporter are shown:

1. A decisive cause comes first. Findings are ordered by severity (error, warning, info), then by confidence:
   facts checked against the matrix (0.9-1.0) above a decisive error text (0.8), above a suggestive error text
   (0.5-0.6), above what the prose says about the setup (a cue, 0.4-0.46), above a learned guess (below 0.4), above
   the ask for a report (0.3).
2. *error* is earned only by a decisive error text or by two independent facts that agree (a +cpu torch on a machine
   with a GPU; a driver older than the CUDA torch was built with). A rule that has less says *warning*. A text that
   says what ran out, not that the environment is wrong ("CUDA out of memory": a leak, a batch too large, another
   process), is a *warning* however sure (`NOT_AN_ENVIRONMENT_FAULT`): most out-of-memory issues in a tracker are
   usage, and an error there is a false one.
3. A fallback (a prose cue, a learned guess) speaks only where nothing stronger did: it is dropped when any finding
   other than the ask for a report reaches the confidence of a suggestive error text. It never adds a label: a
   wrong label on a stranger's issue costs more than none.
4. Asking for a report (`needs-env`) and naming the likely cause are not exclusive: the ask stays below every cause
   and its label is still added when the facts that would confirm the cause are missing.
5. What is not evidence: a failed probe speaks only through its own error text (matched like any pasted error), a
   cut or edited report is a reason to ask again, and a value merely listed in the report's environment section is
   context for a finding, never its cause. Unknown means no finding, not a guess.
"""

from __future__ import annotations

from bot.diagnosis.findings import Finding, Severity, ranked

FALLBACKS = frozenset({"prose_cue", "learned_fallback"})
ASK = "missing_env_report"
STRONG = 0.5  # a suggestive error text: above this, a fallback has nothing to add
LABELLED = 0.5  # a warning below this (a fallback) is shown but not labelled
NOT_AN_ENVIRONMENT_FAULT = frozenset({"oom_or_memory"})  # rule 2: what its texts say is true of any environment


def text_severity(category: str, decisive: bool) -> Severity:
    """The severity an error text earns for `category` (rule 2)."""
    return "error" if decisive and category not in NOT_AN_ENVIRONMENT_FAULT else "warning"


def decide(findings: list[Finding]) -> list[Finding]:
    """The findings to show, most likely cause first (rules 1-4 above)."""
    stronger = any(f.confidence >= STRONG and f.category != ASK and f.id not in FALLBACKS for f in findings)
    kept = [f for f in findings if not (stronger and f.id in FALLBACKS)]
    return ranked(_one_fallback_per_category(kept))


def earns_label(finding: Finding) -> bool:
    """Whether the finding's category is worth a label on the issue (rule 3)."""
    if finding.severity == "info" or finding.category in (None, ASK) or finding.id in FALLBACKS:
        return False
    return finding.severity == "error" or finding.confidence >= LABELLED


def _one_fallback_per_category(findings: list[Finding]) -> list[Finding]:
    """A cue and a learned guess for the same category say it once (the cue: it quotes the words)."""
    cued = {f.category for f in findings if f.id == "prose_cue"}
    return [f for f in findings if not (f.id == "learned_fallback" and f.category in cued)]
