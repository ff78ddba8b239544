"""Reproducible posterior-predictive draws from the calibrated models.

Every draw comes from ``numpy.random.Generator(PCG64(n))`` for a given integer ``n``: the same
integer gives the same numbers on every machine and every run, so any sampling in a decision
trail can be replayed.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from assay_jeffreys.errors import INVALID_CONFIG, fail
from assay_jeffreys.types import BetaParams, DimensionModel, check_hypothesis

__all__ = ["make_generator", "sample_beta", "sample_score_matrix"]


def make_generator(seed: int) -> np.random.Generator:
    """A PCG64 generator started from the non-negative integer ``seed``.

    :raises AssayError: ``INVALID_CONFIG`` for another value.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        fail(INVALID_CONFIG, f"must be a non-negative integer, got {seed!r}", "seed")
    return np.random.Generator(np.random.PCG64(seed))


def sample_beta(params: BetaParams, size: int, seed: int) -> np.ndarray:
    """``size`` draws from Beta(``params``), the generator started from ``seed``."""
    return make_generator(seed).beta(params.a, params.b, size=size)


def sample_score_matrix(
    models: Sequence[DimensionModel], kind: str, size: int, seed: int
) -> np.ndarray:
    """Posterior-predictive score vectors: an ``(size, len(models))`` array whose column ``j``
    is drawn from ``models[j]``'s Beta under hypothesis ``kind``, all from one generator
    started from ``seed``.

    :raises AssayError: ``INVALID_HYPOTHESIS`` for ``kind``; ``INVALID_CONFIG`` for ``seed``.
    """
    check_hypothesis(kind, "kind")
    rng = make_generator(seed)
    columns = []
    for model in models:
        params = model.high if kind == "high" else model.low
        columns.append(rng.beta(params.a, params.b, size=size))
    return np.column_stack(columns) if columns else np.empty((size, 0))
