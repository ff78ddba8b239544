"""The preset registers, activates its dimensions and merges with the caller's config."""

from __future__ import annotations

import assay
import assay_scorecard

NOW = {"freshness": {"now": "2026-06-01T00:00:00Z"}}
INPUTS = {
    "supportLevel": "high",
    "hasConflict": False,
    "faithfulnessScore": 0.94,
    "answerRelevanceScore": 0.9,
    "citationCount": 2,
    "presentTypes": ["Declaration", "Bylaws", "Rules", "Amendments", "Minutes"],
    "candidates": [
        {
            "retrievalScores": {"dense": 0.9, "bm25": 0.8},
            "combinedScore": 0.9,
            "documentId": "ccr",
            "documentType": "Amended and Restated Declaration",
            "lastUpdated": "2025-09-01T00:00:00Z",
        },
        {
            "retrievalScores": {"dense": 0.8, "bm25": 0.7},
            "combinedScore": 0.8,
            "documentId": "bylaws",
            "documentType": "Bylaws",
            "lastUpdated": "2024-01-15T00:00:00Z",
        },
        {
            "retrievalScores": {"dense": 0.7, "bm25": 0.6},
            "combinedScore": 0.7,
            "documentId": "minutes",
            "documentType": "Board Minutes",
            "lastUpdated": "2026-04-02T00:00:00Z",
        },
    ],
}


def test_registered_as_a_preset() -> None:
    registry = assay.build_registry()
    preset = registry.get("preset", "legal/legal-governance-v1")
    assert preset.name == "legal-governance-v1"


def test_preset_activates_its_dimensions_and_policy() -> None:
    card = assay_scorecard.compute_confidence(INPUTS, {"preset": "legal-governance-v1", **NOW})
    assert card.meta.active_dimensions == (
        "grounding",
        "retrieval",
        "consistency",
        "relevance",
        "authority",
        "corpus",
        "freshness",
    )
    assert card.meta.weights["authority"] == 25
    assert card.dimensions["corpus"].breakdown.diagnostics["missingTypes"] == "Budget"
    assert card.dimensions["freshness"].breakdown.diagnostics["aggregation"] == "oldest"
    assert card.tier2 is not None


def test_missing_required_signal_forces_review() -> None:
    inputs = {k: v for k, v in INPUTS.items() if k != "citationCount"}
    card = assay_scorecard.compute_confidence(inputs, {"preset": "legal-governance-v1", **NOW})
    assert card.recommended_action == "review"
    assert card.action_rule == "review-when-missing"
    assert "citationCount" in card.meta.missing_signals


def test_callers_keys_win_and_sections_merge() -> None:
    config = {
        "preset": "legal-governance-v1",
        "freshness": {"now": "2026-06-01T00:00:00Z", "aggregation": "newest"},
    }
    scorer = assay_scorecard.create_scorer(config)
    assert scorer.config["freshness"]["aggregation"] == "newest"
    assert scorer.config["freshness"]["maxAgeForFullScore"] == 365
