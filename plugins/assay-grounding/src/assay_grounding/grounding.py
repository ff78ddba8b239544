"""Answer grounding (max 30): how well the answer is grounded in the source documents.

"Dimension 1" of transparent-confidence 0.3; the same rules, to the number.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import assay
from assay.jsmath import js_number, round_to
from assay_scorecard.signals import DOCUMENTS_SILENT, claim_support_problem, is_number, js_truthy

MAX_POINTS = 30.0
_ABSENT = object()
_BASE = {"high": 30, "medium": 13}
_CEILINGS = {"inferential": 24, "multi-hop": 18, "comparative": 16}
_SUPPORT_BANDS = ((0.9, 0), (0.7, -3), (0.5, -7))

MISSING_FAITHFULNESS = assay.ScoreWarning(
    "missing-faithfulness",
    "warn",
    "No faithfulnessScore or claimSupport signal was provided.",
    "faithfulnessScore",
)
ONE_INVALID_CITATION = assay.ScoreWarning(
    "invalid-citations", "warn", "One invalid citation was reported.", "invalidCitationCount"
)
MANY_INVALID_CITATIONS = assay.ScoreWarning(
    "invalid-citations", "warn", "Multiple invalid citations were reported.", "invalidCitationCount"
)
LOW_COVERAGE = assay.ScoreWarning(
    "low-citation-coverage", "warn", "Citation coverage is below 0.50.", "citationCoverageScore"
)


def _num(value: Any) -> float:
    """JavaScript numeric coercion of the values relational comparisons see here."""
    if value is None or value is False:
        return 0.0
    if value is True:
        return 1.0
    if is_number(value):
        return float(value)
    return float("nan")


def _support_penalty(effective: float) -> int:
    for floor, penalty in _SUPPORT_BANDS:
        if effective >= floor:
            return penalty
    return -12


class Grounding(assay.Dimension):
    """Answer grounding: support level, penalties, complexity ceiling, faithfulness / claim
    support modifier, citation quality. Always active."""

    name = "grounding"
    tier = 1
    max_points = MAX_POINTS
    default_weight = MAX_POINTS
    extension = False
    reads = frozenset(
        {
            "documentsSilent",
            "supportLevel",
            "ambiguityNotes",
            "requiresExpertReview",
            "externalConstraintNote",
            "hasConflict",
            "queryComplexity",
            "claimSupport",
            "faithfulnessScore",
            "invalidCitationCount",
            "citationCoverageScore",
            "citationCount",
        }
    )
    missing_signals = MappingProxyType({MISSING_FAITHFULNESS.code: "faithfulnessScore"})

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        if inputs.get("documentsSilent") is True:
            return assay.dimension_score(
                raw=0,
                max_points=MAX_POINTS,
                explanation="Documents do not address this question; grounding scores 0.",
                components={"supportBase": 0},
                diagnostics={"documentsSilent": True},
                warnings=[DOCUMENTS_SILENT],
            )
        adjustments: dict[str, float] = {}
        diagnostics: dict[str, Any] = {}
        warnings: list[assay.ScoreWarning] = []
        reasons: list[str] = []

        support = inputs.get("supportLevel")
        # unhashable: no level the reference names
        if type(support) is not str and isinstance(support, list | dict):
            raise assay.AssayError(
                "MALFORMED_INPUT", "supportLevel must be a string", "supportLevel"
            )
        notes = inputs.get("ambiguityNotes")
        ambiguous = notes is not None and js_truthy(notes)
        base = 21 if support == "high" and ambiguous else _BASE.get(support, 5)  # type: ignore[arg-type]
        reasons.append(_support_reason(support, ambiguous, base))
        score: float = base

        if inputs.get("requiresExpertReview") is True:
            score -= 3
            adjustments["expertReviewPenalty"] = -3
            reasons.append("Expert review recommended (-3).")
        note = inputs.get("externalConstraintNote")
        if isinstance(note, str) and note:
            score -= 2
            adjustments["externalConstraintPenalty"] = -2
            diagnostics["externalConstraintPresent"] = True
            reasons.append("External constraint limits the answer (-2).")
        if inputs.get("hasConflict") is True:
            score -= 5
            adjustments["conflictPenalty"] = -5
            reasons.append("Sources conflict (-5).")

        complexity = inputs.get("queryComplexity")
        if complexity is not None and complexity != "direct" and js_truthy(complexity):
            diagnostics["queryComplexity"] = complexity
            ceiling = _CEILINGS.get(complexity) if isinstance(complexity, str) else None
            if ceiling is not None:
                diagnostics["complexityCeiling"] = ceiling
                if score > ceiling:
                    adjustments["complexityCeiling"] = ceiling - score
                    score = ceiling
                    reasons.append(f"{complexity} question: capped at {ceiling}.")

        claims: Any = inputs.get("claimSupport")
        claims_valid = "claimSupport" in inputs and claim_support_problem(claims) is None
        claim_score: float | None = None
        if claims_valid:
            total = claims["totalClaims"]
            supported = claims["supportedClaims"]
            contradicted = claims.get("contradictedClaims", 0)
            diagnostics["totalClaims"] = total
            diagnostics["supportedClaims"] = supported
            diagnostics["unsupportedClaims"] = claims.get(
                "unsupportedClaims", total - supported - contradicted
            )
            diagnostics["contradictedClaims"] = contradicted
            claim_score = supported / total
            diagnostics["claimSupportScore"] = round_to(claim_score, 4)

        faithfulness = inputs.get("faithfulnessScore", _ABSENT)
        if faithfulness is _ABSENT:
            faithfulness = None
        else:
            diagnostics["faithfulnessScore"] = faithfulness
            if not is_number(faithfulness):
                faithfulness = None
        # the effective support score: the smaller of the two signals given (claim_score is a
        # quotient: a number whenever it is set)
        if faithfulness is not None or claim_score is not None:
            if claim_score is None:
                effective = faithfulness
            elif faithfulness is None:
                effective = claim_score
            else:
                effective = _js_min(float(faithfulness), claim_score)
            diagnostics["effectiveSupportScore"] = round_to(effective, 4)
            penalty = _support_penalty(effective)
            if penalty:
                score += penalty
                adjustments["supportSignalPenalty"] = penalty
                reasons.append(
                    f"Effective support score {js_number(round_to(effective, 2))} ({penalty})."
                )
        else:
            warnings.append(MISSING_FAITHFULNESS)
        if claims_valid and claims.get("contradictedClaims", 0) >= 1:
            score -= 5
            adjustments["contradictionPenalty"] = -5
            reasons.append("Contradicted claims (-5).")

        invalid = inputs.get("invalidCitationCount", 0)
        diagnostics["invalidCitationCount"] = invalid
        invalid_n = invalid if type(invalid) is int else _num(invalid)
        bonus_allowed = True
        if invalid_n == 1 or invalid_n >= 2:
            penalty = -2 if invalid_n == 1 else -5
            score += penalty
            adjustments["invalidCitationPenalty"] = penalty
            warnings.append(ONE_INVALID_CITATION if invalid_n == 1 else MANY_INVALID_CITATIONS)
            bonus_allowed = False
            reasons.append(f"Invalid citations ({penalty}).")

        if "citationCoverageScore" in inputs:
            coverage = inputs["citationCoverageScore"]
            diagnostics["citationCoverageScore"] = coverage
            coverage_n = _num(coverage)
            if coverage_n < 0.5:
                score -= 3
                adjustments["citationCoveragePenalty"] = -3
                warnings.append(LOW_COVERAGE)
                reasons.append("Citation coverage below 0.50 (-3).")
            elif coverage_n < 0.8:
                score -= 1
                adjustments["citationCoveragePenalty"] = -1
                reasons.append("Citation coverage below 0.80 (-1).")

        if "citationCount" in inputs:
            count = inputs["citationCount"]
            diagnostics["citationCount"] = count
            count_n = _num(count)
            if bonus_allowed and count_n > 0:
                bonus = 2 if count_n >= 3 else 1 if count_n == 2 else 0
                if bonus:
                    score += bonus
                    adjustments["citationBonus"] = bonus
                    reasons.append(
                        f"{js_number(count_n)} sections explicitly cited in answer (+{bonus})."
                    )

        uncapped = score
        raw = _clamp(score, 0.0, MAX_POINTS)
        if raw != uncapped and raw == raw:
            adjustments["clamp"] = raw - uncapped
        return assay.dimension_score(
            raw=raw,
            max_points=MAX_POINTS,
            explanation=" ".join(reasons),
            components={"supportBase": base},
            adjustments=adjustments,
            diagnostics=diagnostics,
            uncapped_raw=uncapped,
            warnings=warnings or None,
        )


def _js_min(a: float, b: float) -> float:
    if a != a or b != b:
        return float("nan")
    return min(a, b)


def _clamp(value: float, low: float, high: float) -> float:
    if value != value:
        return value
    return min(high, max(low, value))


def _support_reason(support: Any, ambiguous: bool, base: int) -> str:
    if support == "high" and not ambiguous:
        return "Source text directly and unambiguously answers the question."
    if support == "high":
        return "Source text answers the question, with ambiguity noted."
    if support == "medium":
        return "Source text partially supports the answer."
    return f"Source support is low ({base} base points)."
