"""Deciding many outputs at once: an ``(n, d)`` numpy array of scores in, arrays out.

The per-dimension log Bayes factor is linear in ``log x`` and ``log(1 - x)``::

    w * [(a_h - a_l) log x + (b_h - b_l) log(1 - x) - ln B(a_h, b_h) + ln B(a_l, b_l)]

so a whole batch is two matrix-vector products plus a constant, with the same inward clamp as
the scalar path. Missing scores are ``NaN`` and contribute nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from assay_jeffreys.errors import INVALID_CONFIG, INVALID_DIMENSION, INVALID_SCORE, fail
from assay_jeffreys.likelihood import SCORE_EPSILON
from assay_jeffreys.policies import resolve_policy
from assay_jeffreys.scores import models_from_wire
from assay_jeffreys.types import ACTIONS, DimensionModel, GateGuards

__all__ = [
    "BatchDecisions",
    "batch_log_bayes_factors",
    "checked_score_matrix",
    "decide_batch",
    "decide_log_bayes_factors",
]


@attrs.frozen(eq=False)
class BatchDecisions:
    """Decisions on ``n`` outputs.

    Attributes:
        codes: ``int8`` array of action codes, 0 pass, 1 fail, 2 escalate.
        log_bayes_factors: ``float64`` array of combined natural-log Bayes factors.
        matched: ``int`` array, how many modeled dimensions each row scored.
        rationale: ``"bayes-factor"``, ``"expected-loss"``, ``"assumption-violated"`` or
            ``"insufficient-history"`` (one for the whole batch: the guards and the history
            concern the calibration, not a row).
    """

    codes: np.ndarray
    log_bayes_factors: np.ndarray
    matched: np.ndarray
    rationale: str

    @property
    def actions(self) -> list[str]:
        """The actions as strings, row by row."""
        return [ACTIONS[c] for c in self.codes.tolist()]

    def counts(self) -> dict[str, int]:
        """``{"pass": n1, "fail": n2, "escalate": n3}``."""
        counts = np.bincount(self.codes, minlength=3)
        return {action: int(counts[i]) for i, action in enumerate(ACTIONS)}


def _coefficients(
    dimensions: Sequence[str], models: Sequence[DimensionModel]
) -> tuple[np.ndarray, ...]:
    from scipy.special import betaln

    by_name = {m.dimension: m for m in models}
    unknown = [d for d in dimensions if d not in by_name]
    if unknown:
        fail(INVALID_DIMENSION, f"no model for dimension(s) {', '.join(unknown)}", "dimensions")
    chosen = [by_name[d] for d in dimensions]
    w = np.array([m.weight for m in chosen])
    ah, bh = np.array([m.high.a for m in chosen]), np.array([m.high.b for m in chosen])
    al, bl = np.array([m.low.a for m in chosen]), np.array([m.low.b for m in chosen])
    coef_log_x = w * (ah - al)
    coef_log_1mx = w * (bh - bl)
    constants = w * (betaln(al, bl) - betaln(ah, bh))
    return coef_log_x, coef_log_1mx, constants


def checked_score_matrix(scores: Any, dimensions: Sequence[str]) -> np.ndarray:
    """``scores`` as a float64 ``(n, len(dimensions))`` array, checked: column ``j`` holds
    scores of ``dimensions[j]``, ``NaN`` marks a missing score.

    :raises AssayError: ``INVALID_DIMENSION`` for a dimension that is not a non-empty string;
        ``INVALID_SCORE`` for a wrong shape, an infinite value or a value outside [0, 1].
    """
    if isinstance(dimensions, str | bytes) or not isinstance(dimensions, Sequence):
        fail(INVALID_DIMENSION, "dimensions must be an array of dimension names", "dimensions")
    for i, name in enumerate(dimensions):
        if not isinstance(name, str) or not name:
            fail(
                INVALID_DIMENSION,
                f"a dimension must be a non-empty string, got {name!r}",
                f"dimensions[{i}]",
            )
    try:
        x = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        fail(INVALID_SCORE, "scores must be an (n, d) array of numbers", "scores")
    if x.ndim != 2 or x.shape[1] != len(dimensions):
        fail(
            INVALID_SCORE, f"scores must have shape (n, {len(dimensions)}), got {x.shape}", "scores"
        )
    missing = np.isnan(x)
    if x.size and not missing.all():
        low, high = (np.nanmin(x), np.nanmax(x)) if missing.any() else (x.min(), x.max())
        if not (low >= 0.0 and high <= 1.0):  # also refuses infinities
            fail(
                INVALID_SCORE,
                "every score must be finite and in [0, 1] (NaN marks a missing one)",
                "scores",
            )
    return x


def batch_log_bayes_factors(
    scores: Any, dimensions: Sequence[str], models: Sequence[DimensionModel]
) -> tuple[np.ndarray, np.ndarray]:
    """Combined log Bayes factors of each row of ``scores`` and how many dimensions it scored.

    :param scores: array-like of shape ``(n, d)``: column ``j`` holds scores of
        ``dimensions[j]``; ``NaN`` marks a missing score.
    :param dimensions: the column names; each must have a model.
    :param models: the dimension models.
    :raises AssayError: as :func:`checked_score_matrix`; ``INVALID_DIMENSION`` for a column
        without a model.
    """
    x = checked_score_matrix(scores, dimensions)
    coef_log_x, coef_log_1mx, constants = _coefficients(list(dimensions), models_from_wire(models))
    missing = np.isnan(x)
    has_missing = bool(missing.any())
    clamped = np.clip(x, SCORE_EPSILON, 1.0 - SCORE_EPSILON)
    log_1mx = np.subtract(1.0, clamped)  # rounds by <= half an ulp: log within ~1e-16
    np.log(log_1mx, out=log_1mx)
    log_x = np.log(clamped, out=clamped)
    if has_missing:
        log_x[missing] = 0.0  # a missing score contributes nothing
        log_1mx[missing] = 0.0
        log_bf = log_x @ coef_log_x + log_1mx @ coef_log_1mx + (~missing) @ constants
        matched = (~missing).sum(axis=1)
    else:
        log_bf = log_x @ coef_log_x
        log_bf += log_1mx @ coef_log_1mx
        log_bf += constants.sum()
        matched = np.full(x.shape[0], x.shape[1])
    return log_bf, matched


def decide_batch(
    scores: Any,
    dimensions: Sequence[str],
    models: Sequence[DimensionModel],
    policy: Any,
    guards: GateGuards | None = None,
) -> BatchDecisions:
    """Decide every row of an ``(n, d)`` score array under ``policy``.

    Agrees row by row with :func:`~assay_jeffreys.evaluate` (same clamp, same boundaries; the
    log Bayes factor to floating-point rounding). A row that scores no modeled dimension has a
    log Bayes factor of 0 and is escalated. A failing required assumption escalates every row
    with rationale ``"assumption-violated"``.

    :param policy: a :class:`~assay_jeffreys.BayesFactorPolicy` or
        :class:`~assay_jeffreys.DecisionTheoreticPolicy` (or its config mapping).
    :raises AssayError: as :func:`batch_log_bayes_factors`; ``INVALID_CONFIG`` for a policy
        without a vectorised path.
    """
    log_bf, matched = batch_log_bayes_factors(scores, dimensions, models)
    return decide_log_bayes_factors(log_bf, matched, policy, guards)


def decide_log_bayes_factors(
    log_bayes_factors: np.ndarray,
    matched: np.ndarray,
    policy: Any,
    guards: GateGuards | None = None,
    insufficient_history: bool = False,
) -> BatchDecisions:
    """The policy's action codes for computed log Bayes factors, with the gate's overrides: a
    row that matched no dimension escalates; insufficient history escalates every row with
    rationale ``"insufficient-history"``, else a failing required assumption every row with
    ``"assumption-violated"``.

    :raises AssayError: ``INVALID_CONFIG`` for a policy without a vectorised path.
    """
    resolved = resolve_policy(policy)
    if not hasattr(resolved, "decide_codes"):
        fail(INVALID_CONFIG, f"policy {resolved!r} has no vectorised decide_codes", "policy")
    codes = resolved.decide_codes(log_bayes_factors)
    codes[matched == 0] = 2
    rationale = resolved.rationale
    if insufficient_history:
        codes[:] = 2
        rationale = "insufficient-history"
    elif guards is not None and guards.violated():
        codes[:] = 2
        rationale = "assumption-violated"
    return BatchDecisions(codes, log_bayes_factors, matched, rationale)
