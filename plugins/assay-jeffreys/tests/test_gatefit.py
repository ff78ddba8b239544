"""fit_gate: the dependence-aware combination, wrong-way dimensions, enough history before
strong words, and the compatible config giving BayesOutputGate's numbers exactly."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import assay
from assay_jeffreys import (
    BayesFactorPolicy,
    DecisionTheoreticPolicy,
    FittedGate,
    GateConfig,
    HypothesisManager,
    bayes_factor,
    decide_batch,
    fit_gate,
    gate_config_from_wire,
    run_gate_experiment,
    wrong_direction_dimensions,
)
from assay_jeffreys.combination import fit_weights
from assay_jeffreys.sampling import make_generator


def copied_history(n: int, seed: int) -> list[dict]:
    """``n`` high and ``n`` low outputs whose "a", "b" and "c" are three readings of one
    latent quality (correlation about 0.98 within each label): the independent sum counts
    the same evidence three times."""
    rng = make_generator(seed)
    history = []
    for label, (alpha, beta) in (("high", (5, 3)), ("low", (3, 5))):
        latent = rng.beta(alpha, beta, size=n)
        noise = rng.normal(0.0, 0.02, size=(n, 3))
        for row in np.clip(latent[:, None] + noise, 0.0, 1.0).tolist():
            history.append({"scores": dict(zip("abc", row, strict=True)), "label": label})
    return history


def test_the_calibrated_combination_does_not_count_copies_three_times():
    fit, test = copied_history(600, seed=1), copied_history(600, seed=2)
    naive = run_gate_experiment(fit, test, config="compatible")
    calibrated = run_gate_experiment(fit, test, config={"scoreModel": "beta"})
    weights = [d.weight for d in calibrated.gate.dimensions]
    # three copies share about one dimension's worth of evidence
    assert 0.6 < sum(weights) < 1.6 and all(w >= 0.0 for w in weights)
    assert calibrated.log_loss < naive.log_loss
    assert calibrated.calibration.expected_calibration_error < 0.05
    assert naive.calibration.expected_calibration_error > 0.1  # overconfident
    assert calibrated.confident_wrong_share <= naive.confident_wrong_share


def _logistic_labels(evidence: np.ndarray, weights: list[float], seed: int) -> np.ndarray:
    z = evidence @ np.array(weights)
    return (make_generator(seed).random(len(z)) < 1.0 / (1.0 + np.exp(-z))).astype(float)


def test_fit_weights_recovers_a_known_logistic_model():
    evidence = make_generator(4).normal(0.0, 2.0, size=(4000, 2))
    labels = _logistic_labels(evidence, [0.5, 0.8], seed=5)
    weights, offset = fit_weights(evidence, labels, 0.0)
    assert weights.tolist() == pytest.approx([0.5, 0.8], abs=0.08)
    assert abs(offset) < 0.15
    again = fit_weights(evidence, labels, 0.0)
    assert np.array_equal(again[0], weights) and again[1] == offset  # deterministic


def test_fit_weights_shrinks_a_backwards_column_to_zero_never_below():
    evidence = make_generator(4).normal(0.0, 2.0, size=(4000, 2))
    labels = _logistic_labels(evidence, [0.5, -0.8], seed=5)  # the second points backwards
    weights, _ = fit_weights(evidence, labels, 0.0)
    assert weights[1] == 0.0 and weights[0] > 0.2


def wrong_way_history(n: int) -> list[dict]:
    """ "good" separates the labels the right way, "short" the wrong way: high-quality outputs
    score low on it."""
    rng = make_generator(11)
    history = []
    for label, good, short in (("high", (6, 2), (2, 6)), ("low", (2, 6), (6, 2))):
        for g, s in zip(rng.beta(*good, size=n), rng.beta(*short, size=n), strict=True):
            history.append({"scores": {"good": float(g), "short": float(s)}, "label": label})
    return history


def test_a_wrong_way_dimension_is_reported_and_adds_no_evidence_by_default():
    history = wrong_way_history(200)
    gate = fit_gate(history)
    short = next(d for d in gate.dimensions if d.dimension == "short")
    assert short.wrong_direction and short.excluded == "wrong-direction" and short.weight == 0.0
    assert wrong_direction_dimensions(gate.models) == ["short"]
    # a high score on "short" is what low-quality outputs get: it must not drag a good output down
    with_short = gate.bayes_factor({"good": 0.9, "short": 0.95})
    without = gate.bayes_factor({"good": 0.9})
    assert with_short.log_bayes_factor == without.log_bayes_factor
    assert with_short.calibration.excluded == ("short",)
    assert with_short.contributions[1].log_bayes_factor == 0.0
    allowed = fit_gate(history, {"wrongDirection": "allow"}).bayes_factor(
        {"good": 0.9, "short": 0.95}
    )
    assert allowed.log_bayes_factor < with_short.log_bayes_factor
    assert next(d for d in gate.report()["dimensions"] if d["dimension"] == "short")[
        "wrongDirection"
    ]


def test_too_little_history_escalates_with_its_own_rationale(history_factory):
    small = fit_gate(history_factory(10))
    assert not small.sufficient_history and small.history_counts == {"high": 10, "low": 10}
    decision = small.evaluate({"factuality": 0.97, "relevance": 0.95})
    assert (decision.action, decision.rationale) == ("escalate", "insufficient-history")
    assert (
        "10 labeled high and 10 labeled low" in decision.reason and "30 of each" in decision.reason
    )
    batch = small.decide_batch([[0.97, 0.95], [0.02, 0.1]], ["factuality", "relevance"])
    assert batch.actions == ["escalate", "escalate"] and batch.rationale == "insufficient-history"
    # the same history decides once the minimum is lowered, and at 30 per hypothesis by default
    assert small.config.min_history == 30
    assert fit_gate(history_factory(10), {"minHistory": 10}).evaluate(
        {"factuality": 0.97, "relevance": 0.95}
    ).action in ("pass", "escalate")
    assert fit_gate(history_factory(30)).sufficient_history


def test_the_evidence_is_capped_at_what_the_history_can_vouch_for(history_factory):
    gate = fit_gate(history_factory(30))
    assert gate.cap == math.log(10.0)  # 30 / 3
    strong = gate.bayes_factor({"factuality": 0.99, "relevance": 0.99})
    assert strong.log_bayes_factor == math.log(10.0) and strong.strength == "strong-high"
    assert strong.calibration.uncapped_log_bayes_factor > math.log(10.0)
    weak = gate.bayes_factor({"factuality": 0.01, "relevance": 0.01})
    assert weak.log_bayes_factor == math.log(0.1)  # exactly the default fail threshold
    assert gate.evaluate({"factuality": 0.01, "relevance": 0.01}).action == "fail"
    big = fit_gate(history_factory(300))
    assert big.bayes_factor({"factuality": 0.99, "relevance": 0.99}).strength == "decisive-high"


def test_the_compatible_config_is_bayes_output_gate_exactly(history):
    gate = fit_gate(history, "compatible")
    models = HypothesisManager().fit(history).models()
    assert gate.models == models
    for scores in ({"factuality": 0.9, "relevance": 0.8}, {"factuality": 1.0}, {"relevance": 0}):
        assert gate.bayes_factor(scores) == bayes_factor(scores, models)
    matrix = [[0.9, 0.8], [0.1, np.nan]]
    dims = ["factuality", "relevance"]
    ours = gate.decide_batch(matrix, dims, BayesFactorPolicy())
    theirs = decide_batch(matrix, dims, models, BayesFactorPolicy())
    assert np.array_equal(ours.log_bayes_factors, theirs.log_bayes_factors)
    assert gate.evaluate({"factuality": 0.9}).calibration is None


def test_the_batch_path_agrees_with_the_scalar_one(history):
    gate = fit_gate(history)
    rng = make_generator(3)
    matrix = rng.random((50, 2))
    matrix[::7, 1] = np.nan
    batch = gate.decide_batch(matrix, ["factuality", "relevance"], DecisionTheoreticPolicy())
    for row, code, log_bf in zip(
        matrix.tolist(), batch.actions, batch.log_bayes_factors.tolist(), strict=True
    ):
        scores = {d: v for d, v in zip(["factuality", "relevance"], row, strict=True) if v == v}
        decision = gate.evaluate(scores, DecisionTheoreticPolicy())
        assert decision.log_bayes_factor == pytest.approx(log_bf, abs=1e-9)
        assert decision.action == code


def test_the_report_is_json_and_names_the_choices(history):
    gate = fit_gate(history)
    report = json.loads(json.dumps(gate.report(), allow_nan=False))
    assert report["config"] == GateConfig().to_wire()
    assert report["historyCounts"] == {"high": 200, "low": 200} and report["sufficientHistory"]
    assert [d["family"] for d in report["dimensions"]] == ["beta", "beta"]  # Beta data, Beta fit
    assert report["assumptions"]["goodnessOfFitAdequate"]
    high, low = gate.score_models("factuality")
    assert high.mean > low.mean


def test_empirical_models_are_chosen_when_the_beta_is_rejected():
    rng = make_generator(6)
    history = [
        {"scores": {"d": float(v)}, "label": "high"}
        for v in np.where(rng.random(300) < 0.7, 1.0, rng.beta(5, 2, 300))
    ] + [{"scores": {"d": float(v)}, "label": "low"} for v in rng.beta(2, 3, 300)]
    gate = fit_gate(history)
    (fit,) = gate.dimensions
    assert fit.family == "empirical" and fit.adequate
    assert fit_gate(history, {"scoreModel": "beta"}).dimensions[0].family == "beta"
    assert not fit_gate(history, {"scoreModel": "beta"}).assumptions.goodness_of_fit_adequate


def test_an_untestable_model_is_not_reported_adequate():
    history = [
        {"scores": {"d": 0.9}, "label": "high"},
        {"scores": {"d": 0.2}, "label": "low"},
    ]
    gate = fit_gate(history)
    assert not gate.assumptions.goodness_of_fit_adequate
    assert gate.assumptions.inadequate_dimensions == ("d",)
    decision = gate.evaluate({"d": 0.95})
    assert (decision.action, decision.strength, decision.bayes_factor) == (
        "escalate",
        "inconclusive",
        1.0,
    )


@pytest.mark.parametrize(
    ("config", "path"),
    [
        ({"scoreModel": "gamma"}, "config.scoreModel"),
        ({"combination": "sum"}, "config.combination"),
        ({"wrongDirection": "flip"}, "config.wrongDirection"),
        ({"minHistory": -1}, "config.minHistory"),
        ({"minHistory": 2.5}, "config.minHistory"),
        ({"capEvidence": "yes"}, "config.capEvidence"),
        ({"folds": 1}, "config.folds"),
        ({"alpha": 1.5}, "config.alpha"),
        ({"minHistroy": 3}, "config"),
        (["compatible"], "config"),
    ],
)
def test_bad_configs_are_refused_with_the_field_path(config, path):
    with pytest.raises(assay.AssayError) as info:
        gate_config_from_wire(config)
    assert (info.value.code, info.value.path) == ("INVALID_CONFIG", path)


def test_configs_round_trip_through_json():
    for config in (GateConfig(), GateConfig.compatible(), GateConfig("empirical", folds=3)):
        assert gate_config_from_wire(json.loads(json.dumps(config.to_wire()))) == config
    assert GateConfig.compatible().is_compatible and not GateConfig().is_compatible


def test_an_unknown_dimension_is_refused(history):
    gate = fit_gate(history)
    with pytest.raises(assay.AssayError) as info:
        gate.evaluate({"tone": 0.5})
    assert (info.value.code, info.value.path) == ("INVALID_DIMENSION", "scores")
    with pytest.raises(assay.AssayError) as info:
        gate.decide_batch([[0.5]], ["tone"])
    assert info.value.code == "INVALID_DIMENSION"
    with pytest.raises(assay.AssayError) as info:
        gate.score_models("tone")
    assert info.value.code == "INVALID_DIMENSION"
    assert isinstance(gate, FittedGate)
