"""A domain preset from a plugin: assay-legal's `legal-governance-v1`.

The preset brings authority tiers, the expected document types, a slow freshness window, weights
and production signal requirements; the caller adds only the reference date. Prints the active
dimensions, the missing corpus type and the readable scorecard's headline:

    active: grounding, retrieval, consistency, relevance, authority, corpus, freshness
    missing corpus types: Budget
    Score 81/100  Moderate (amber)  ->  ANSWER

Run: uv run --all-packages --all-extras python examples/scorecard/legal_preset.py
"""

import assay_scorecard

inputs = {
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
card = assay_scorecard.compute_confidence(
    inputs, {"preset": "legal-governance-v1", "freshness": {"now": "2026-06-01T00:00:00Z"}}
)
print("active: " + ", ".join(card.meta.active_dimensions))
print(
    "missing corpus types: "
    + card.dimensions["corpus"].breakdown.diagnostics.get("missingTypes", "none")
)
print(assay_scorecard.render_text(card).splitlines()[0])
