"""The evaluator-bridge example runs and prints what its header says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from shared_data import needs_shared

ROOT = Path(__file__).resolve().parents[1]


@needs_shared("data", "evaluator-outputs", "trulens_outputs.json")
def test_evaluator_bridge_example() -> None:
    run = subprocess.run(
        [sys.executable, "examples/bridges/evaluator_bridge.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    lines = run.stdout.splitlines()
    scenario = lines[
        lines.index("== specification scenario") + 1 : lines.index("== TruLens records")
    ]
    assert scenario == [
        "filled: faithfulnessScore, answerRelevanceScore",
        "total 100  Strong  -> answer",
    ]

    records = lines[
        lines.index("== TruLens records") + 1 : lines.index("== DeepEval hallucination direction")
    ]
    assert len(records) == 5
    pending = records[0]
    assert pending.startswith("Cadmium Chloride") and "faithfulness    -" in pending
    assert "total 100  review" in pending
    assert "evaluator-metric-undetermined" in pending and "required-signal-missing" in pending
    oberoi = next(line for line in records if line.startswith("The Oberoi family"))
    assert "faithfulness 0.67  total  94  answer" in oberoi
    assert all("evaluator-metric-undetermined" not in line for line in records[1:])

    assert lines[-2:] == [
        "passed at threshold 0.5 -> faithfulnessScore 0.8 (lower is better)",
        "passed at threshold 0.1 -> faithfulnessScore 0.2 (higher is better)",
    ]
