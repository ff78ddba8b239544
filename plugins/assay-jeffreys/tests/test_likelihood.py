"""Likelihoods against scipy.stats and closed forms, to 1e-12."""

from __future__ import annotations

import math

import pytest
from scipy import stats

import assay
from assay_jeffreys import (
    BetaParams,
    log_binary_marginal_likelihood,
    log_score_likelihood,
    log_vector_likelihood,
)
from assay_jeffreys.likelihood import SCORE_EPSILON

PARAMS = [(0.5, 0.5), (1.0, 1.0), (2.0, 1.0), (1.0, 2.0), (7.3, 1.9), (120.0, 45.5), (0.2, 3.0)]
SCORES = [1e-4, 0.01, 0.25, 0.5, 0.73, 0.99, 1 - 1e-4]


@pytest.mark.parametrize(("a", "b"), PARAMS)
def test_log_score_likelihood_matches_scipy_beta_logpdf(a, b):
    for x in SCORES:
        expected = stats.beta.logpdf(x, a, b)
        assert abs(log_score_likelihood(x, BetaParams(a, b)) - expected) <= 1e-12 * max(
            1.0, abs(expected)
        )


def test_closed_forms():
    for x in SCORES:
        assert log_score_likelihood(x, BetaParams(1, 1)) == pytest.approx(0.0, abs=1e-12)
        assert log_score_likelihood(x, BetaParams(2, 1)) == pytest.approx(
            math.log(2 * x), abs=1e-12
        )
        assert log_score_likelihood(x, BetaParams(1, 2)) == pytest.approx(
            math.log(2 * (1 - x)), abs=1e-12
        )


def test_boundary_scores_are_clamped_inward_to_a_finite_density():
    params = BetaParams(2.0, 1.0)
    assert log_score_likelihood(0.0, params) == pytest.approx(
        math.log(2 * SCORE_EPSILON), abs=1e-12
    )
    assert log_score_likelihood(1.0, params) == pytest.approx(
        math.log(2 * (1 - SCORE_EPSILON)), abs=1e-12
    )
    assert math.isfinite(log_score_likelihood(0.0, BetaParams(0.5, 0.5)))


@pytest.mark.parametrize(("a", "b"), PARAMS)
def test_binary_marginal_matches_scipy_betabinom_logpmf(a, b):
    for trials in (0, 1, 5, 40):
        for successes in range(0, trials + 1, max(1, trials // 4)):
            expected = stats.betabinom.logpmf(successes, trials, a, b)
            got = log_binary_marginal_likelihood(successes, trials, BetaParams(a, b))
            assert abs(got - expected) <= 1e-12 * max(1.0, abs(expected))


def test_binary_marginal_closed_form_under_a_uniform_prior():
    # Under Beta(1, 1) every count 0..n is equally likely: 1 / (n + 1).
    for n in (1, 4, 10):
        for k in range(n + 1):
            got = log_binary_marginal_likelihood(k, n, BetaParams(1, 1))
            assert got == pytest.approx(-math.log(n + 1), abs=1e-12)


@pytest.mark.parametrize(("k", "n"), [(-1, 3), (4, 3), (1.5, 3), (True, 3)])
def test_binary_marginal_refuses_bad_counts(k, n):
    with pytest.raises(assay.AssayError) as info:
        log_binary_marginal_likelihood(k, n, BetaParams(1, 1))
    assert info.value.code == "INVALID_OBSERVATION"


def test_vector_likelihood_weights_and_counts_matched_dimensions(models):
    scores = {"factuality": 0.7, "relevance": 0.6, "unmodeled": 0.1}
    result = log_vector_likelihood(scores, models, "high")
    expected = stats.beta.logpdf(0.7, 8, 2) + 0.5 * stats.beta.logpdf(0.6, 6, 3)
    assert result.log_likelihood == pytest.approx(expected, abs=1e-12)
    assert result.matched == 2
    assert log_vector_likelihood({"other": 0.5}, models, "low").matched == 0
