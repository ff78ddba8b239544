"""Score models: the empirical model fits spiky bounded scores the Beta cannot, and the KS test
with atoms reduces to the Beta one without them."""

from __future__ import annotations

import math

import numpy as np
import pytest

import assay
from assay_jeffreys import (
    BetaParams,
    BetaScoreModel,
    EmpiricalScoreModel,
    HypothesisManager,
    fit_empirical_pair,
    goodness_of_fit,
    log_score_likelihood,
    model_goodness_of_fit,
)
from assay_jeffreys.sampling import make_generator


def spiky(n: int, seed: int, zero: float, one: float, a: float, b: float) -> np.ndarray:
    """Scores like a heuristic metric's: a share exactly 0, a share exactly 1, a share on the
    fraction 4/5, the rest Beta(a, b)."""
    rng = make_generator(seed)
    kind = rng.choice(4, size=n, p=[zero, one, 0.1, 1.0 - zero - one - 0.1])
    values = rng.beta(a, b, size=n)
    values[kind == 0] = 0.0
    values[kind == 1] = 1.0
    values[kind == 2] = 4 / 5
    return values


HIGH = spiky(2000, 1, zero=0.02, one=0.6, a=6, b=2)
LOW = spiky(2000, 2, zero=0.3, one=0.05, a=2, b=4)


def beta_fit(values: np.ndarray, prior: str) -> BetaScoreModel:
    manager = HypothesisManager().fit([{"scores": {"d": float(v)}, "label": prior} for v in values])
    return BetaScoreModel(manager.model("d", prior).params)


def test_the_empirical_model_passes_ks_on_spiky_scores_where_the_beta_fails():
    high, low = fit_empirical_pair(HIGH, LOW)
    assert high.atoms == low.atoms == (0.0, 0.8, 1.0)  # 0 and 1 always, 4/5 shared by 10%
    for values, model, kind in ((HIGH, high, "high"), (LOW, low, "low")):
        assert model_goodness_of_fit(values, model).adequate
        assert not model_goodness_of_fit(values, beta_fit(values, kind)).adequate


def test_the_empirical_model_is_a_probability_distribution():
    high, _ = fit_empirical_pair(HIGH, LOW)
    # atoms plus the continuous part sum to 1, and the CDF reaches 1 at the top
    assert math.fsum(high.atom_masses) + high.continuous_mass == pytest.approx(1.0, abs=1e-12)
    assert high.cdf(np.array([1.0]))[0] == pytest.approx(1.0, abs=1e-12)
    assert high.cdf(np.array([0.0]))[0] == pytest.approx(high.point_mass(np.array([0.0]))[0])
    # the atoms' masses are the counts plus a Jeffreys half pseudo-count each
    ones = np.count_nonzero(HIGH == 1.0)
    expected = (ones + 0.5) / (HIGH.size + 0.5 * 4)
    assert high.point_mass(np.array([1.0]))[0] == pytest.approx(expected, rel=1e-12)
    assert high.mean == pytest.approx(float(np.mean(HIGH)), abs=0.01)


def test_every_score_has_a_finite_likelihood_ratio_even_if_never_seen():
    high, low = fit_empirical_pair([1.0] * 40 + [0.9] * 10, [0.0] * 40 + [0.2] * 10)
    grid = np.linspace(0.0, 1.0, 101)
    ratio = high.log_density(grid) - low.log_density(grid)
    assert np.all(np.isfinite(ratio))
    assert ratio[-1] > 3 and ratio[0] < -3  # the spikes separate, but not infinitely


def test_floating_point_noise_is_the_same_atom():
    high, _ = fit_empirical_pair(HIGH, LOW)
    noisy = np.array([0.8, 0.8000000000000002, 0.7999999999999999])
    assert np.all(high.point_mass(noisy) == high.point_mass(np.array([0.8]))[0])


def test_model_ks_equals_the_beta_ks_for_a_beta():
    values = make_generator(5).beta(3, 4, size=300)
    params = BetaParams(3.2, 3.9)
    ours = model_goodness_of_fit(values, BetaScoreModel(params))
    beta = goodness_of_fit(values.tolist(), params)
    assert ours.ks_statistic == pytest.approx(beta.ks_statistic, abs=1e-12)
    assert (ours.critical_value, ours.adequate, ours.samples) == (
        beta.critical_value,
        beta.adequate,
        beta.samples,
    )


def test_the_beta_score_model_is_the_gates_beta_density():
    params = BetaParams(2.5, 7.0)
    x = np.array([0.0, 1e-9, 0.3, 1.0])
    expected = [log_score_likelihood(v, params) for v in x.tolist()]
    assert BetaScoreModel(params).log_density(x).tolist() == pytest.approx(expected, abs=1e-12)


def test_fitting_is_deterministic_and_reuses_given_atoms_and_scales():
    a = fit_empirical_pair(HIGH, LOW)
    b = fit_empirical_pair(HIGH, LOW)
    assert np.array_equal(a[0].density, b[0].density) and a[1].bandwidth == b[1].bandwidth
    held = fit_empirical_pair(HIGH[:500], LOW[:500], atoms=a[0].atoms, scales=(0.5, 0.25))
    assert held[0].atoms == a[0].atoms and held[0].bandwidth_scale == 0.5


def test_the_bandwidth_narrows_until_the_fit_is_close():
    # two narrow bumps: Silverman's width blurs them, a quarter of it does not
    rng = make_generator(8)
    values = np.concatenate([rng.normal(0.3, 0.01, 800), rng.normal(0.6, 0.01, 800)])
    high, _ = fit_empirical_pair(values, values)
    assert high.bandwidth_scale < 1.0
    assert model_goodness_of_fit(values, high).ks_statistic <= 0.5 * 1.3581 / math.sqrt(1600)


def test_empty_and_tiny_samples_still_give_a_model():
    high, low = fit_empirical_pair([], [0.4, 0.5])
    assert high.samples == 0 and high.bandwidth is None
    assert np.all(np.isfinite(high.log_density(np.array([0.0, 0.5, 1.0]))))
    assert isinstance(low, EmpiricalScoreModel) and low.describe()["samples"] == 2


def test_bad_scores_and_too_few_samples_are_refused():
    with pytest.raises(assay.AssayError) as info:
        fit_empirical_pair([0.5, 1.5], [0.2])
    assert (info.value.code, info.value.path) == ("INVALID_OBSERVATION", "high")
    high, _ = fit_empirical_pair(HIGH, LOW)
    with pytest.raises(assay.AssayError) as info:
        model_goodness_of_fit([0.1, 0.2], high)
    assert info.value.code == "INVALID_OBSERVATION"
