"""Calibration of probability predictions against binary outcomes.

Given predicted probabilities ``p_1..p_N`` (each in ``[0, 1]``) and outcomes ``y_1..y_N``
(``1``/``True`` when the event happened, ``0``/``False`` otherwise):

* :func:`brier_score` — ``(1/N) Σ (p_i − y_i)²``; 0 is perfect, 0.25 is what always
  predicting 0.5 scores, 1 is confidently wrong every time.
* :func:`reliability_table` — the ``[0, 1]`` range cut into ``bins`` equal-width bins (bin
  ``j`` holds ``j/bins <= p < (j+1)/bins``; ``p = 1`` falls in the last bin); per bin the count,
  the mean predicted probability and the observed rate of positive outcomes. Empty bins are
  kept, with ``None`` for the mean and the rate.
* :func:`expected_calibration_error` — ``Σ_j (n_j / N) · |mean predicted_j − observed rate_j|``
  over the non-empty bins: the average gap between what was predicted and what happened,
  weighted by how many predictions fell in each bin. 0 means perfectly calibrated at this
  resolution.

Invalid input raises :class:`assay.AssayError`: ``INVALID_INPUT`` for an empty input, a length
mismatch (path ``outcomes``), a probability outside ``[0, 1]`` or not a finite number (path
``probabilities[i]``), an outcome that is not 0/1/True/False (path ``outcomes[i]``);
``INVALID_CONFIG`` (path ``bins``) when ``bins`` is not an integer >= 1.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np

import assay

__all__ = [
    "ReliabilityBin",
    "ReliabilityTable",
    "brier_score",
    "expected_calibration_error",
    "reliability_table",
]


@attrs.frozen
class ReliabilityBin:
    """One bin of a reliability table.

    Attributes:
        lower: inclusive lower edge of the bin.
        upper: upper edge (exclusive, except 1.0 for the last bin).
        count: how many predictions fell in the bin.
        mean_predicted: mean predicted probability in the bin, ``None`` when empty.
        observed_rate: fraction of positive outcomes in the bin, ``None`` when empty.
    """

    lower: float
    upper: float
    count: int
    mean_predicted: float | None
    observed_rate: float | None

    @property
    def gap(self) -> float | None:
        """``mean_predicted − observed_rate`` (positive: over-confident), ``None`` when empty."""
        if self.mean_predicted is None or self.observed_rate is None:
            return None
        return self.mean_predicted - self.observed_rate

    def to_dict(self) -> dict[str, Any]:
        """``{lower, upper, count, meanPredicted, observedRate}``."""
        return {
            "lower": self.lower,
            "upper": self.upper,
            "count": self.count,
            "meanPredicted": self.mean_predicted,
            "observedRate": self.observed_rate,
        }


@attrs.frozen
class ReliabilityTable:
    """Predictions grouped into equal-width probability bins.

    Attributes:
        bins: one :class:`ReliabilityBin` per bin, in increasing order, empty ones included.
        total: number of predictions.
        brier_score: the Brier score of all predictions.
        expected_calibration_error: the ECE over these bins.
    """

    bins: tuple[ReliabilityBin, ...]
    total: int
    brier_score: float
    expected_calibration_error: float

    def to_dict(self) -> dict[str, Any]:
        """``{total, brierScore, expectedCalibrationError, bins: [...]}``."""
        return {
            "total": self.total,
            "brierScore": self.brier_score,
            "expectedCalibrationError": self.expected_calibration_error,
            "bins": [item.to_dict() for item in self.bins],
        }


def _check_bins(bins: Any) -> int:
    if isinstance(bins, bool) or not isinstance(bins, int) or bins < 1:
        raise assay.AssayError("INVALID_CONFIG", f"must be an integer >= 1, got {bins!r}", "bins")
    return bins


def _bad_probability(value: Any) -> bool:
    if isinstance(value, bool | np.bool_) or not isinstance(
        value, int | float | np.integer | np.floating
    ):
        return True
    return not 0.0 <= value <= 1.0 or not math.isfinite(value)  # range first: no overflow


def _bad_outcome(value: Any) -> bool:
    return not isinstance(value, bool | int | float | np.bool_ | np.integer | np.floating) or (
        value not in (0, 1)
    )


_NUMBER_KINDS = {"probabilities": "fiu", "outcomes": "biuf"}
_PLAIN_TYPES = {"probabilities": (float, int), "outcomes": (bool, int, float)}


def _as_checked_array(values: Sequence[Any] | np.ndarray, name: str) -> np.ndarray:
    """``values`` as float64 after checking each one; vectorised for numeric arrays and lists
    of plain numbers, one by one (to name the first bad value) otherwise."""
    if (
        isinstance(values, np.ndarray)
        and values.ndim == 1
        and values.dtype.kind in _NUMBER_KINDS[name]
    ):
        array = values.astype(np.float64)
    else:
        if isinstance(values, str | bytes | Mapping) or not isinstance(values, Iterable):
            raise assay.AssayError(
                "INVALID_INPUT", f"must be an array, got {type(values).__name__}", name
            )
        items = list(values)
        plain = _PLAIN_TYPES[name]
        if all(type(item) in plain for item in items) and all(
            type(item) is not int or abs(item) <= 2**53 for item in items
        ):
            array = np.asarray(items, dtype=np.float64)
        else:
            check, wanted = (
                (_bad_probability, "a number in [0, 1]")
                if name == "probabilities"
                else (_bad_outcome, "0, 1, True or False")
            )
            for i, item in enumerate(items):
                if check(item):
                    raise assay.AssayError(
                        "INVALID_INPUT", f"must be {wanted}, got {item!r}", f"{name}[{i}]"
                    )
            array = np.asarray([float(item) for item in items], dtype=np.float64)
    if name == "probabilities":
        bad = ~(np.isfinite(array) & (array >= 0.0) & (array <= 1.0))
        wanted = "a number in [0, 1]"
    else:
        bad = ~((array == 0.0) | (array == 1.0))
        wanted = "0, 1, True or False"
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise assay.AssayError(
            "INVALID_INPUT", f"must be {wanted}, got {float(array[i])!r}", f"{name}[{i}]"
        )
    return array


def _validated(
    probabilities: Sequence[float] | np.ndarray, outcomes: Sequence[Any] | np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Both inputs as float arrays, after checking every value (probabilities first)."""
    probs = _as_checked_array(probabilities, "probabilities")
    if probs.size == 0:
        raise assay.AssayError("INVALID_INPUT", "needs at least one prediction", "probabilities")
    labels = _as_checked_array(outcomes, "outcomes")
    if labels.size != probs.size:
        raise assay.AssayError(
            "INVALID_INPUT",
            f"has {labels.size} values but probabilities has {probs.size}",
            "outcomes",
        )
    return probs, labels


