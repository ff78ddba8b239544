"""Retrieval tuning: duplicate-content and late-rank diagnostics, then their opt-in penalties.

Five chunks, two of them duplicates of the first (same content hash), two ranked past 10. In the
default diagnostic mode they only produce info warnings; with `mode: "penalize"` they lower the
retrieval score. Prints:

    diagnostic: retrieval 25/25, adjustments {'cap': -3.0}, warnings duplicate-content(info)
    penalize: retrieval 23.25/25, adjustments {'duplicateContentPenalty': -2, 'rankPenalty': -2.75}, warnings duplicate-content(warn), rank-signal-missing(info)

Run: uv run --all-packages --all-extras python examples/scorecard/retrieval_tuning.py
"""

import assay_scorecard

inputs = {
    "supportLevel": "high",
    "hasConflict": False,
    "candidates": [
        {
            "retrievalScores": {"dense": 0.91, "bm25": 0.8},
            "combinedScore": 0.91,
            "documentId": "a",
            "contentHash": "h1",
            "rank": 1,
        },
        {
            "retrievalScores": {"dense": 0.88, "bm25": 0.7},
            "combinedScore": 0.88,
            "documentId": "a",
            "contentHash": "h1",
            "rank": 2,
        },
        {
            "retrievalScores": {"dense": 0.84, "bm25": 0.7},
            "combinedScore": 0.84,
            "documentId": "b",
            "contentHash": "h1",
            "rank": 12,
        },
        {
            "retrievalScores": {"dense": 0.8, "bm25": 0.6},
            "combinedScore": 0.8,
            "documentId": "c",
            "contentHash": "h2",
            "rank": 19,
        },
        {
            "retrievalScores": {"dense": 0.7, "bm25": 0.5},
            "combinedScore": 0.7,
            "documentId": "d",
            "contentHash": "h3",
        },
    ],
}
for mode in ("diagnostic", "penalize"):
    config = {"retrieval": {"duplicateContent": {"mode": mode}, "rankPenalty": {"mode": mode}}}
    retrieval = assay_scorecard.compute_confidence(inputs, config).dimensions["retrieval"]
    warnings = ", ".join(
        f"{w.code}({w.severity})"
        for w in retrieval.warnings or ()
        if w.code != "ambiguous-top-results"
    )
    print(
        f"{mode}: retrieval {retrieval.raw:g}/25, adjustments {dict(retrieval.breakdown.adjustments)}, warnings {warnings}"
    )
