"""Score-band calibration of a labelled history, and the recommended policy put to use.

Reads history.jsonl beside this file (400 scorecard records with their recommended action and
what happened; see make_history.py) and runs analyze_calibration with a target precision of 0.9
for answering, a target recall of 0.7 for abstaining and a warning below 30 records per band.

Prints:
  - one line per score band: range, count, positive rate, average total;
  - the recommended policy as JSON: {"answerAt": 85, "reviewAt": 65, "abstainBelow": 65};
  - the warning codes ("warnings: low-calibration-sample-size": the [0, 40) band has 28 records);
  - the policy as the core's ActionPolicyConfig, ready for ScoringConfig(action_policy=...).
Run: uv run --all-packages python examples/calibration/score_bands.py
"""

from __future__ import annotations

import json
from pathlib import Path

from assay_calibration.score_bands import analyze_calibration

HISTORY = Path(__file__).resolve().parent / "history.jsonl"


def main() -> None:
    samples = [json.loads(line) for line in HISTORY.read_text(encoding="utf-8").splitlines()]
    report = analyze_calibration(
        samples,
        {
            "targetPrecisionForAnswer": 0.9,
            "targetRecallForAbstain": 0.7,
            "minSamplesPerBand": 30,
        },
    )
    for band in report.bands:
        print(
            f"[{band.min:g}, {band.max:g}): {band.count:3d} records, "
            f"{band.positive_rate:6.1%} positive, average total {band.average_score:.1f}"
        )
    print("recommended policy:", json.dumps(report.recommended_policy.to_wire()))
    print("warnings:", ", ".join(w.code for w in report.warnings) or "none")
    print("as scoring config:", report.recommended_policy.to_action_policy())


if __name__ == "__main__":
    main()
