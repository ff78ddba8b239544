"""The default gate's probabilities are honest on real answers it did not see.

HaluEval QA rows 1,001-5,000 (../shared/data, read in place), each right and hallucinated
answer scored by assay-faithfulness (faithfulness, answer_relevance, claim_support): the split
of benchmarks/gate_halueval.py, fit on the 4,000 answers of rows 1,001-3,000 and decide the
4,000 answers of rows 3,001-5,000, all of them (no subset, no cached scores: scoring takes
about two seconds).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from shared_data import needs_shared

pytestmark = needs_shared("data", "halueval_qa_dev.jsonl")

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "gate" / "halueval_gate.py"


@pytest.fixture(scope="module")
def split() -> tuple[list[dict], list[dict]]:
    pytest.importorskip("assay_faithfulness", reason="needs assay-faithfulness (the metrics)")
    spec = importlib.util.spec_from_file_location("halueval_gate", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    fit = example.labeled_scores(example.read_rows(1001, 2000))
    decide = example.labeled_scores(example.read_rows(3001, 2000))
    return fit, decide


def test_the_default_gate_meets_its_targets_on_held_out_answers(split):
    from assay_jeffreys import run_gate_experiment

    result = run_gate_experiment(*split)
    assert result.tested == 4000
    assert result.decided_accuracy >= 0.97
    assert result.escalated_share <= 0.10
    assert result.calibration.expected_calibration_error <= 0.03
    assert result.log_loss <= 0.20
    assert result.confident_wrong_share <= 0.005
    # the models it decides with fit their scores: KS passes for every dimension and label
    fits = result.gate.dimensions
    assert sum(f.adequate for f in fits) >= 2 and all(f.family == "empirical" for f in fits)
    # the two dimensions that score right answers lower than hallucinated ones add nothing
    assert {f.dimension for f in fits if f.excluded} == {"faithfulness", "answer_relevance"}


def test_the_compatible_gate_is_overconfident_on_the_same_answers(split):
    from assay_jeffreys import run_gate_experiment

    result = run_gate_experiment(*split, config="compatible")
    assert result.decided_accuracy >= 0.97  # it ranks well ...
    assert result.confident_wrong_share > 0.02  # ... but says 0.999 for the wrong label
    assert result.log_loss > 0.2
    assert not any(f.adequate for f in result.gate.dimensions)


def test_the_independence_guard_checks_only_the_dimensions_that_add_evidence(split):
    from assay_jeffreys import GateGuards, assess_assumptions, fit_gate

    fit, decide = split
    fit = fit[:800]  # rows 1,001-1,400: there the two excluded dimensions correlate at r >= 0.5
    gate = fit_gate(fit)
    excluded = {f.dimension for f in gate.dimensions if f.excluded}
    # the two excluded dimensions correlate within a label: all dimensions counted, unsafe
    every = assess_assumptions(fit, gate.models)
    assert "answer_relevance~faithfulness" in every.dependent_pairs
    # the gate leaves them out, so its own report has no dependent pair among the others
    assert excluded == {"faithfulness", "answer_relevance"}
    assert gate.assumptions.independence_assumption_safe
    assert not gate.assumptions.dependent_pairs
    guards = GateGuards(gate.assumptions, False, True)
    actions = {gate.evaluate(o["scores"], guards=guards).rationale for o in decide[:200]}
    assert "assumption-violated" not in actions


def test_the_default_drift_detector_is_quiet_on_shuffled_real_scores_and_sees_a_shift():
    pytest.importorskip("assay_faithfulness", reason="needs assay-faithfulness (the metrics)")
    import numpy as np

    spec = importlib.util.spec_from_file_location(
        "drift_check", EXAMPLE.with_name("drift_check.py")
    )
    assert spec is not None and spec.loader is not None
    check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check)
    from assay_jeffreys.monitor import default_drift_detector

    scores = check.real_scores()  # rows 1,001-1,400: 400 right and 400 hallucinated answers
    rng = np.random.default_rng(check.SEED)
    loud = check.false_alarms(check.absolute_page_hinkley, scores[("answer_relevance", "low")], rng)
    assert loud >= 10  # a threshold in score units fires on this wide stream by chance
    for (dimension, label), values in scores.items():
        assert check.false_alarms(default_drift_detector, values, rng) <= 2, (dimension, label)
        if label == "high":
            low = scores[(dimension, "low")]
            early, delay, missed = check.detection(default_drift_detector, values, low, rng)
            assert (early, missed) == (0, 0) and delay <= 30, dimension
