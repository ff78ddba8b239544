"""The external evaluation signals a bridge extracts (``ExternalEvaluationSignals``).

A signal left ``None`` was not extracted. Values are kept exactly as the evaluator gave them (no
range checks, NaN kept) so that the scorecard's own input checks see what the evaluator said.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

import assay
import assay_scorecard

__all__ = ["SIGNAL_KEYS", "EvaluationSignals", "claim_support_to_wire"]

SIGNAL_KEYS: tuple[str, ...] = (
    "faithfulnessScore",
    "answerRelevanceScore",
    "claimSupport",
    "citationCoverageScore",
    "invalidCitationCount",
    "citationCount",
    "hasConflict",
    "conflictingCandidateCount",
)
"""The eight scoring-input keys a bridge may fill, in the specification's order (also the merge
order)."""

_FIELD_BY_KEY: dict[str, str] = {
    "faithfulnessScore": "faithfulness_score",
    "answerRelevanceScore": "answer_relevance_score",
    "claimSupport": "claim_support",
    "citationCoverageScore": "citation_coverage_score",
    "invalidCitationCount": "invalid_citation_count",
    "citationCount": "citation_count",
    "hasConflict": "has_conflict",
    "conflictingCandidateCount": "conflicting_candidate_count",
}


def claim_support_to_wire(claim_support: assay_scorecard.ClaimSupport) -> dict[str, Any]:
    """The wire object of a claim summary: ``totalClaims``, ``supportedClaims``, then
    ``unsupportedClaims`` and ``contradictedClaims`` only when they were given."""
    wire: dict[str, Any] = {
        "totalClaims": claim_support.total_claims,
        "supportedClaims": claim_support.supported_claims,
    }
    if claim_support.unsupported_claims is not None:
        wire["unsupportedClaims"] = claim_support.unsupported_claims
    if claim_support.contradicted_claims is not None:
        wire["contradictedClaims"] = claim_support.contradicted_claims
    return wire


@attrs.frozen
class EvaluationSignals:
    """Signals taken from an evaluator's output, ready to fill gaps in scoring inputs.

    Attributes:
        faithfulness_score: ``faithfulnessScore``: share of the answer supported by the context
            (0-1 when the evaluator respects its scale).
        answer_relevance_score: ``answerRelevanceScore``: how well the answer addresses the
            question.
        claim_support: ``claimSupport``: claim-level counts.
        citation_coverage_score: ``citationCoverageScore``: share of the answer covered by valid
            citations.
        invalid_citation_count: ``invalidCitationCount``.
        citation_count: ``citationCount``.
        has_conflict: ``hasConflict``.
        conflicting_candidate_count: ``conflictingCandidateCount``.

    Invariant: a field is ``None`` exactly when the bridge did not extract it; :meth:`to_wire`
    leaves it out.
    """

    faithfulness_score: float | None = None
    answer_relevance_score: float | None = None
    claim_support: assay_scorecard.ClaimSupport | None = None
    citation_coverage_score: float | None = None
    invalid_citation_count: float | None = None
    citation_count: float | None = None
    has_conflict: bool | None = None
    conflicting_candidate_count: float | None = None

    def to_wire(self) -> dict[str, Any]:
        """The camelCase object of the JSON input format, keys in :data:`SIGNAL_KEYS` order,
        extracted keys only."""
        wire: dict[str, Any] = {}
        for key in SIGNAL_KEYS:
            value = getattr(self, _FIELD_BY_KEY[key])
            if value is None:
                continue
            wire[key] = claim_support_to_wire(value) if key == "claimSupport" else value
        return wire

    @classmethod
    def from_wire_values(cls, values: Mapping[str, Any]) -> EvaluationSignals:
        """Build from camelCase keys (a subset of :data:`SIGNAL_KEYS`; ``claimSupport`` as an
        :class:`assay_scorecard.ClaimSupport`).

        :raises AssayError: ``INVALID_INPUT`` naming the key when it is not a signal key.
        """
        fields: dict[str, Any] = {}
        for key, value in values.items():
            if key not in _FIELD_BY_KEY:
                raise assay.AssayError(
                    assay.ErrorCode.INVALID_INPUT,
                    f"not an evaluation signal; expected one of {', '.join(SIGNAL_KEYS)}",
                    key,
                )
            fields[_FIELD_BY_KEY[key]] = value
        return cls(**fields)

    def is_empty(self) -> bool:
        """True when no signal was extracted."""
        return all(getattr(self, name) is None for name in _FIELD_BY_KEY.values())
