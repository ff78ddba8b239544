"""The specification's calibration scenario: score live answers, log them, calibrate thresholds.

1. Scores one live answer with the default scorecard (the specification's "calibration-analysis"
   live inputs: high support, no conflict, three agreeing candidates).
2. Analyses six logged answers {id, total, recommendedAction, outcome} with
   minSamplesPerBand 2 and targetPrecisionForAnswer 0.85 (the specification's report example).
3. Scores the live answer again with the recommended thresholds as its action policy.

Prints:
  live: total 100, action answer (Score 100 meets answerAt threshold (65).)
  bands: [0, 40) 0/1, [40, 65) 0/1, [65, 85) 1/2, [85, 101) 2/2
  recommended policy: {"answerAt": 85, "reviewAt": 40, "abstainBelow": 40}
  warnings: low-calibration-sample-size (bands)
  calibrated: total 100, action answer (Score 100 meets answerAt threshold (85).)
Run: uv run --all-packages python examples/calibration/seed_scenario.py
"""

from __future__ import annotations

import json

import assay_scorecard
from assay_calibration.score_bands import analyze_calibration

LIVE = {
    "supportLevel": "high",
    "hasConflict": False,
    "candidates": [
        {
            "retrievalScores": {"semantic": 0.9, "keyword": 0.8},
            "combinedScore": 0.9,
            "documentId": "doc-1",
        },
        {
            "retrievalScores": {"semantic": 0.87, "keyword": 0.74},
            "combinedScore": 0.87,
            "documentId": "doc-2",
        },
        {
            "retrievalScores": {"semantic": 0.84, "keyword": 0.7},
            "combinedScore": 0.84,
            "documentId": "doc-3",
        },
    ],
}

LOGGED = [
    {"id": "1", "total": 92, "recommendedAction": "answer", "outcome": "correct"},
    {"id": "2", "total": 88, "recommendedAction": "answer", "outcome": "correct"},
    {"id": "3", "total": 76, "recommendedAction": "review", "outcome": "incorrect"},
    {"id": "4", "total": 68, "recommendedAction": "review", "outcome": "correct"},
    {"id": "5", "total": 52, "recommendedAction": "review", "outcome": "incorrect"},
    {"id": "6", "total": 31, "recommendedAction": "abstain", "outcome": "incorrect"},
]


def describe(scorecard: assay_scorecard.Scorecard) -> str:
    return (
        f"total {scorecard.total:g}, action {scorecard.recommended_action} "
        f"({scorecard.action_reason})"
    )


def main() -> None:
    print("live:", describe(assay_scorecard.compute_confidence(LIVE)))
    report = analyze_calibration(LOGGED, {"minSamplesPerBand": 2, "targetPrecisionForAnswer": 0.85})
    print(
        "bands:",
        ", ".join(f"[{b.min:g}, {b.max:g}) {b.positive_count}/{b.count}" for b in report.bands),
    )
    print("recommended policy:", json.dumps(report.recommended_policy.to_wire()))
    print("warnings:", ", ".join(f"{w.code} ({w.path})" for w in report.warnings) or "none")
    config = assay_scorecard.ScoringConfig(
        action_policy=report.recommended_policy.to_action_policy()
    )
    print("calibrated:", describe(assay_scorecard.compute_confidence(LIVE, config)))


if __name__ == "__main__":
    main()
