"""Decision calibration: do the gate's posterior probabilities match what happened?

Measured with :mod:`assay_calibration.probability` (Brier score, expected calibration error,
reliability table), the project's one implementation of those measures.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

__all__ = ["DecisionCalibration", "decision_calibration"]


@attrs.frozen
class DecisionCalibration:
    """How well posterior probabilities of high quality match labeled outcomes.

    Attributes:
        brier_score: mean squared gap between probability and outcome (0 is perfect).
        expected_calibration_error: count-weighted mean gap per bin (0 is perfect).
        reliability: the :class:`assay_calibration.probability.ReliabilityTable` as its JSON
            dict (bins with count, mean predicted, observed rate).
        samples: the number of predictions.
    """

    brier_score: float
    expected_calibration_error: float
    reliability: dict[str, Any]
    samples: int


def decision_calibration(
    probabilities: Sequence[float], outcomes: Sequence[Any], bins: int = 10
) -> DecisionCalibration:
    """Measure calibration of ``probabilities`` (posterior of high quality) against
    ``outcomes`` (1 / ``True`` / ``"high"`` for high quality, 0 / ``False`` / ``"low"``).

    :raises AssayError: ``INVALID_HYPOTHESIS`` for another outcome label; otherwise as
        :mod:`assay_calibration.probability` (``INVALID_INPUT``, ``INVALID_CONFIG``).
    """
    from assay_calibration.probability import reliability_table
    from assay_jeffreys.types import check_hypothesis

    labels = [
        (check_hypothesis(o, f"outcomes[{i}]") == "high") if isinstance(o, str) else o
        for i, o in enumerate(outcomes)
    ]
    table = reliability_table(probabilities, labels, bins)
    return DecisionCalibration(
        table.brier_score, table.expected_calibration_error, table.to_dict(), table.total
    )
