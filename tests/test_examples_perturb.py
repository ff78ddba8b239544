"""The perturb examples run and print what their headers say."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from shared_data import needs_shared

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "perturb"


def run(script: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.splitlines()


def test_run_example_catches_the_position_biased_answerer() -> None:
    lines = run("run_example.py")
    assert lines[0] == "fair:   invariance 1.00  sensitivity 0.67  nondeterminism 0.00  failed 0"
    assert lines[1] == "biased: invariance 0.64  sensitivity 0.67  nondeterminism 0.00  failed 0"
    per_case = [float(line.rsplit(" ", 1)[1]) for line in lines[2:7]]
    assert len(per_case) == 5 and min(per_case) == 0.38 and max(per_case) == 0.67
    assert lines[7] == "biased answerer caught: reorder invariance 0.48 < 1.00"


def test_run_scorecard_keeps_the_action_under_presentation_changes() -> None:
    assert run("run_scorecard.py") == [
        "refund-supported: baseline answer; reorder-1 answer, reorder-2 answer, pad-1 answer, "
        "swap review",
        "trial-conflict: baseline review; reorder-1 review, reorder-2 review, pad-1 review, "
        "swap answer",
        "warranty-single-source: baseline review; reorder-1 review, pad-1 review, swap abstain",
        "invariance 1.00  sensitivity 1.00  failed 0",
    ]


@needs_shared("data", "halueval_qa_dev.jsonl")
def test_run_halueval_on_real_questions() -> None:
    assert run("run_halueval.py") == [
        "fair:   cases 12  invariance 1.00  sensitivity 1.00  failed 0",
        "biased: cases 12  invariance 0.68  sensitivity 0.75  failed 0",
    ]
