"""From the text evidence of an answer to the scorecard's signals, and to what people are shown.

The table (also in docs/answer-first.md):

======================  ==================================================================
signal                  derived from the evidence
======================  ==================================================================
``claimSupport``        ``totalClaims``: the answer's claims; ``supportedClaims``: claims whose
                        support reaches the detector's claim threshold (0.9, the score at
                        which the answer_support metric passes); ``contradictedClaims``: the
                        other claims with a ``negation`` or ``yes-no`` item (the contexts
                        state the opposite); ``unsupportedClaims``: the rest. Left out for an
                        answer without claims.
``faithfulnessScore``   ``supportedClaims / totalClaims``: the share of claims the contexts
                        support, as evaluators (RAGAS, DeepEval) define faithfulness. Left
                        out for an answer without claims.
``supportLevel``        ``high`` when every claim is supported with no doubt left (no
                        unsupported item, not even a name another passage name fits the
                        question better) and the score reaches the claim threshold;
                        ``medium`` when claims are supported but some carry a doubt, or only
                        some claims are supported; ``low`` when no claim is supported or the
                        score is below 0.5 (or undetermined)
``hasConflict``         true when the detector found a contradiction between contexts
``documentsSilent``     true when there is no context at all
======================  ==================================================================
"""

from __future__ import annotations

from typing import Any

from assay_faithfulness import AnswerEvidence, ClaimEvidence
from assay_faithfulness.answer_support import CLAIM_THRESHOLD
from assay_scorecard import (
    AnswerRecord,
    ClaimFinding,
    SignalReading,
    TextEvidence,
    UnsupportedFinding,
)

__all__ = [
    "CONTRADICTING_KINDS",
    "HIGH_SUPPORT",
    "MEDIUM_SUPPORT",
    "display_evidence",
    "passes",
    "reading_from_evidence",
    "signals_from_evidence",
    "support_level",
]

HIGH_SUPPORT = CLAIM_THRESHOLD
"""The answer support score from which ``supportLevel`` can be ``high``: the detector's claim
threshold (an answer whose every claim the contexts support scores at least this)."""
MEDIUM_SUPPORT = 0.5
"""Below this answer support score ``supportLevel`` is ``low``: the middle of the scale, under
which the detector finds less support than not."""
CONTRADICTING_KINDS = frozenset({"negation", "yes-no"})
"""Unsupported items whose claim counts as contradicted: the contexts state the opposite."""


def passes(claim: ClaimEvidence) -> bool:
    """The claim's support reaches the detector's claim threshold: the contexts support it.

    The detector's own ``supported`` flag is stricter: it is also false when a name of the
    claim is one that another passage name fits the question better. That doubt is right about
    a third of the time on correct HaluEval answers, so it lowers ``supportLevel`` (and shows
    as a doubt) instead of counting the claim as unsupported.
    """
    return claim.support >= CLAIM_THRESHOLD


def support_level(evidence: AnswerEvidence) -> str:
    """``high`` when every claim passes with no doubt left (the detector's ``supported``) and
    the answer support score reaches :data:`HIGH_SUPPORT`; ``low`` when no claim passes, the
    score is below :data:`MEDIUM_SUPPORT` or undetermined; ``medium`` otherwise."""
    score = evidence.score
    if score is None or score < MEDIUM_SUPPORT:
        return "low"
    passing = sum(1 for claim in evidence.claims if passes(claim))
    if passing == 0:
        return "low"
    if evidence.supported_claims == evidence.total_claims and score >= HIGH_SUPPORT:
        return "high"
    return "medium"


def signals_from_evidence(evidence: AnswerEvidence, context_count: int) -> dict[str, Any]:
    """The scoring signals (JSON input format) of an answer's evidence; see the module table.

    :param context_count: how many contexts the answer was checked against (none: the
        documents are silent).
    """
    inputs: dict[str, Any] = {"supportLevel": support_level(evidence)}
    total = evidence.total_claims
    if total:
        supported = sum(1 for claim in evidence.claims if passes(claim))
        contradicted = sum(
            1
            for claim in evidence.claims
            if not passes(claim)
            and any(item.kind in CONTRADICTING_KINDS for item in claim.unsupported)
        )
        inputs["faithfulnessScore"] = supported / total
        inputs["claimSupport"] = {
            "totalClaims": total,
            "supportedClaims": supported,
            "unsupportedClaims": total - supported - contradicted,
            "contradictedClaims": contradicted,
        }
    inputs["hasConflict"] = bool(evidence.conflicts)
    if context_count == 0:
        inputs["documentsSilent"] = True
    return inputs


_VERDICTS = {
    "high": "Supported by the contexts",
    "medium": "Partly supported by the contexts",
    "low": "Not supported by the contexts",
}


def _verdict(evidence: AnswerEvidence) -> str:
    """The summary's first words, from ``supportLevel``; a ``medium`` answer whose every claim
    passes is supported with a doubt (a name another passage name may fit better), not partly."""
    level = support_level(evidence)
    if level == "medium" and all(passes(claim) for claim in evidence.claims):
        return "Supported, with a doubt"
    return _VERDICTS[level]


def display_evidence(evidence: AnswerEvidence, record: AnswerRecord, reader: str) -> TextEvidence:
    """What people are shown: each claim with its span (named by its context's ``id``, title or
    position) and unsupported items, the conflicts, and a summary: a verdict that agrees with
    the signals (supported / partly / not supported), then the detector's reason."""
    contexts = record.contexts
    claims = []
    for claim in evidence.claims:
        span = claim.span
        source = None
        if span is not None and 0 <= span.context_index < len(contexts):
            source = contexts[span.context_index].label(span.context_index)
        claims.append(
            ClaimFinding(
                text=claim.text,
                supported=passes(claim),
                support=claim.support,
                span=None if span is None else span.text,
                source=source,
                unsupported=tuple(
                    UnsupportedFinding(item.kind, item.text, item.reason)
                    for item in claim.unsupported
                ),
            )
        )
    verdict = "Support undetermined" if evidence.score is None else _verdict(evidence)
    summary = f"{verdict}: {evidence.reason}"
    return TextEvidence(reader, evidence.score, summary, tuple(claims), evidence.conflicts)


def reading_from_evidence(
    evidence: AnswerEvidence, record: AnswerRecord, reader: str
) -> SignalReading:
    """The :class:`~assay_scorecard.SignalReading` of an answer's evidence: its signals and
    what people are shown."""
    return SignalReading(
        signals_from_evidence(evidence, len(record.contexts)),
        display_evidence(evidence, record, reader),
    )
