"""Production gating: the production-v0.3 preset forces review when required signals are missing.

The same strong answer is scored twice under `production-v0.3`: first without answer relevance
and without a support evaluator, then with both. Prints one line per run:

    without evaluator signals: total 100, review (review-when-missing: faithfulnessScore, answerRelevanceScore)
    with evaluator signals: total 100, answer (answer-at)

Run: uv run --all-packages --all-extras python examples/scorecard/production_gating.py
"""

import assay_scorecard

scorer = assay_scorecard.create_scorer({"preset": "production-v0.3"})
base = {
    "supportLevel": "high",
    "hasConflict": False,
    "citationCount": 3,
    "candidates": [
        {
            "retrievalScores": {"semantic": 0.9, "keyword": 0.8},
            "combinedScore": 0.9,
            "documentId": "a",
        },
        {
            "retrievalScores": {"semantic": 0.86, "keyword": 0.7},
            "combinedScore": 0.86,
            "documentId": "b",
        },
        {
            "retrievalScores": {"semantic": 0.8, "keyword": 0.66},
            "combinedScore": 0.8,
            "documentId": "c",
        },
    ],
}
bare = scorer.compute(base)
missing = ", ".join(bare.meta.missing_signals)
print(
    f"without evaluator signals: total {bare.total:g}, {bare.recommended_action} ({bare.action_rule}: {missing})"
)
full = scorer.compute({**base, "answerRelevanceScore": 0.93, "faithfulnessScore": 0.95})
print(
    f"with evaluator signals: total {full.total:g}, {full.recommended_action} ({full.action_rule})"
)
