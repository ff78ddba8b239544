"""evaluate, OutputGate, guards, and the vectorised path agreeing with the scalar one."""

from __future__ import annotations

import math

import numpy as np
import pytest

import assay
from assay_jeffreys import (
    AssumptionReport,
    BayesFactorPolicy,
    DecisionTheoreticPolicy,
    GateGuards,
    OutputGate,
    bayes_factor,
    decide_batch,
    evaluate,
    sample_score_matrix,
    to_wire,
)

BAD_REPORT = AssumptionReport(False, False, ["factuality"], ["factuality~relevance"])


def test_evaluate_decides_with_the_bayes_factor_policy(models):
    decision = evaluate({"factuality": 0.92, "relevance": 0.8}, models, BayesFactorPolicy())
    expected = bayes_factor({"factuality": 0.92, "relevance": 0.8}, models)
    assert decision.action == "pass" and decision.rationale == "bayes-factor"
    assert decision.log_bayes_factor == expected.log_bayes_factor
    assert decision.strength == expected.strength
    assert decision.contributions == expected.contributions
    assert decision.posterior_high_quality is None and decision.expected_loss is None


def test_evaluate_with_a_decision_theoretic_config(models):
    decision = evaluate({"factuality": 0.1}, models, {"kind": "decision-theoretic"})
    assert decision.action == "fail" and decision.rationale == "expected-loss"
    assert decision.posterior_high_quality < 0.01
    assert decision.expected_loss.escalate == 0.5


@pytest.mark.parametrize(
    ("guards", "escalates"),
    [
        (GateGuards(BAD_REPORT, require_goodness_of_fit=True), True),
        (GateGuards(BAD_REPORT, require_independence=True), True),
        (GateGuards(BAD_REPORT), False),
        (GateGuards(None, True, True), False),
        (GateGuards(AssumptionReport(True, True), True, True), False),
    ],
)
def test_guards_escalate_only_when_a_required_assumption_fails(models, guards, escalates):
    decision = evaluate({"factuality": 0.95}, models, BayesFactorPolicy(), guards)
    if escalates:
        assert (decision.action, decision.rationale) == ("escalate", "assumption-violated")
        assert "policy said" in decision.reason
    else:
        assert (decision.action, decision.rationale) == ("pass", "bayes-factor")
    plain = evaluate({"factuality": 0.95}, models, BayesFactorPolicy())
    assert decision.bayes_factor == plain.bayes_factor
    assert decision.contributions == plain.contributions
    assert decision.assumptions == guards.assumptions


def test_guards_keep_posterior_and_losses_for_the_reviewer(models):
    guards = GateGuards(BAD_REPORT, require_goodness_of_fit=True)
    decision = evaluate({"factuality": 0.95}, models, DecisionTheoreticPolicy(), guards)
    assert decision.action == "escalate" and decision.posterior_high_quality > 0.99
    assert decision.expected_loss is not None


def test_no_matching_dimension_is_refused(models):
    with pytest.raises(assay.AssayError) as info:
        evaluate({"tone": 0.9}, models, BayesFactorPolicy())
    assert (info.value.code, info.value.path) == ("INVALID_DIMENSION", "scores")


def test_any_assay_policy_accepting_a_bayes_factor_result_can_gate(models):
    class Always:
        name = "always-review"
        evidence_type = object

        def decide(self, evidence):
            return assay.Decision("escalate", "always-review", f"BF {evidence.bayes_factor:.3g}")

    decision = evaluate({"factuality": 0.9}, models, Always())
    assert (decision.action, decision.rationale) == ("escalate", "always-review")


def test_output_gate_holds_models_policy_and_guards(models):
    gate = OutputGate([to_wire(m) for m in models], {"kind": "bayes-factor", "passAbove": 3})
    assert gate.evaluate({"factuality": 0.7}).action == "pass"
    guarded = OutputGate(models, guards=GateGuards(BAD_REPORT, require_independence=True))
    assert guarded.evaluate({"factuality": 0.7}).rationale == "assumption-violated"


