"""Every stable error code of the gate (those of bayesoutputgate), raised as assay.AssayError, one test each."""

from __future__ import annotations

import math

import pytest

import assay
from assay_jeffreys import (
    BayesFactorPolicy,
    BetaModel,
    BetaParams,
    HypothesisManager,
    OutputGateMonitor,
    errors,
    evaluate,
)


def _code(call) -> str:
    with pytest.raises(assay.AssayError) as info:
        call()
    return info.value.code


def test_invalid_config():
    assert _code(lambda: BayesFactorPolicy(pass_above=0.5)) == errors.INVALID_CONFIG


def test_invalid_score(models):
    assert (
        _code(lambda: evaluate({"factuality": 2}, models, BayesFactorPolicy()))
        == errors.INVALID_SCORE
    )


def test_invalid_dimension():
    assert (
        _code(lambda: HypothesisManager().observation_count("x", "high"))
        == errors.INVALID_DIMENSION
    )


def test_invalid_hypothesis():
    assert _code(lambda: HypothesisManager().observe({"scores": {}, "label": "good"})) == (
        errors.INVALID_HYPOTHESIS
    )


def test_invalid_observation():
    assert (
        _code(lambda: HypothesisManager().observe({"scores": {"f": 0.5}}))
        == errors.INVALID_OBSERVATION
    )


def test_invalid_state():
    assert _code(lambda: OutputGateMonitor().record({"f": 0.5})) == errors.INVALID_STATE


def test_invalid_snapshot():
    assert (
        _code(lambda: BetaModel.from_snapshot({"prior": {"a": 1, "b": 1}}))
        == errors.INVALID_SNAPSHOT
    )


def test_numeric():
    assert _code(lambda: BayesFactorPolicy().decide(math.nan)) == errors.NUMERIC
    # A fit whose pooled variance is not positive is a numeric error, not a silent NaN.
    model = BetaModel(BetaParams(1e-300, 1e-300))
    assert _code(lambda: model.observe(0.5)) == errors.NUMERIC


def test_errors_carry_the_field_path(models):
    with pytest.raises(assay.AssayError) as info:
        evaluate([{"dimension": "factuality", "value": -1}], models, BayesFactorPolicy())
    assert info.value.path == "scores[0].value"
    assert info.value.to_dict()["code"] == "INVALID_SCORE"
