"""The gate's examples run and print what their headers say."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from shared_data import needs_shared

REPO_ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = REPO_ROOT / "examples" / "gate"


def _run(script: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return done.stdout


def _header_block(script: Path, marker: str) -> list[str]:
    """The indented lines after ``marker`` in the script's docstring."""
    doc = script.read_text(encoding="utf-8").split('"""')[1]
    after = doc.split(marker, 1)[1].splitlines()[1:]
    block = []
    for line in after:
        if not line.startswith("    "):
            break
        block.append(line[4:])
    return block


def test_sealed_decision_prints_exactly_its_header():
    script = EXAMPLES / "sealed_decision.py"
    assert _run(script).splitlines() == _header_block(script, "Prints (exactly):")


@needs_shared("data", "halueval_qa_dev.jsonl")
def test_halueval_example_prints_the_report_its_header_shows():
    pytest.importorskip("assay_faithfulness", reason="needs assay-faithfulness (the metrics)")
    script = EXAMPLES / "halueval_gate.py"
    lines = _run(script, "--rows", "400").splitlines()
    header = _header_block(script, "Prints (numbers from a run")

    # Same lines in the same order; numbers may move if the metrics change, so compare shapes.
    def shape(line: str) -> str:
        return re.sub(r"\d+(\.\d+)?", "N", line)

    assert [shape(x) for x in lines[:5]] == [shape(x) for x in header[:5]]
    assert [x.split()[0] for x in lines[5:8]] == [
        "faithfulness",
        "answer_relevance",
        "claim_support",
    ]
    assert lines[8].startswith("dependence within high") and lines[9].startswith(
        "dependence within low"
    )
    accuracy = float(re.search(r"accuracy of decided answers: ([\d.]+)", lines[2]).group(1))
    escalated = float(re.search(r"escalated: ([\d.]+)", lines[2]).group(1))
    brier = float(re.search(r"Brier ([\d.]+)", lines[3]).group(1))
    assert accuracy > 0.9 and escalated < 0.2 and brier < 0.1


def test_the_worked_example_in_docs_shows_the_examples_real_output():
    printed = _header_block(EXAMPLES / "sealed_decision.py", "Prints (exactly):")
    doc = (REPO_ROOT / "docs" / "gate.md").read_text(encoding="utf-8")
    missing = [line for line in printed if line not in doc]
    assert not missing, f"docs/gate.md is out of date with the example: {missing}"
