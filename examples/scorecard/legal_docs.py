"""Legal documents: source authority and corpus completeness, with a warning-driven review.

Governing documents classified into authority tiers by their document type, and a corpus that
holds 4 of the 5 expected document types. No conflict signal is given, so the default policy
reviews despite a good score. Prints the scorecard; the headline and rule are:

    Score 89/100  Strong (green)  ->  REVIEW
      rule review-on-warning: Warning 'missing-conflict-signal' matched reviewOnWarnings policy.

Run: uv run --all-packages --all-extras python examples/scorecard/legal_docs.py
"""

import assay_scorecard

tiers = [
    {"name": "Declaration", "rank": 10, "keywords": ["CC&Rs", "Declaration"]},
    {"name": "Bylaws", "rank": 15, "keywords": ["Bylaws"]},
    {"name": "Rules", "rank": 20, "keywords": ["Rules", "Policy"]},
    {"name": "Board records", "rank": 30, "keywords": ["Minutes"]},
]
inputs = {
    "supportLevel": "high",
    "faithfulnessScore": 0.91,
    "citationCount": 3,
    "corpusTypeCount": 4,
    "candidates": [
        {
            "retrievalScores": {"semantic": 0.84, "keyword": 0.77},
            "combinedScore": 0.84,
            "documentId": "ccrs",
            "documentType": "CC&Rs",
        },
        {
            "retrievalScores": {"semantic": 0.79, "keyword": 0.70},
            "combinedScore": 0.79,
            "documentId": "bylaws",
            "documentType": "Bylaws",
        },
        {
            "retrievalScores": {"semantic": 0.66, "keyword": 0.52},
            "combinedScore": 0.66,
            "documentId": "minutes-2025",
            "documentType": "Board Minutes",
        },
    ],
}
config = {"authority": {"tiers": tiers}, "corpus": {"expectedTypeCount": 5}}
print(assay_scorecard.render_text(assay_scorecard.compute_confidence(inputs, config)))
