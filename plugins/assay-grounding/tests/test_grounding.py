"""Hand-computed cases for the grounding dimension (RULES.md section 3)."""

from __future__ import annotations

from typing import Any

import pytest

import assay
from assay.testing import check_dimension
from assay_grounding import Grounding

G = Grounding()


def score(**inputs: Any) -> assay.DimensionScore:
    return G.score({"supportLevel": "high", "candidates": [], **inputs}, {})


@pytest.mark.parametrize(
    ("support", "notes", "base"),
    [
        ("high", None, 30),
        ("high", "", 30),
        ("high", "unclear", 21),
        ("medium", None, 13),
        ("low", None, 5),
        ("odd", None, 5),
    ],
)
def test_support_base(support: str, notes: str | None, base: int) -> None:
    result = score(supportLevel=support, ambiguityNotes=notes, faithfulnessScore=0.95)
    assert result.breakdown.components == {"supportBase": base}
    assert result.raw == base


def test_penalties_ceiling_and_bonus_in_order() -> None:
    # 30 - 3 (expert) - 2 (constraint) = 25 -> multi-hop ceiling 18 -> +2 citations = 20
    result = score(
        requiresExpertReview=True,
        externalConstraintNote="jurisdiction",
        queryComplexity="multi-hop",
        faithfulnessScore=0.95,
        citationCount=3,
    )
    assert result.breakdown.adjustments == {
        "expertReviewPenalty": -3,
        "externalConstraintPenalty": -2,
        "complexityCeiling": -7,
        "citationBonus": 2,
    }
    assert (result.raw, result.breakdown.uncapped_raw) == (20, 20)
    assert result.breakdown.diagnostics["complexityCeiling"] == 18


def test_more_conservative_support_signal_wins() -> None:
    claims = {"totalClaims": 10, "supportedClaims": 6, "contradictedClaims": 1}
    result = score(faithfulnessScore=0.95, claimSupport=claims)
    # effective = min(0.95, 0.6) = 0.6 -> -7; contradicted -> -5
    assert result.breakdown.adjustments == {"supportSignalPenalty": -7, "contradictionPenalty": -5}
    assert result.breakdown.diagnostics["effectiveSupportScore"] == 0.6
    assert result.breakdown.diagnostics["unsupportedClaims"] == 3
    assert result.raw == 18


def test_missing_support_signal_warns() -> None:
    result = score()
    assert [w.code for w in result.warnings or ()] == ["missing-faithfulness"]


def test_invalid_citations_suppress_bonus_and_warn() -> None:
    result = score(faithfulnessScore=1, invalidCitationCount=2, citationCount=5)
    assert result.breakdown.adjustments == {"invalidCitationPenalty": -5}
    assert [w.code for w in result.warnings or ()] == ["invalid-citations"]
    assert result.raw == 25


def test_low_coverage_and_clamp() -> None:
    result = score(faithfulnessScore=0.95, citationCoverageScore=0.4, citationCount=3)
    assert result.breakdown.adjustments == {"citationCoveragePenalty": -3, "citationBonus": 2}
    assert result.raw == 29
    top = score(faithfulnessScore=0.95, citationCount=3)
    assert top.breakdown.adjustments == {"citationBonus": 2, "clamp": -2}
    assert (top.raw, top.breakdown.uncapped_raw) == (30, 32)


def test_documents_silent_short_circuits() -> None:
    result = score(documentsSilent=True, faithfulnessScore=1, citationCount=3)
    assert result.raw == 0
    assert result.breakdown.diagnostics == {"documentsSilent": True}
    assert [w.code for w in result.warnings or ()] == ["documents-silent"]


def test_contract() -> None:
    check_dimension(G, {"supportLevel": "medium", "candidates": []})