def brier_score(
    probabilities: Sequence[float] | np.ndarray, outcomes: Sequence[Any] | np.ndarray
) -> float:
    """Mean squared difference between predicted probability and outcome (0 is perfect).

    :raises AssayError: ``INVALID_INPUT`` as described in the module docs.
    """
    probs, labels = _validated(probabilities, outcomes)
    return _brier(probs, labels)


def _brier(probs: np.ndarray, labels: np.ndarray) -> float:
    return float(np.mean((probs - labels) ** 2))


def reliability_table(
    probabilities: Sequence[float] | np.ndarray,
    outcomes: Sequence[Any] | np.ndarray,
    bins: int = 10,
) -> ReliabilityTable:
    """Group predictions into ``bins`` equal-width bins; see the module docs.

    :raises AssayError: ``INVALID_CONFIG`` for ``bins``, ``INVALID_INPUT`` for the data.
    """
    count = _check_bins(bins)
    probs, labels = _validated(probabilities, outcomes)
    index = np.minimum((probs * count).astype(np.int64), count - 1)
    counts = np.bincount(index, minlength=count)
    predicted_sums = np.bincount(index, weights=probs, minlength=count)
    positive_sums = np.bincount(index, weights=labels, minlength=count)
    rows = []
    gap_total = 0.0
    for j in range(count):
        n = int(counts[j])
        mean_predicted = float(predicted_sums[j] / n) if n else None
        observed_rate = float(positive_sums[j] / n) if n else None
        if n:
            gap_total += n * abs(float(predicted_sums[j] / n) - float(positive_sums[j] / n))
        rows.append(ReliabilityBin(j / count, (j + 1) / count, n, mean_predicted, observed_rate))
    total = int(probs.size)
    return ReliabilityTable(tuple(rows), total, _brier(probs, labels), gap_total / total)


def expected_calibration_error(
    probabilities: Sequence[float] | np.ndarray,
    outcomes: Sequence[Any] | np.ndarray,
    bins: int = 10,
) -> float:
    """Count-weighted mean ``|mean predicted − observed rate|`` over equal-width bins.

    :raises AssayError: ``INVALID_CONFIG`` for ``bins``, ``INVALID_INPUT`` for the data.
    """
    return reliability_table(probabilities, outcomes, bins).expected_calibration_error
