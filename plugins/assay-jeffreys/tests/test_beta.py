"""BetaModel: method of moments with a prior as pseudo-observations, online, snapshots."""

from __future__ import annotations

import pytest

import assay
from assay_jeffreys import BetaModel, BetaParams


def test_a_cold_model_returns_its_prior():
    model = BetaModel(BetaParams(2.0, 1.0))
    assert model.params == BetaParams(2.0, 1.0)
    assert model.count == 0


def test_fit_matches_the_hand_computed_pooled_moments():
    # prior Beta(2, 1): n0 = 3, m0 = 2/3, v0 = 2 / (9 * 4) = 1/18
    # data 0.2, 0.4: n = 5, mean = (2 + 0.6) / 5 = 0.52
    # second moment = (3 * (1/18 + 4/9) + 0.04 + 0.16) / 5 = (1.5 + 0.2) / 5 = 0.34
    # variance = 0.34 - 0.52^2 = 0.0696; concentration = 0.52 * 0.48 / 0.0696 - 1
    model = BetaModel(BetaParams(2.0, 1.0)).observe_many([0.2, 0.4])
    concentration = 0.52 * 0.48 / 0.0696 - 1
    assert model.params.a == pytest.approx(0.52 * concentration, rel=1e-12)
    assert model.params.b == pytest.approx(0.48 * concentration, rel=1e-12)


def test_data_dominates_the_prior_as_it_grows():
    model = BetaModel(BetaParams(1.0, 2.0))
    values = [0.8, 0.9, 0.85, 0.75, 0.95] * 200
    model.observe_many(values)
    assert model.params.mean == pytest.approx(sum(values) / len(values), abs=0.002)


def test_online_updates_equal_one_batch_fit_in_any_order():
    values = [0.1, 0.5, 0.7, 0.3, 0.9, 0.2]
    forward = BetaModel().observe_many(values)
    backward = BetaModel().observe_many(reversed(values))
    assert forward.params.a == pytest.approx(backward.params.a, rel=1e-12)
    assert forward.params.b == pytest.approx(backward.params.b, rel=1e-12)
    assert (forward.count, forward.total) == (6, pytest.approx(2.7))


def test_boundary_scores_are_accepted():
    model = BetaModel().observe_many([0.0, 1.0, 0.0, 1.0])
    assert model.params.a > 0 and model.params.b > 0


@pytest.mark.parametrize("value", [-0.1, 1.5, float("nan"), "0.5", True])
def test_invalid_scores_are_refused_and_change_nothing(value):
    model = BetaModel().observe(0.5)
    before = model.params
    with pytest.raises(assay.AssayError) as info:
        model.observe(value)
    assert info.value.code == "INVALID_OBSERVATION"
    assert model.params == before and model.count == 1


def test_snapshot_round_trips():
    model = BetaModel(BetaParams(2.0, 3.0)).observe_many([0.2, 0.3, 0.6])
    again = BetaModel.from_snapshot(model.snapshot())
    assert again.params == model.params
    assert again.snapshot() == model.snapshot()
    assert model.snapshot() == {
        "prior": {"a": 2.0, "b": 3.0},
        "count": 3,
        "sum": pytest.approx(1.1),
        "sumSquares": pytest.approx(0.49),
    }


@pytest.mark.parametrize(
    ("snapshot", "path"),
    [
        (None, "snapshot"),
        ({"prior": {"a": -1, "b": 1}, "count": 0, "sum": 0, "sumSquares": 0}, "snapshot.prior"),
        ({"prior": {"a": 1, "b": 1}, "count": -1, "sum": 0, "sumSquares": 0}, "snapshot.count"),
        ({"prior": {"a": 1, "b": 1}, "count": 1, "sum": 2.0, "sumSquares": 0}, "snapshot.sum"),
        ({"prior": {"a": 1, "b": 1}, "count": 2, "sum": 0.5, "sumSquares": 0.9}, "snapshot"),
        ({"prior": {"a": 1, "b": 1}, "count": 1, "sum": 0.5}, "snapshot.sumSquares"),
    ],
)
def test_malformed_snapshots_raise_invalid_snapshot(snapshot, path):
    with pytest.raises(assay.AssayError) as info:
        BetaModel.from_snapshot(snapshot)
    assert (info.value.code, info.value.path) == ("INVALID_SNAPSHOT", path)
