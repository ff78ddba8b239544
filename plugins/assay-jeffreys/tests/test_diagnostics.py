"""Goodness of fit (KS against the fitted Beta), dependence, the assumption report."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import assay
from assay_jeffreys import (
    BetaParams,
    HypothesisManager,
    assess_assumptions,
    dependence_diagnostic,
    goodness_of_fit,
)
from assay_jeffreys.diagnostics import ks_critical_value
from assay_jeffreys.sampling import make_generator


def test_ks_statistic_matches_scipy_kstest():
    rng = make_generator(11)
    samples = rng.beta(3.0, 2.0, size=400)
    for params in (BetaParams(3.0, 2.0), BetaParams(2.0, 3.0), BetaParams(0.7, 0.9)):
        expected = stats.kstest(samples, "beta", args=(params.a, params.b)).statistic
        assert goodness_of_fit(samples, params).ks_statistic == pytest.approx(expected, abs=1e-12)


def test_critical_value_is_the_asymptotic_formula():
    assert ks_critical_value(100, 0.05) == pytest.approx(math.sqrt(-math.log(0.025) / 2) / 10)
    # ... which is the Kolmogorov distribution's 95% quantile (1.35810) to within 1e-5.
    assert ks_critical_value(1, 0.05) == pytest.approx(stats.kstwobign.ppf(0.95), abs=1e-5)
    assert ks_critical_value(400, 0.01) == pytest.approx(math.sqrt(-math.log(0.005) / 2) / 20)


def test_a_good_fit_is_adequate_and_a_bimodal_sample_is_not():
    rng = make_generator(5)
    good = rng.beta(5.0, 2.0, size=500)
    fit = goodness_of_fit(good, BetaParams(5.0, 2.0))
    assert fit.adequate and fit.samples == 500 and fit.ks_statistic < fit.critical_value
    bimodal = np.concatenate([rng.beta(40, 2, 250), rng.beta(2, 40, 250)])
    moment_fit = (
        HypothesisManager()
        .fit({"scores": {"d": float(x)}, "label": "high"} for x in bimodal)
        .models()[0]
        .high
    )
    assert not goodness_of_fit(bimodal, moment_fit).adequate


def test_goodness_of_fit_refuses_too_few_or_bad_samples():
    with pytest.raises(assay.AssayError) as info:
        goodness_of_fit([0.1, 0.2, 0.3, 0.4], BetaParams(1, 1))
    assert info.value.code == "INVALID_OBSERVATION"
    with pytest.raises(assay.AssayError) as info:
        goodness_of_fit([0.1, 0.2, 0.3, 0.4, 1.4], BetaParams(1, 1))
    assert info.value.code == "INVALID_OBSERVATION"
    with pytest.raises(assay.AssayError) as info:
        goodness_of_fit([0.1] * 5, BetaParams(1, 1), alpha=1.5)
    assert info.value.code == "INVALID_CONFIG"


def test_dependence_flags_correlated_pairs_at_the_threshold():
    rng = make_generator(3)
    base = rng.uniform(size=300)
    history = [
        {"a": float(x), "b": float(0.5 * x + 0.5 * noise), "c": float(rng.uniform())}
        for x, noise in zip(base, rng.uniform(size=300), strict=True)
    ]
    diag = dependence_diagnostic(history)
    assert diag.dimensions == ("a", "b", "c")
    assert [(p.a, p.b) for p in diag.flagged] == [("a", "b")]
    assert diag.pairs[0].correlation == pytest.approx(
        np.corrcoef([h["a"] for h in history], [h["b"] for h in history])[0, 1], abs=1e-12
    )
    assert diag.max_abs_correlation == pytest.approx(diag.pairs[0].correlation)
    assert not diag.independence_assumption_safe
    assert 0.5 < diag.pairs[0].correlation < 0.9  # about 0.71 by construction
    assert dependence_diagnostic(history, threshold=0.9).independence_assumption_safe


def test_dependence_uses_only_rows_scoring_both_and_handles_constants():
    history = [{"a": 0.1, "b": 0.5}, {"a": 0.2, "b": 0.5}, {"a": 0.3, "b": 0.5}, {"a": 0.9}]
    diag = dependence_diagnostic(history)
    assert diag.pairs[0].samples == 3 and diag.pairs[0].correlation == 0.0
    assert dependence_diagnostic([{"a": 0.1, "b": 0.2}]).pairs == ()
    with pytest.raises(assay.AssayError) as info:
        dependence_diagnostic(history, threshold=2)
    assert info.value.code == "INVALID_CONFIG"


def test_assumptions_are_judged_within_each_hypothesis(history):
    models = HypothesisManager().fit(history).models()
    report = assess_assumptions(history, models)
    # Both dimensions separate the classes, so pooled they correlate; within a class they
    # were drawn independently, so the report must call independence safe.
    pooled = dependence_diagnostic([h["scores"] for h in history])
    assert not pooled.independence_assumption_safe
    assert report.independence_assumption_safe and report.goodness_of_fit_adequate
    assert report.dependent_pairs == () and report.inadequate_dimensions == ()


def test_assumption_report_names_inadequate_dimensions_and_dependent_pairs():
    rng = make_generator(9)
    history = []
    for x in np.concatenate([rng.beta(40, 2, 150), rng.beta(2, 40, 150)]):
        history.append(
            {
                "scores": {"bimodal": float(x), "copy": float(x), "noise": float(rng.uniform())},
                "label": "high",
            }
        )
    models = HypothesisManager().fit(history).models()
    report = assess_assumptions(history, models)
    assert report.inadequate_dimensions == ("bimodal", "copy")
    assert report.dependent_pairs == ("bimodal~copy",)
    with pytest.raises(assay.AssayError) as info:
        assess_assumptions([], models)
    assert info.value.code == "INVALID_OBSERVATION"
