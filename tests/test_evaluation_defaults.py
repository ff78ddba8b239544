"""The default metric list separates right from hallucinated answers: on 1,000 held-out rows of
HaluEval QA (rows 2,000-2,999, not looked at while designing answer_support), evaluated through
``evaluate_batch`` with no metrics named, as benchmarks/evaluation_defaults.py does for all rows.

Targets: at least 95% of right answers pass and at least 90% of hallucinated answers fail, with
the question and without it (then answer_support is undetermined and claim_support decides).
"""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import pytest
from shared_data import needs_shared

pytest.importorskip("assay_faithfulness", reason="the default metrics are assay-faithfulness's")

pytestmark = needs_shared("data", "halueval_qa_dev.jsonl")

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "evaluation_defaults.py"
ROWS = (2000, 3000)
RIGHT_PASS = 0.95
HALLUCINATED_FAIL = 0.90


@pytest.fixture(scope="module")
def bench() -> dict[str, Any]:
    """benchmarks/evaluation_defaults.py's functions, by name."""
    return runpy.run_path(str(BENCHMARK), run_name="evaluation_defaults")


@pytest.fixture(scope="module")
def rows(bench: dict[str, Any]) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = bench["load_rows"](ROWS[1])
    return rows[ROWS[0] :]


@pytest.mark.parametrize("question", [True, False], ids=["with-question", "no-question"])
@pytest.mark.parametrize("profile", [None, "grounded"], ids=["default", "grounded"])
def test_the_default_passes_right_answers_and_fails_hallucinated_ones(
    bench: dict[str, Any], rows: list[dict[str, str]], question: bool, profile: str | None
) -> None:
    batches = bench["run"](rows, profile, question=question)
    right = bench["pass_rate"](batches["right_answer"])
    wrong = 1 - bench["pass_rate"](batches["hallucinated_answer"])
    assert right >= RIGHT_PASS and wrong >= HALLUCINATED_FAIL, (right, wrong)
    if profile == "grounded":  # answer_support reads the question: without one, undetermined
        support = bench["metric_rates"](batches["right_answer"], "answer_support")
        assert support["undetermined"] == (0.0 if question else 1.0)
        assert wrong >= 0.97 if question else True  # the question-aware check catches more