def test_decision_wire_shape_is_camel_case_and_json_safe(models):
    wire = to_wire(evaluate({"factuality": 1.0}, models, DecisionTheoreticPolicy()))
    assert set(wire) == {
        "action",
        "bayesFactor",
        "logBayesFactor",
        "strength",
        "rationale",
        "contributions",
        "reason",
        "posteriorHighQuality",
        "expectedLoss",
    }
    assert set(wire["expectedLoss"]) == {"pass", "fail", "escalate"}
    assert to_wire({"x": math.inf, "y": [math.nan, 1.0]}) == {"x": None, "y": [None, 1.0]}


@pytest.mark.parametrize("policy", [BayesFactorPolicy(), DecisionTheoreticPolicy(0.3, 5, 1, 0.4)])
def test_vectorised_decisions_equal_scalar_ones(models, policy):
    dims = ["factuality", "relevance"]
    high = sample_score_matrix(models, "high", 300, seed=1)
    low = sample_score_matrix(models, "low", 300, seed=2)
    x = np.vstack([high, low, [[0.0, 1.0], [1.0, 0.0]]])
    batch = decide_batch(x, dims, models, policy)
    for row, code, log_bf in zip(x, batch.codes, batch.log_bayes_factors, strict=True):
        decision = evaluate(dict(zip(dims, row.tolist(), strict=True)), models, policy)
        assert log_bf == pytest.approx(decision.log_bayes_factor, rel=1e-9, abs=1e-9)
        assert ("pass", "fail", "escalate")[code] == decision.action
    assert sum(batch.counts().values()) == len(x)


def test_vectorised_missing_scores_are_nan_and_rows_without_scores_escalate(models):
    x = np.array([[0.9, np.nan], [np.nan, np.nan], [0.9, 0.8]])
    batch = decide_batch(x, ["factuality", "relevance"], models, BayesFactorPolicy())
    only_f = evaluate({"factuality": 0.9}, models, BayesFactorPolicy())
    assert batch.log_bayes_factors[0] == pytest.approx(only_f.log_bayes_factor, abs=1e-12)
    assert batch.matched.tolist() == [1, 0, 2]
    assert batch.actions[1] == "escalate" and batch.log_bayes_factors[1] == 0.0


def test_vectorised_guards_and_errors(models):
    guards = GateGuards(BAD_REPORT, require_goodness_of_fit=True)
    batch = decide_batch(
        [[0.99, 0.99]], ["factuality", "relevance"], models, BayesFactorPolicy(), guards
    )
    assert batch.actions == ["escalate"] and batch.rationale == "assumption-violated"
    for scores, dims, code in (
        ([[1.5, 0.2]], ["factuality", "relevance"], "INVALID_SCORE"),
        ([[np.inf, 0.2]], ["factuality", "relevance"], "INVALID_SCORE"),
        ([0.5, 0.2], ["factuality", "relevance"], "INVALID_SCORE"),
        ([[0.5]], ["tone"], "INVALID_DIMENSION"),
    ):
        with pytest.raises(assay.AssayError) as info:
            decide_batch(scores, dims, models, BayesFactorPolicy())
        assert info.value.code == code


def test_output_gate_evaluate_many_uses_the_vectorised_path(models):
    gate = OutputGate(models)
    batch = gate.evaluate_many(np.array([[0.95, 0.9], [0.05, 0.1]]), ["factuality", "relevance"])
    assert batch.actions == ["pass", "fail"]


def test_seeded_sampling_replays_exactly(models):
    first = sample_score_matrix(models, "high", 50, seed=42)
    again = sample_score_matrix(models, "high", 50, seed=42)
    other = sample_score_matrix(models, "high", 50, seed=43)
    assert np.array_equal(first, again) and not np.array_equal(first, other)
    assert first.shape == (50, 2)
    with pytest.raises(assay.AssayError) as info:
        sample_score_matrix(models, "high", 5, seed=-1)
    assert info.value.code == "INVALID_CONFIG"
