"""The metrics examples run and print what their headers say."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from shared_data import needs_shared

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "metrics"


def run(name: str) -> list[str]:
    completed = subprocess.run(
        [sys.executable, str(EXAMPLES / name)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return completed.stdout.splitlines()


def test_score_one_sample_prints_every_metric_with_its_verdict_and_signals() -> None:
    lines = run("score_one_sample.py")
    metric_lines = [line for line in lines if not line.startswith("    ")]
    ids = [line.split()[0] for line in metric_lines]
    assert ids == [
        "faithfulness",
        "answer_relevance",
        "context_precision",
        "context_recall",
        "context_relevance",
        "answer_correctness",
        "hallucination_rate",
        "claim_support",
    ]
    for line in metric_lines:
        assert re.match(r"^\w+ +(\d\.\d{3} (PASS|FAIL)|undetermined) ", line), line
    by_id = dict(zip(ids, metric_lines, strict=True))
    assert "undetermined" in by_id["context_recall"]
    assert "undetermined" in by_id["answer_correctness"]
    assert by_id["hallucination_rate"].split()[1:3] == ["0.500", "FAIL"]
    assert (
        "    [error] Answer sentence appears unsupported by any context (max overlap=0.000). "
        '"Dinosaurs are extinct."' in lines
    )


@needs_shared("data", "halueval_qa_dev.jsonl")
def test_detect_hallucinations_ranks_every_row_correctly_with_claim_support() -> None:
    lines = run("detect_hallucinations.py")
    answers = [line for line in lines if line.startswith(("right", "hallucinated"))]
    assert len(answers) == 16
    assert all(re.search(r"faithfulness=\d\.\d{3} claim_support=\d\.\d{3}", a) for a in answers)
    assert lines[-1] == "claim_support ranks 8/8 rows correctly"
    faithfulness = re.match(r"faithfulness ranks (\d)/8 rows correctly", lines[-2])
    assert faithfulness is not None and int(faithfulness.group(1)) < 8
