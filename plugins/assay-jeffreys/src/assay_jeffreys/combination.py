"""Combining per-dimension evidence without counting correlated dimensions twice.

BayesOutputGate adds the dimensions' log likelihood ratios as if the dimensions were
independent given the label. When they are not (two metrics reading the same words, a
dimension that mostly restates another) the sum counts the shared evidence once per dimension
and the Bayes factor grows far past what the data support.

The calibrated combination keeps the form of a log Bayes factor, a weighted sum of the
dimensions' log likelihood ratios, and learns the weights from labeled history instead of
assuming 1:

    ln BF = b + sum_d w_d * ln LR_d(x_d),    w_d >= 0

The weights and the offset ``b`` maximise the penalised likelihood of the labels under
``P(high | x) = logistic(ln(prior odds) + ln BF)``, where the prior odds are the history's share
of high over low: that is the condition under which ``BF`` is a likelihood ratio, so the
posterior it gives at any base rate is calibrated on data like the history. Two correlated
dimensions share one weight's worth of evidence between them; a redundant one gets a weight
near 0. The weights are never negative, so a dimension's evidence is shrunk, never reversed.

The penalty is a Gaussian prior of standard deviation 1 on each weight and on ``b``
(:data:`PENALTY`): a weight of 1, the independent sum, is one standard deviation from 0, and
with little history the prior pulls the evidence toward 0 (escalate), not toward confidence.

The log likelihood ratios the weights are learned on must come from models that did not see
the observation (otherwise a flexible model's in-sample ratios are too good and the weights
come out too large): the history is cross-fitted, see :func:`fold_of`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["DEFAULT_FOLDS", "PENALTY", "fit_weights", "fold_of"]

DEFAULT_FOLDS = 5
"""Cross-fitting folds: each held-back part is a fifth of the history, each fit four fifths."""

PENALTY = 1.0
"""Precision of the Gaussian prior on each weight and on the offset (standard deviation 1)."""

_MAX_ITERATIONS = 100
_TOLERANCE = 1e-10


def fold_of(index: int, folds: int = DEFAULT_FOLDS) -> int:
    """The held-back fold of the history's observation ``index`` (0-based, in history order):
    ``index mod folds``. Deterministic, and every fold mixes early and late history."""
    return index % folds


def _objective(theta: np.ndarray, design: np.ndarray, labels: np.ndarray, offset: float) -> float:
    import numpy as np

    z = offset + design @ theta
    return float(np.sum(np.logaddexp(0.0, z) - labels * z) + 0.5 * PENALTY * theta @ theta)


def fit_weights(
    evidence: np.ndarray, labels: np.ndarray, prior_log_odds: float
) -> tuple[np.ndarray, float]:
    """Non-negative weights and an offset for the columns of ``evidence`` (see module doc).

    Projected Newton iterations from the independent sum (every weight 1, offset 0): a weight
    at 0 whose gradient pushes it below stays at 0; each step is halved until the penalised
    objective decreases. Stops when no parameter moves by more than 1e-10 (or after 100
    iterations). Deterministic: no random start, no stochastic steps.

    :param evidence: ``(n, d)`` log likelihood ratios of held-back observations (0 for a
        missing score).
    :param labels: ``(n,)`` 1 for high, 0 for low.
    :param prior_log_odds: ``ln(high / low)`` of the history the evidence came from.
    :return: the ``d`` weights and the offset.
    """
    import numpy as np

    n, d = evidence.shape
    design = np.hstack([evidence, np.ones((n, 1))])
    theta = np.concatenate([np.ones(d), [0.0]])
    current = _objective(theta, design, labels, prior_log_odds)
    for _ in range(_MAX_ITERATIONS):
        z = prior_log_odds + design @ theta
        p = 0.5 * (1.0 + np.tanh(0.5 * z))  # logistic(z), without overflow
        gradient = design.T @ (p - labels) + PENALTY * theta
        hessian = (design * (p * (1.0 - p))[:, None]).T @ design + PENALTY * np.eye(d + 1)
        free = np.ones(d + 1, dtype=bool)
        free[:d] = ~((theta[:d] <= 0.0) & (gradient[:d] > 0.0))
        step = np.zeros(d + 1)
        step[free] = np.linalg.solve(hessian[np.ix_(free, free)], gradient[free])
        size = 1.0
        while True:
            candidate = theta - size * step
            candidate[:d] = np.maximum(candidate[:d], 0.0)
            value = _objective(candidate, design, labels, prior_log_odds)
            if value <= current or size < 1e-12:
                break
            size *= 0.5
        moved = float(np.max(np.abs(candidate - theta)))
        theta, current = candidate, value
        if moved <= _TOLERANCE or not math.isfinite(current):
            break
    return theta[:d], float(theta[d])
