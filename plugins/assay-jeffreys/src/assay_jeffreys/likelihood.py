"""Closed-form likelihoods: the Beta log-density of a score and the Beta-Binomial marginal.

Special functions come from :mod:`scipy.special` (``betaln``, ``gammaln``), imported when a
function first runs, not when the plugin loads.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import attrs

from assay_jeffreys.errors import INVALID_OBSERVATION, fail
from assay_jeffreys.scores import to_score_map
from assay_jeffreys.types import BetaParams, DimensionModel, check_hypothesis

__all__ = [
    "SCORE_EPSILON",
    "VectorLikelihood",
    "clamp_score",
    "log_beta",
    "log_binary_marginal_likelihood",
    "log_score_likelihood",
    "log_vector_likelihood",
]

SCORE_EPSILON = 1e-6
"""Scores are clamped into ``[SCORE_EPSILON, 1 - SCORE_EPSILON]`` before taking a log-density,
so a score of exactly 0 or 1 never yields an infinite log Bayes factor."""


_UPPER = 1.0 - SCORE_EPSILON


def clamp_score(value: float) -> float:
    """``value`` moved inward to ``[SCORE_EPSILON, 1 - SCORE_EPSILON]``."""
    if value < SCORE_EPSILON:
        return SCORE_EPSILON
    return _UPPER if value > _UPPER else value


@functools.lru_cache(maxsize=4096)
def log_beta(a: float, b: float) -> float:
    """``ln B(a, b)`` by ``scipy.special.betaln``, cached: a calibrated model's normalizing
    constant is computed once, not once per scored output."""
    from scipy.special import betaln

    return float(betaln(a, b))


def log_score_likelihood(score: float, params: BetaParams) -> float:
    """The Beta(a, b) log-density at ``score`` (clamped inward, see :data:`SCORE_EPSILON`).

    ``(a - 1) log x + (b - 1) log(1 - x) - ln B(a, b)``; equals ``scipy.stats.beta.logpdf``
    for ``x`` inside the clamp.
    """
    x = clamp_score(score)
    a, b = params.a, params.b
    return (a - 1.0) * math.log(x) + (b - 1.0) * math.log1p(-x) - log_beta(a, b)


def log_binary_marginal_likelihood(successes: int, trials: int, params: BetaParams) -> float:
    """The Beta-Binomial log-probability of ``successes`` passes in ``trials`` binary outcomes
    whose pass rate has the prior ``params``:
    ``ln C(n, k) + ln B(k + a, n - k + b) - ln B(a, b)`` (``scipy.stats.betabinom.logpmf``).

    The log-probability of one particular ordered sequence with ``k`` passes is this minus
    ``ln C(n, k)``.

    :raises AssayError: ``INVALID_OBSERVATION`` unless ``0 <= successes <= trials`` are integers.
    """
    from scipy.special import betaln, gammaln

    for name, value in (("successes", successes), ("trials", trials)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            fail(INVALID_OBSERVATION, f"{name} must be a non-negative integer", name)
    if successes > trials:
        fail(INVALID_OBSERVATION, "successes cannot exceed trials", "successes")
    n, k = trials, successes
    log_choose = float(gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1))
    return log_choose + float(betaln(k + params.a, n - k + params.b) - betaln(params.a, params.b))


@attrs.frozen
class VectorLikelihood:
    """The weighted log-likelihood of a score vector under one hypothesis.

    Attributes:
        log_likelihood: the sum over matched dimensions of ``weight * log-density``.
        matched: how many dimensions had both a score and a model (0 means the output scored
            no modeled dimension).
    """

    log_likelihood: float
    matched: int


def log_vector_likelihood(
    scores: Any, models: Sequence[DimensionModel], kind: str
) -> VectorLikelihood:
    """Weighted log-density of ``scores`` under hypothesis ``kind`` (``"high"`` / ``"low"``).

    :raises AssayError: ``INVALID_SCORE`` for bad scores; ``INVALID_HYPOTHESIS`` for ``kind``.
    """
    check_hypothesis(kind, "kind")
    values = to_score_map(scores)
    total, matched = 0.0, 0
    for model in models:
        if model.dimension in values:
            params = model.high if kind == "high" else model.low
            total += model.weight * log_score_likelihood(values[model.dimension], params)
            matched += 1
    return VectorLikelihood(total, matched)
