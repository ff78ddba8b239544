"""HypothesisManager: default and per-dimension priors, weights, fit, online updates."""

from __future__ import annotations

import pytest

import assay
from assay_jeffreys import BetaParams, DimensionSpec, HypothesisManager


def test_defaults_are_beta_2_1_high_and_beta_1_2_low_with_weight_1():
    manager = HypothesisManager([DimensionSpec("factuality")])
    (model,) = manager.models()
    assert (model.high, model.low, model.weight) == (BetaParams(2, 1), BetaParams(1, 2), 1.0)


def test_per_dimension_priors_and_weights_override_the_defaults():
    manager = HypothesisManager(
        [DimensionSpec("a", weight=2.0, prior_high=BetaParams(5, 1)), DimensionSpec("b")],
        default_weight=0.5,
        default_prior_low=BetaParams(1, 4),
    )
    a, b = manager.models()
    assert (a.dimension, a.weight, a.high, a.low) == ("a", 2.0, BetaParams(5, 1), BetaParams(1, 4))
    assert (b.dimension, b.weight, b.high) == ("b", 0.5, BetaParams(2, 1))


def test_observe_folds_scores_into_the_labeled_hypothesis_only():
    manager = HypothesisManager()
    manager.observe({"scores": [{"dimension": "f", "value": 0.9}], "label": "high"})
    manager.observe({"scores": {"f": 0.1, "g": 0.2}, "label": "low"})
    assert manager.dimensions == ["f", "g"]
    assert manager.observation_count("f", "high") == 1
    assert manager.observation_count("f", "low") == 1
    assert manager.observation_count("g", "high") == 0
    assert manager.models()[1].high == BetaParams(2, 1)  # g's high model is still its prior


def test_fit_separates_the_two_hypotheses(history):
    models = HypothesisManager().fit(history).models()
    by_name = {m.dimension: m for m in models}
    assert by_name["factuality"].high.mean == pytest.approx(0.8, abs=0.03)
    assert by_name["factuality"].low.mean == pytest.approx(0.25, abs=0.03)


def test_unknown_dimension_and_bad_hypothesis_are_refused():
    manager = HypothesisManager([DimensionSpec("f")])
    with pytest.raises(assay.AssayError) as info:
        manager.observation_count("nope", "high")
    assert info.value.code == "INVALID_DIMENSION"
    with pytest.raises(assay.AssayError) as info:
        manager.observation_count("f", "medium")
    assert info.value.code == "INVALID_HYPOTHESIS"


def test_bad_options_are_refused():
    with pytest.raises(assay.AssayError) as info:
        HypothesisManager(default_weight=-1)
    assert info.value.code == "INVALID_CONFIG"
    with pytest.raises(assay.AssayError) as info:
        HypothesisManager([DimensionSpec("f"), DimensionSpec("f")])
    assert info.value.code == "INVALID_DIMENSION"


def test_snapshot_round_trips(history):
    manager = HypothesisManager([DimensionSpec("factuality", weight=2.0)]).fit(history[:50])
    again = HypothesisManager.from_snapshot(manager.snapshot())
    assert again.models() == manager.models()
    assert again.observation_count("relevance", "low") == manager.observation_count(
        "relevance", "low"
    )
    with pytest.raises(assay.AssayError) as info:
        HypothesisManager.from_snapshot({"dimensions": [{"dimension": "x", "high": {}}]})
    assert info.value.code == "INVALID_SNAPSHOT"


def test_an_observation_that_fails_midway_changes_nothing():
    tiny = BetaParams(1e-300, 1e-300)  # any refit of this prior has no positive variance
    manager = HypothesisManager([DimensionSpec("a"), DimensionSpec("b", prior_high=tiny)])
    manager.observe({"scores": {"a": 0.3}, "label": "high"})
    before = manager.snapshot()
    with pytest.raises(assay.AssayError) as info:
        manager.observe({"scores": {"a": 0.9, "b": 0.5}, "label": "high"})
    assert info.value.code == "NUMERIC"
    assert manager.snapshot() == before
