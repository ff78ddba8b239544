"""Knowledge base: vector-only retrieval plus document freshness.

A single-vector pipeline (minConfirmedMethods 1) answering from help-centre articles, with the
freshness extension scoring the median article age against a fixed reference date. Prints the
readable scorecard; the headline is:

    Score 94/100  Strong (green)  ->  ANSWER

Run: uv run --all-packages --all-extras python examples/scorecard/knowledge_base.py
"""

import assay_scorecard

inputs = {
    "supportLevel": "high",
    "hasConflict": False,
    "faithfulnessScore": 0.93,
    "citationCount": 2,
    "candidates": [
        {
            "retrievalScores": {"vector": 0.86},
            "combinedScore": 0.86,
            "documentId": "kb-reset-password",
            "lastUpdated": "2026-03-10T00:00:00Z",
        },
        {
            "retrievalScores": {"vector": 0.81},
            "combinedScore": 0.81,
            "documentId": "kb-2fa",
            "lastUpdated": "2026-01-20T00:00:00Z",
        },
        {
            "retrievalScores": {"vector": 0.74},
            "combinedScore": 0.74,
            "documentId": "kb-account-lock",
            "lastUpdated": "2025-08-05T00:00:00Z",
        },
    ],
}
config = {
    "retrieval": {"minConfirmedMethods": 1},
    "freshness": {
        "maxAgeForFullScore": 60,
        "penaltyPerMonth": 2,
        "hardCutoffAge": 365,
        "now": "2026-06-01T00:00:00Z",
    },
}
print(assay_scorecard.render_text(assay_scorecard.compute_confidence(inputs, config)))
