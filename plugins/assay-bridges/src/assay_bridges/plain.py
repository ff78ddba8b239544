"""The four plain-object adapters of the specification, exactly as the reference implements them.

Rules: only numbers are taken (NaN and infinities too; strings, ``None`` and
booleans are ignored), values are not range-checked, and a key appears in the result only when it
was extracted. These adapters read flat dicts with fixed key names; for what the frameworks really
return (RAGAS rows, DeepEval ``MetricData``, TruLens rows and ``FeedbackResult``) use
:mod:`assay_bridges.ragas`, :mod:`assay_bridges.deepeval` and :mod:`assay_bridges.trulens`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import assay
import assay_scorecard
from assay_bridges.signals import EvaluationSignals
from assay_scorecard.signals import is_number

__all__ = [
    "from_custom_judge",
    "from_deepeval_like",
    "from_ragas_like",
    "from_trulens_like",
]

_CUSTOM_SCORE_KEYS: tuple[tuple[str, str], ...] = (
    ("faithfulnessScore", "faithfulness_score"),
    ("answerRelevanceScore", "answer_relevance_score"),
    ("citationCoverageScore", "citation_coverage_score"),
    ("invalidCitationCount", "invalid_citation_count"),
    ("citationCount", "citation_count"),
    ("conflictingCandidateCount", "conflicting_candidate_count"),
)


def _require_mapping(result: Any, adapter: str) -> Mapping[str, Any]:
    if not isinstance(result, Mapping):
        raise assay.AssayError(
            assay.ErrorCode.MALFORMED_INPUT,
            f"{adapter} expects an object (dict) of evaluator results, got {type(result).__name__}",
            "result",
        )
    return result


def _number_or_none(result: Mapping[str, Any], key: str) -> Any:
    value = result.get(key)
    return value if is_number(value) else None


def from_ragas_like(result: Mapping[str, Any]) -> EvaluationSignals:
    """Signals from a RAGAS-like result dict.

    ``faithfulness`` -> ``faithfulnessScore``; ``answer_relevancy``, or else ``answerRelevance``,
    -> ``answerRelevanceScore``.

    :raises AssayError: ``MALFORMED_INPUT`` when ``result`` is not a mapping.
    """
    result = _require_mapping(result, "from_ragas_like")
    relevance = _number_or_none(result, "answer_relevancy")
    if relevance is None:
        relevance = _number_or_none(result, "answerRelevance")
    return EvaluationSignals(
        faithfulness_score=_number_or_none(result, "faithfulness"),
        answer_relevance_score=relevance,
    )


def from_deepeval_like(result: Mapping[str, Any]) -> EvaluationSignals:
    """Signals from a DeepEval-like result dict.

    ``faithfulnessScore`` and ``answerRelevancyScore`` (-> ``answerRelevanceScore``); when
    ``faithfulnessScore`` is not a number and ``metric`` is the string ``"faithfulness"`` in any
    case, ``score`` -> ``faithfulnessScore``.

    :raises AssayError: ``MALFORMED_INPUT`` when ``result`` is not a mapping.
    """
    result = _require_mapping(result, "from_deepeval_like")
    faithfulness = _number_or_none(result, "faithfulnessScore")
    metric = result.get("metric")
    if faithfulness is None and isinstance(metric, str) and metric.lower() == "faithfulness":
        faithfulness = _number_or_none(result, "score")
    return EvaluationSignals(
        faithfulness_score=faithfulness,
        answer_relevance_score=_number_or_none(result, "answerRelevancyScore"),
    )


def from_trulens_like(result: Mapping[str, Any]) -> EvaluationSignals:
    """Signals from a TruLens-like feedback dict: ``groundedness`` -> ``faithfulnessScore``,
    ``answer_relevance`` -> ``answerRelevanceScore`` (exact, case-sensitive keys).

    :raises AssayError: ``MALFORMED_INPUT`` when ``result`` is not a mapping.
    """
    result = _require_mapping(result, "from_trulens_like")
    return EvaluationSignals(
        faithfulness_score=_number_or_none(result, "groundedness"),
        answer_relevance_score=_number_or_none(result, "answer_relevance"),
    )


def from_custom_judge(result: Mapping[str, Any]) -> EvaluationSignals:
    """Signals from a custom judge's dict, by exact key name.

    Numbers: ``faithfulnessScore``, ``answerRelevanceScore``, ``citationCoverageScore``,
    ``invalidCitationCount``, ``citationCount``, ``conflictingCandidateCount``; ``hasConflict``
    only when a boolean. ``claimSupport`` is built from the top-level ``totalClaims`` and
    ``supportedClaims`` (both numbers, else no claim support) plus ``unsupportedClaims`` and
    ``contradictedClaims`` when numbers; a nested ``claimSupport`` object is ignored.

    :raises AssayError: ``MALFORMED_INPUT`` when ``result`` is not a mapping.
    """
    result = _require_mapping(result, "from_custom_judge")
    fields: dict[str, Any] = {
        field: _number_or_none(result, key) for key, field in _CUSTOM_SCORE_KEYS
    }
    has_conflict = result.get("hasConflict")
    fields["has_conflict"] = has_conflict if isinstance(has_conflict, bool) else None
    total = _number_or_none(result, "totalClaims")
    supported = _number_or_none(result, "supportedClaims")
    if total is not None and supported is not None:
        fields["claim_support"] = assay_scorecard.ClaimSupport(
            total_claims=total,
            supported_claims=supported,
            unsupported_claims=_number_or_none(result, "unsupportedClaims"),
            contradicted_claims=_number_or_none(result, "contradictedClaims"),
        )
    return EvaluationSignals(**fields)
