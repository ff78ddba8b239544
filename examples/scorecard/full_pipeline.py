"""Full pipeline: authority, corpus completeness and freshness together, both tiers shown.

Hybrid retrieval over a community association's governing documents, with custom authority
tiers, a named-type corpus check and freshness against a fixed reference date. Prints the
readable scorecard; its first three lines are:

    Score 95/100  Strong (green)  ->  ANSWER
    rule answer-at: Score 95 meets answerAt threshold (65).
    Tier 1 Answer Confidence: 96 Strong   Tier 2 System Readiness: 90 Complete

Run: uv run --all-packages --all-extras python examples/scorecard/full_pipeline.py
"""

import assay_scorecard

tiers = [
    {"name": "Declaration", "rank": 10, "keywords": ["CC&Rs", "Declaration", "Master Deed"]},
    {"name": "Amendment", "rank": 12, "keywords": ["Amendment", "Restated"]},
    {"name": "Bylaws", "rank": 15, "keywords": ["Bylaws", "By-Laws"]},
    {"name": "Rules", "rank": 20, "keywords": ["Rules", "Regulations"]},
]
inputs = {
    "supportLevel": "high",
    "hasConflict": False,
    "faithfulnessScore": 0.92,
    "answerRelevanceScore": 0.9,
    "citationCount": 3,
    "presentTypes": ["Declaration", "Bylaws", "Rules", "Amendments"],
    "candidates": [
        {
            "retrievalScores": {"semantic": 0.89, "keyword": 0.81},
            "combinedScore": 0.89,
            "documentId": "decl",
            "documentType": "Declaration of CC&Rs",
            "lastUpdated": "2025-11-01T00:00:00Z",
        },
        {
            "retrievalScores": {"semantic": 0.84, "keyword": 0.77},
            "combinedScore": 0.84,
            "documentId": "amend-3",
            "documentType": "Third Amendment",
            "isAmendment": True,
            "lastUpdated": "2026-02-10T00:00:00Z",
        },
        {
            "retrievalScores": {"semantic": 0.78, "keyword": 0.69},
            "combinedScore": 0.78,
            "documentId": "bylaws",
            "documentType": "Bylaws",
            "lastUpdated": "2025-06-20T00:00:00Z",
        },
        {
            "retrievalScores": {"semantic": 0.71, "keyword": 0.58},
            "combinedScore": 0.71,
            "documentId": "rules",
            "documentType": "Rules and Regulations",
            "lastUpdated": "2026-04-01T00:00:00Z",
        },
    ],
}
config = {
    "authority": {"tiers": tiers},
    "corpus": {"expectedTypes": ["Declaration", "Bylaws", "Rules", "Amendments", "Budget"]},
    "freshness": {"now": "2026-06-01T00:00:00Z", "maxAgeForFullScore": 180},
}
print(assay_scorecard.render_text(assay_scorecard.compute_confidence(inputs, config)))
