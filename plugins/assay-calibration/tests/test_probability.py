"""Brier score, expected calibration error and reliability tables against hand computations."""

from __future__ import annotations

import numpy as np
import pytest

import assay
from assay_calibration.probability import (
    ReliabilityBin,
    brier_score,
    expected_calibration_error,
    reliability_table,
)


def test_brier_score_by_hand() -> None:
    # (0.9-1)^2 + (0.2-0)^2 + (0.6-0)^2 + (1-1)^2 = 0.01 + 0.04 + 0.36 + 0 = 0.41 -> / 4
    assert brier_score([0.9, 0.2, 0.6, 1.0], [1, 0, False, True]) == pytest.approx(0.1025)


def test_brier_score_extremes() -> None:
    assert brier_score([1.0, 0.0], [1, 0]) == 0.0
    assert brier_score([0.0, 1.0], [1, 0]) == 1.0
    assert brier_score([0.5] * 4, [1, 0, 1, 1]) == 0.25


def test_reliability_table_by_hand() -> None:
    probs = [0.05, 0.15, 0.12, 0.55, 0.95, 1.0]
    outcomes = [0, 0, 1, 1, 1, 1]
    table = reliability_table(probs, outcomes, bins=4)
    assert table.total == 6
    assert table.bins[0] == ReliabilityBin(0.0, 0.25, 3, pytest.approx(0.32 / 3), 1 / 3)
    assert table.bins[1] == ReliabilityBin(0.25, 0.5, 0, None, None)
    assert table.bins[2] == ReliabilityBin(0.5, 0.75, 1, 0.55, 1.0)
    assert table.bins[3] == ReliabilityBin(0.75, 1.0, 2, 0.975, 1.0)
    # ECE = (3*|0.10667-0.33333| + 1*|0.55-1| + 2*|0.975-1|) / 6
    expected = (3 * abs(0.32 / 3 - 1 / 3) + 0.45 + 2 * 0.025) / 6
    assert table.expected_calibration_error == pytest.approx(expected)
    assert expected_calibration_error(probs, outcomes, bins=4) == pytest.approx(expected)
    assert table.bins[0].gap == pytest.approx(0.32 / 3 - 1 / 3)
    assert table.bins[1].gap is None


def test_bin_edges_are_left_closed_and_one_goes_in_the_last_bin() -> None:
    table = reliability_table([0.0, 0.5, 1.0], [0, 1, 1], bins=2)
    assert [b.count for b in table.bins] == [1, 2]


def test_perfectly_calibrated_bins_give_zero_ece() -> None:
    probs = [0.25] * 4 + [0.75] * 4
    outcomes = [1, 0, 0, 0, 1, 1, 1, 0]  # rates 0.25 and 0.75
    assert expected_calibration_error(probs, outcomes, bins=2) == 0.0


def test_one_bin_ece_is_the_overall_gap() -> None:
    probs = [0.9, 0.8, 0.7, 0.6]
    assert expected_calibration_error(probs, [1, 0, 0, 1], bins=1) == pytest.approx(0.75 - 0.5)


def test_accepts_numpy_arrays_and_large_seeded_inputs() -> None:
    rng = np.random.default_rng(3)
    probs = rng.uniform(size=20_000)
    outcomes = rng.uniform(size=20_000) < probs  # calibrated by construction
    assert expected_calibration_error(probs, outcomes) < 0.02
    assert brier_score(probs, outcomes) == pytest.approx(1 / 6, abs=0.01)  # E[p(1-p)] = 1/6


def test_to_dict_shape() -> None:
    data = reliability_table([0.2, 0.8], [0, 1], bins=2).to_dict()
    assert data == {
        "total": 2,
        "brierScore": pytest.approx(0.04),
        "expectedCalibrationError": pytest.approx(0.2),
        "bins": [
            {"lower": 0.0, "upper": 0.5, "count": 1, "meanPredicted": 0.2, "observedRate": 0.0},
            {"lower": 0.5, "upper": 1.0, "count": 1, "meanPredicted": 0.8, "observedRate": 1.0},
        ],
    }


@pytest.mark.parametrize(
    ("probs", "outcomes", "path"),
    [
        ([], [], "probabilities"),
        ([0.5, 0.5], [1], "outcomes"),
        ([0.5, 1.5], [1, 0], "probabilities[1]"),
        ([float("nan")], [1], "probabilities[0]"),
        (["0.5"], [1], "probabilities[0]"),
        ([True], [1], "probabilities[0]"),
        ([0.5, 0.5], [1, 2], "outcomes[1]"),
        ([0.5], ["yes"], "outcomes[0]"),
        ([0.5], [None], "outcomes[0]"),
    ],
)
def test_bad_data_raises_invalid_input(probs: list, outcomes: list, path: str) -> None:
    for function in (brier_score, expected_calibration_error, reliability_table):
        with pytest.raises(assay.AssayError) as caught:
            function(probs, outcomes)
        assert (caught.value.code, caught.value.path) == ("INVALID_INPUT", path)


@pytest.mark.parametrize("bins", [0, -1, 2.0, True])
def test_bad_bins_raise_invalid_config(bins: object) -> None:
    with pytest.raises(assay.AssayError) as caught:
        reliability_table([0.5], [1], bins=bins)  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", "bins")


@pytest.mark.parametrize(
    ("probs", "outcomes", "path"),
    [
        (np.array([0.2, np.nan, 0.4]), np.array([0, 1, 1]), "probabilities[1]"),
        (np.array([0.2, 0.3]), np.array([0, 2]), "outcomes[1]"),
        (np.array([True, False]), np.array([0, 1]), "probabilities[0]"),
        (np.array([[0.2, 0.3]]), np.array([0, 1]), "probabilities[0]"),
        (np.array([0.2, 0.3]), np.array([1, 0, 1]), "outcomes"),
    ],
)
def test_numpy_inputs_are_checked_value_by_value(probs, outcomes, path: str) -> None:
    with pytest.raises(assay.AssayError) as caught:
        brier_score(probs, outcomes)
    assert (caught.value.code, caught.value.path) == ("INVALID_INPUT", path)


def test_numpy_and_list_inputs_agree() -> None:
    probs, outcomes = [0.1, 0.4, 0.35, 0.8], [False, True, 0, 1]
    as_arrays = reliability_table(np.array(probs), np.array(outcomes, dtype=bool), bins=3)
    assert as_arrays == reliability_table(probs, outcomes, bins=3)
