"""The scorecard examples run and print what their headers say."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_example(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    return result.stdout


def test_score_answers_prints_each_scorecard_and_the_action_summary() -> None:
    out = run_example("examples/score_answers.py")
    for answer_id in (
        "policy-lookup",
        "no-conflict-signal",
        "multi-hop-weak",
        "documents-silent",
        "conflicting-sources",
    ):
        assert f"=== {answer_id}" in out
    assert "Score 100/100  Strong (green)  ->  ANSWER" in out
    assert "Warning 'missing-conflict-signal' matched reviewOnWarnings policy." in out
    assert "Documents do not address this question (documentsSilent is true)." in out
    assert out.strip().splitlines()[-1] == "answer: 2, review: 1, abstain: 2"


def test_custom_dimension_registers_at_runtime_and_scores() -> None:
    out = run_example("examples/custom_dimension.py")
    assert out.splitlines() == [
        "registered: runtime/politeness",
        "polite answer: politeness 5/5, total 100",
        "curt answer: politeness 0/5, total 93",
    ]


def _header_lines(path: Path) -> list[str]:
    """The indented lines of an example's docstring: what it says it prints."""
    doc = path.read_text(encoding="utf-8").split('"""')[1]
    return [line.strip() for line in doc.splitlines() if line.startswith("    ") and line.strip()]


SCENARIOS = sorted((ROOT / "examples" / "scorecard").glob("*.py"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_prints_what_its_header_says(path: Path) -> None:
    expected = _header_lines(path)
    assert expected, f"{path.name} states no output in its header"
    out = [line.strip() for line in run_example(str(path.relative_to(ROOT))).splitlines()]
    for line in expected:
        assert line in out, f"{path.name}: {line!r} not printed"
