"""The combined Bayes factor over dimensions and its reading on the Jeffreys scale."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from assay_jeffreys.errors import INVALID_OBSERVATION, fail
from assay_jeffreys.likelihood import clamp_score, log_beta, log_binary_marginal_likelihood
from assay_jeffreys.scores import models_from_wire, to_score_map
from assay_jeffreys.types import BayesFactorResult, DimensionContribution, DimensionModel

__all__ = [
    "JEFFREYS_BOUNDARIES",
    "STRENGTHS",
    "bayes_factor",
    "binary_bayes_factor",
    "favored_hypothesis",
    "jeffreys_strength",
    "safe_exp",
]

JEFFREYS_BOUNDARIES = (3.0, 10.0, 100.0)
"""Bayes factors separating substantial, strong and decisive evidence (and their reciprocals)."""

STRENGTHS = (
    "decisive-low",
    "strong-low",
    "substantial-low",
    "inconclusive",
    "substantial-high",
    "strong-high",
    "decisive-high",
)
"""The seven Jeffreys categories, from most against to most in favour of high quality."""

_LOG_HIGH = tuple(math.log(b) for b in JEFFREYS_BOUNDARIES)
_LOG_LOW = tuple(math.log(1.0 / b) for b in JEFFREYS_BOUNDARIES)


def jeffreys_strength(log_bayes_factor: float) -> str:
    """The Jeffreys category of a natural-log Bayes factor.

    With ``BF = exp(log_bayes_factor)``: ``BF >= 100`` decisive-high, ``>= 10`` strong-high,
    ``>= 3`` substantial-high, ``BF <= 1/100`` decisive-low, ``<= 1/10`` strong-low,
    ``<= 1/3`` substantial-low, otherwise inconclusive. A boundary value belongs to the
    stronger category. Compared in log space against ``ln 3, ln 10, ln 100`` and
    ``ln(1/3), ln(1/10), ln(1/100)`` (the logs of the floating-point reciprocals, so
    ``jeffreys_strength(math.log(0.1))`` is strong-low). NaN is inconclusive.
    """
    if log_bayes_factor > 0:
        for boundary, name in zip(
            reversed(_LOG_HIGH), ("decisive", "strong", "substantial"), strict=True
        ):
            if log_bayes_factor >= boundary:
                return f"{name}-high"
    elif log_bayes_factor < 0:
        for boundary, name in zip(
            reversed(_LOG_LOW), ("decisive", "strong", "substantial"), strict=True
        ):
            if log_bayes_factor <= boundary:
                return f"{name}-low"
    return "inconclusive"


def favored_hypothesis(strength: str) -> str:
    """``"high"``, ``"low"`` or ``"inconclusive"`` for a Jeffreys category."""
    return strength.rsplit("-", 1)[-1] if strength != "inconclusive" else "inconclusive"


def safe_exp(value: float) -> float:
    """``exp(value)``, ``inf`` instead of an overflow error."""
    try:
        return math.exp(value)
    except OverflowError:
        return math.inf


def bayes_factor(scores: Any, models: Sequence[DimensionModel]) -> BayesFactorResult:
    """The combined log Bayes factor in favour of high quality, and its interpretation.

    Sums, over the models whose dimension has a score, ``weight * (log Beta_high(x) -
    log Beta_low(x))`` with ``x`` clamped inward. Dimensions scored but not modeled, or modeled
    but not scored, are ignored; with no overlap the log Bayes factor is 0 (inconclusive) and
    ``contributions`` is empty.

    :raises AssayError: ``INVALID_SCORE`` for bad scores.
    """
    values = to_score_map(scores)
    contributions = []
    total = 0.0
    for model in models:
        if model.dimension not in values:
            continue
        x = values[model.dimension]
        clamped = clamp_score(x)
        high, low = model.high, model.low
        # log Beta_high(x) - log Beta_low(x), with the shared logs taken once
        log_bf = model.weight * (
            (high.a - low.a) * math.log(clamped)
            + (high.b - low.b) * math.log1p(-clamped)
            - log_beta(high.a, high.b)
            + log_beta(low.a, low.b)
        )
        total += log_bf
        contributions.append(DimensionContribution(model.dimension, x, log_bf, model.weight))
    strength = jeffreys_strength(total)
    return BayesFactorResult(
        total, safe_exp(total), favored_hypothesis(strength), strength, contributions
    )


def binary_bayes_factor(
    outcomes: Mapping[str, tuple[int, int]], models: Sequence[DimensionModel]
) -> BayesFactorResult:
    """The Bayes factor of binary pass / fail outcomes (the second mode of bayesoutputgate).

    ``outcomes`` maps a dimension to ``(successes, trials)``, e.g. 7 of 9 checks passed. Under
    each hypothesis the pass rate has that hypothesis's Beta as prior, so the evidence of a
    dimension is the ratio of Beta-Binomial marginal likelihoods (the binomial coefficient
    cancels): ``w * (ln BB(k; n, a_high, b_high) - ln BB(k; n, a_low, b_low))``. Contributions
    report ``k / n`` as the score (0 when ``n == 0``, which contributes nothing). A policy
    decides on the result like on :func:`bayes_factor`'s.

    :raises AssayError: ``INVALID_OBSERVATION`` unless each pair is two integers with
        ``0 <= successes <= trials``.
    """
    if not isinstance(outcomes, Mapping):
        fail(
            INVALID_OBSERVATION, "outcomes must map a dimension to (successes, trials)", "outcomes"
        )
    models = models_from_wire(models)
    contributions = []
    total = 0.0
    for model in models:
        if model.dimension not in outcomes:
            continue
        pair = outcomes[model.dimension]
        if not isinstance(pair, tuple | list) or len(pair) != 2:
            fail(INVALID_OBSERVATION, "expected (successes, trials)", f"outcomes.{model.dimension}")
        k, n = pair
        for name, value in (("successes", k), ("trials", n)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                fail(
                    INVALID_OBSERVATION,
                    f"{name} must be a non-negative integer",
                    f"outcomes.{model.dimension}",
                )
            if value > 2**53:
                fail(
                    INVALID_OBSERVATION,
                    f"{name} is too large (over 2**53)",
                    f"outcomes.{model.dimension}",
                )
        log_bf = model.weight * (
            log_binary_marginal_likelihood(k, n, model.high)
            - log_binary_marginal_likelihood(k, n, model.low)
        )
        total += log_bf
        contributions.append(
            DimensionContribution(model.dimension, k / n if n else 0.0, log_bf, model.weight)
        )
    strength = jeffreys_strength(total)
    return BayesFactorResult(
        total, safe_exp(total), favored_hypothesis(strength), strength, contributions
    )
