"""A CI gate written as ordinary pytest tests with the assay-pytest plugin.

Run from the repository root: uv run --all-packages pytest examples/evaluation/ci_gate -q
Prints pytest's summary: "2 passed". Rewrite the baseline after an intended change with
--assay-update-baseline. Needs the assay-faithfulness and assay-pytest plugins installed.
"""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).parent.parent / "data" / "rag_answers.jsonl"
BASELINE = Path(__file__).parent / "assay-baseline.json"


def test_answers_are_grounded(assay_gate):
    batch = assay_gate.evaluate(DATA, ["hallucination_rate", "answer_correctness"])
    # At least two thirds of the answers must be supported by their context and correct;
    # a sample without ground truth is undetermined for answer_correctness, not a failure.
    assay_gate.assert_passes(
        batch,
        thresholds={"hallucination_rate": 0.5, "answer_correctness": 0.2},
        composite_threshold=0.3,
        min_pass_rate=0.66,
    )


def test_no_regression_against_the_checked_in_baseline(assay_gate):
    # the baseline holds the seven metrics compatible with rag-eval-node-ts 0.3
    batch = assay_gate.evaluate(DATA, options={"profile": "compatible"})
    assay_gate.assert_no_regression(batch, BASELINE, threshold=0.05)
