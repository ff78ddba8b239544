"""Decision calibration (through assay-calibration) and the held-out gate experiment."""

from __future__ import annotations

import pytest

import assay
from assay_jeffreys import BayesFactorPolicy, decision_calibration, run_gate_experiment


def test_decision_calibration_matches_hand_computed_brier_and_ece():
    # Brier: ((0.9-1)^2 + (0.8-1)^2 + (0.3-0)^2 + (0.2-1)^2) / 4 = (0.01+0.04+0.09+0.64)/4 = 0.195
    # ECE (10 bins): bins 0.2, 0.3, 0.8, 0.9 hold one each: |0.2-1| + |0.3-0| + |0.8-1| + |0.9-1|
    #   = 0.8 + 0.3 + 0.2 + 0.1 = 1.4, / 4 = 0.35
    result = decision_calibration([0.9, 0.8, 0.3, 0.2], ["high", "high", "low", "high"])
    assert result.brier_score == pytest.approx(0.195, abs=1e-12)
    assert result.expected_calibration_error == pytest.approx(0.35, abs=1e-12)
    assert result.samples == 4
    assert [b["count"] for b in result.reliability["bins"]] == [0, 0, 1, 1, 0, 0, 0, 0, 1, 1]
    assert decision_calibration([0.9, 0.1], [1, 0]).brier_score == pytest.approx(0.01)


def test_decision_calibration_refuses_bad_labels():
    with pytest.raises(assay.AssayError) as info:
        decision_calibration([0.5], ["great"])
    assert (info.value.code, info.value.path) == ("INVALID_HYPOTHESIS", "outcomes[0]")


def test_gate_experiment_on_held_out_data(history_factory):
    result = run_gate_experiment(history_factory(300, seed=1), history_factory(200, seed=2))
    assert (result.fitted, result.tested) == (600, 400)
    assert sum(result.counts.values()) == 400
    assert result.decided_accuracy > 0.95 and result.posterior_accuracy > 0.9
    assert 0 < result.escalated_share < 0.3
    assert result.prior_high_quality == 0.5
    assert (
        result.calibration.brier_score < 0.1 and result.calibration.expected_calibration_error < 0.1
    )
    assert len(result.fits) == 4 and all(c.fit.adequate for c in result.fits)
    assert result.dependence["high"].independence_assumption_safe


def test_a_stricter_policy_escalates_more(history_factory):
    fit, test = history_factory(100, seed=3), history_factory(100, seed=4)
    default = run_gate_experiment(fit, test)
    strict = run_gate_experiment(fit, test, BayesFactorPolicy(1000, 0.001))
    assert strict.escalated_share > default.escalated_share


def test_gate_experiment_refuses_one_sided_or_empty_sets(history_factory):
    only_high = [o for o in history_factory(10) if o["label"] == "high"]
    for fit_set, test_set in (
        (only_high, history_factory(5)),
        ([], history_factory(5)),
        (history_factory(5), []),
    ):
        with pytest.raises(assay.AssayError) as info:
            run_gate_experiment(fit_set, test_set)
        assert info.value.code == "INVALID_OBSERVATION"
