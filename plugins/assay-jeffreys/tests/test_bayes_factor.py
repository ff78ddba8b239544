"""The combined Bayes factor and the seven-way Jeffreys scale."""

from __future__ import annotations

import math

import pytest
from scipy import stats

import assay
from assay_jeffreys import bayes_factor, jeffreys_strength


@pytest.mark.parametrize(
    ("bf", "strength"),
    [
        (100.0, "decisive-high"),
        (99.999, "strong-high"),
        (10.0, "strong-high"),
        (9.999, "substantial-high"),
        (3.0, "substantial-high"),
        (2.999, "inconclusive"),
        (1.0, "inconclusive"),
        (1 / 2.999, "inconclusive"),
        (1 / 3.0, "substantial-low"),
        (1 / 9.999, "substantial-low"),
        (1 / 10.0, "strong-low"),
        (1 / 99.999, "strong-low"),
        (1 / 100.0, "decisive-low"),
        (1e-300, "decisive-low"),
    ],
)
def test_jeffreys_boundaries_are_symmetric_and_inclusive(bf, strength):
    assert jeffreys_strength(math.log(bf)) == strength


def test_exact_log_boundaries_and_infinities():
    assert jeffreys_strength(math.log(3)) == "substantial-high"
    assert jeffreys_strength(-math.log(3)) == "substantial-low"
    assert jeffreys_strength(math.inf) == "decisive-high"
    assert jeffreys_strength(-math.inf) == "decisive-low"
    assert jeffreys_strength(math.nan) == "inconclusive"


def test_combined_log_bayes_factor_is_the_weighted_sum_of_density_differences(models):
    result = bayes_factor({"factuality": 0.9, "relevance": 0.4, "ignored": 0.5}, models)
    f = stats.beta.logpdf(0.9, 8, 2) - stats.beta.logpdf(0.9, 2, 6)
    r = 0.5 * (stats.beta.logpdf(0.4, 6, 3) - stats.beta.logpdf(0.4, 3, 5))
    assert result.log_bayes_factor == pytest.approx(f + r, abs=1e-12)
    assert result.bayes_factor == pytest.approx(math.exp(f + r), rel=1e-12)
    assert [(c.dimension, c.weight) for c in result.contributions] == [
        ("factuality", 1.0),
        ("relevance", 0.5),
    ]
    assert result.contributions[1].log_bayes_factor == pytest.approx(r, abs=1e-12)
    assert (result.favored, result.strength) == ("high", "decisive-high")


def test_low_scores_favor_low_quality(models):
    result = bayes_factor({"factuality": 0.1}, models)
    assert result.favored == "low" and result.log_bayes_factor < 0


def test_no_overlap_is_a_neutral_result(models):
    result = bayes_factor({"other": 0.3}, models)
    assert (result.log_bayes_factor, result.bayes_factor, result.favored) == (
        0.0,
        1.0,
        "inconclusive",
    )
    assert result.contributions == ()


def test_boundary_scores_give_a_finite_factor(models):
    assert math.isfinite(
        bayes_factor({"factuality": 0.0, "relevance": 1.0}, models).log_bayes_factor
    )


@pytest.mark.parametrize(
    ("scores", "path"),
    [
        ({"factuality": 1.2}, "scores.factuality"),
        ({"factuality": float("nan")}, "scores.factuality"),
        (
            [{"dimension": "f", "value": 0.1}, {"dimension": "f", "value": 0.2}],
            "scores[1].dimension",
        ),
        ([{"dimension": "f"}], "scores[0]"),
        ([0.4], "scores[0]"),
        ("0.4", "scores"),
    ],
)
def test_bad_scores_raise_invalid_score(models, scores, path):
    with pytest.raises(assay.AssayError) as info:
        bayes_factor(scores, models)
    assert (info.value.code, info.value.path) == ("INVALID_SCORE", path)


def test_binary_bayes_factor_is_the_ratio_of_beta_binomial_marginals(models):
    from assay_jeffreys import BayesFactorPolicy, binary_bayes_factor

    result = binary_bayes_factor({"factuality": (7, 9), "relevance": (1, 4)}, models)
    f = stats.betabinom.logpmf(7, 9, 8, 2) - stats.betabinom.logpmf(7, 9, 2, 6)
    r = 0.5 * (stats.betabinom.logpmf(1, 4, 6, 3) - stats.betabinom.logpmf(1, 4, 3, 5))
    assert result.log_bayes_factor == pytest.approx(f + r, abs=1e-12)
    assert [c.score for c in result.contributions] == [7 / 9, 0.25]
    # BF = 8.90: substantial evidence for high, short of the pass threshold of 10.
    assert result.bayes_factor == pytest.approx(8.900320959157977, rel=1e-12)
    assert result.strength == "substantial-high"
    assert BayesFactorPolicy().decide(result).action == "escalate"
    assert BayesFactorPolicy(pass_above=8).decide(result).action == "pass"
    assert binary_bayes_factor({"factuality": (0, 0)}, models).log_bayes_factor == 0.0
    for bad in ({"factuality": (3, 2)}, {"factuality": (1.5, 2)}, {"factuality": 3}):
        with pytest.raises(assay.AssayError) as info:
            binary_bayes_factor(bad, models)
        assert info.value.code == "INVALID_OBSERVATION"
