"""Hand-computed cases for retrieval confidence and evidence consistency (RULES.md 4, 5)."""

from __future__ import annotations

from typing import Any

import pytest

import assay
import assay_scorecard
from assay.testing import check_dimension
from assay_retrieval import EvidenceConsistency, RetrievalConfidence

R = RetrievalConfidence()
K = EvidenceConsistency()


def cand(score: float, methods: int = 2, **extra: Any) -> dict[str, Any]:
    scores = {f"m{i}": score for i in range(methods)}
    return {"retrievalScores": scores, "combinedScore": score, **extra}


def test_full_marks_are_capped_at_25() -> None:
    cands = [cand(0.9, documentId=f"d{i}") for i in range(5)]
    result = R.score({"candidates": cands}, {})
    assert result.breakdown.components == {
        "agreement": 15,
        "magnitude": 8,
        "diversity": 3,
        "breadth": 2,
    }
    assert result.breakdown.adjustments == {"cap": -3}
    assert (result.raw, result.breakdown.uncapped_raw) == (25, 28)


def test_single_method_pipeline() -> None:
    cands = [cand(0.7, methods=1), cand(0.6, methods=1)]
    result = R.score({"candidates": cands}, {})
    assert result.breakdown.components["agreement"] == 3
    assert [w.code for w in result.warnings or ()] == ["single-retrieval-method"]
    tuned = R.score({"candidates": cands}, {"retrieval": {"minConfirmedMethods": 1}})
    assert tuned.breakdown.components["agreement"] == 12
    assert tuned.warnings is None


def test_extraction_quality_and_top_k() -> None:
    cands = [cand(0.9, extractionQuality=0.5), cand(0.8), cand(0.7), cand(0.1)]
    result = R.score({"candidates": cands}, {})
    # top 3 by combinedScore: 0.45, 0.8, 0.7 -> 0.65 -> 6 points
    assert result.breakdown.components["magnitude"] == 6
    assert result.breakdown.diagnostics["avgEffectiveScore"] == 0.65


def test_opt_in_duplicate_and_rank_penalties() -> None:
    cands = [
        cand(0.9, contentHash="h", rank=12),
        cand(0.5, contentHash="h", rank=14),
        cand(0.3, contentHash="h"),
    ]
    config = {
        "retrieval": {"duplicateContent": {"mode": "penalize"}, "rankPenalty": {"mode": "penalize"}}
    }
    result = R.score({"candidates": cands}, config)
    assert result.breakdown.adjustments == {"duplicateContentPenalty": -2, "rankPenalty": -1.5}
    codes = [(w.code, w.severity) for w in result.warnings or ()]
    assert ("duplicate-content", "warn") in codes and ("rank-signal-missing", "info") in codes
    diagnostic = R.score({"candidates": cands}, {})
    assert diagnostic.breakdown.adjustments == {}
    assert next((w.code, w.severity) for w in diagnostic.warnings or ()) == (
        "duplicate-content",
        "info",
    )


def test_ambiguous_top_results_uses_unrounded_gap() -> None:
    assert any(
        w.code == "ambiguous-top-results"
        for w in R.score({"candidates": [cand(0.85), cand(0.80)]}, {}).warnings or ()
    )
    assert not any(
        w.code == "ambiguous-top-results"
        for w in R.score({"candidates": [cand(0.55), cand(0.50)]}, {}).warnings or ()
    )


@pytest.mark.parametrize(
    ("config", "path"),
    [
        ({"topK": 0}, "retrieval.topK"),
        ({"minConfirmedMethods": 1.5}, "retrieval.minConfirmedMethods"),
        ({"scoreBands": {"full": 0.1}}, "retrieval.scoreBands"),
        ({"methodThresholds": {"dense": float("inf")}}, "retrieval.methodThresholds.dense"),
        ({"duplicateContent": {"mode": "drop"}}, "retrieval.duplicateContent.mode"),
        ({"rankPenalty": {"afterRank": 0}}, "retrieval.rankPenalty.afterRank"),
    ],
)
def test_config_errors(config: dict[str, Any], path: str) -> None:
    with pytest.raises(assay.AssayError) as caught:
        R.validate_config({"retrieval": config})
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", path)


def test_consistency_stability_and_conflict() -> None:
    tight = K.score({"candidates": [cand(0.8), cand(0.78)], "hasConflict": False}, {})
    assert tight.breakdown.components == {"scoreStability": 6, "conflictStatus": 4}
    counted = K.score(
        {
            "candidates": [cand(0.9), cand(0.1)],
            "conflictingCandidateCount": 1,
            "hasConflict": False,
        },
        {},
    )
    assert counted.breakdown.components == {"scoreStability": 1, "conflictStatus": 1}
    missing = K.score({"candidates": [cand(0.5)]}, {})
    assert missing.breakdown.components == {"scoreStability": 3, "conflictStatus": 2}
    assert [w.code for w in missing.warnings or ()] == ["missing-conflict-signal"]
    assert missing.breakdown.diagnostics == {"candidateCount": 1, "scoreStdDev": 0}


def test_contracts() -> None:
    inputs = {"candidates": [cand(0.9), cand(0.4)], "hasConflict": True}
    check_dimension(R, inputs)
    check_dimension(K, inputs)


def test_combined_scores_far_out_of_range_score_instead_of_crashing() -> None:
    """A square beyond binary64 is Infinity, as in the reference (not Python's OverflowError);
    the out-of-range scores themselves are warned about by the input checks."""
    import math

    inputs = {
        "supportLevel": "high",
        "hasConflict": False,
        "candidates": [
            {"retrievalScores": {"a": 0.5, "b": 0.5}, "combinedScore": 1e200},
            {"retrievalScores": {"a": 0.5, "b": 0.5}, "combinedScore": 0.5},
        ],
    }
    card = assay_scorecard.compute_confidence(inputs)
    assert card.dimensions["consistency"].breakdown.components["scoreStability"] == 1  # "wide"
    assert math.isinf(card.dimensions["retrieval"].breakdown.diagnostics["scoreStdDev"])
    assert "input-out-of-range" in [w.code for w in card.meta.warnings]


def test_settings_follow_each_config_section_in_turn() -> None:
    # one dimension object serves many scorers: sections alternating must not share settings
    dimension = RetrievalConfidence()
    one = {"retrieval": {"topK": 1}}
    two = {"retrieval": {"topK": 2}}
    tops = [dimension.settings(config).top_k for config in (one, two, one, {}, two, {})]
    assert tops == [1, 2, 1, 3, 2, 3]
