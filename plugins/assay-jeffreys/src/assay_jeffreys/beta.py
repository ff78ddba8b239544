"""The calibrated, online-updatable Beta model both hypotheses share.

Fit by the method of moments over the data pooled with a prior Beta treated as ``a0 + b0``
pseudo-observations that carry the prior's own mean and variance. The model keeps only
sufficient statistics (count, sum, sum of squares), so it updates online in O(1), a cold model
returns its prior exactly, and a warm one is driven by its data.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from assay import AssayError
from assay_jeffreys.errors import INVALID_OBSERVATION, INVALID_SNAPSHOT, NUMERIC, fail
from assay_jeffreys.types import BetaParams, finite

__all__ = ["BetaModel"]


class BetaModel:
    """A Beta distribution over scores in [0, 1], regularized by a prior, updated online.

    :param prior: the prior Beta (default Beta(1, 1)); it counts as ``a + b``
        pseudo-observations.

    Invariants: ``params`` is a valid :class:`BetaParams` (``NUMERIC`` is raised by the update
    that would break that, and the model is left unchanged); ``count``, ``total`` and
    ``total_squares`` are the sufficient statistics of the observed scores.
    """

    __slots__ = ("_params", "count", "prior", "total", "total_squares")

    def __init__(self, prior: BetaParams | None = None) -> None:
        self.prior = prior or BetaParams(1.0, 1.0)
        self.count = 0
        self.total = 0.0
        self.total_squares = 0.0
        self._params = self.prior

    @property
    def params(self) -> BetaParams:
        """The current fitted parameters (the prior when nothing was observed)."""
        return self._params

    def observe(self, value: float) -> BetaModel:
        """Fold one score in [0, 1] into the fit; returns ``self``.

        :raises AssayError: ``INVALID_OBSERVATION`` for a value outside [0, 1] or non-finite;
            ``NUMERIC`` when the refit is not finite and positive.
        """
        if isinstance(value, bool) or not isinstance(value, int | float):
            fail(INVALID_OBSERVATION, f"a score must be a number, got {value!r}", "value")
        if not (finite(value) and 0.0 <= value <= 1.0):
            fail(INVALID_OBSERVATION, f"a score must be in [0, 1], got {value!r}", "value")
        self._update(self.count + 1, self.total + value, self.total_squares + value * value)
        return self

    def observe_many(self, values: Iterable[float]) -> BetaModel:
        """:meth:`observe` each value in turn; returns ``self``."""
        for value in values:
            self.observe(value)
        return self

    def _update(self, count: int, total: float, total_squares: float) -> None:
        self._params = self._fit(count, total, total_squares)
        self.count, self.total, self.total_squares = count, total, total_squares

    def _fit(self, count: int, total: float, total_squares: float) -> BetaParams:
        if count == 0:
            return self.prior
        a0, b0 = self.prior.a, self.prior.b
        n0 = a0 + b0
        m0 = a0 / n0
        v0 = m0 * (1.0 - m0) / (n0 + 1.0)  # = a0 b0 / (n0^2 (n0 + 1)), without underflow
        n = n0 + count
        mean = (n0 * m0 + total) / n
        second = (n0 * (v0 + m0 * m0) + total_squares) / n
        variance = second - mean * mean
        if not (variance > 0.0) or not math.isfinite(variance):
            fail(NUMERIC, f"pooled variance {variance!r} is not positive", "variance")
        try:
            concentration = mean * (1.0 - mean) / variance - 1.0
        except (ZeroDivisionError, OverflowError):
            fail(NUMERIC, f"pooled variance {variance!r} is not usable", "variance")
        a, b = mean * concentration, (1.0 - mean) * concentration
        if not (math.isfinite(a) and math.isfinite(b) and a > 0.0 and b > 0.0):
            fail(NUMERIC, f"method-of-moments fit gave a={a!r}, b={b!r}", "params")
        return BetaParams(a, b)

    def snapshot(self) -> dict[str, Any]:
        """JSON-safe state: ``{"prior": {a, b}, "count", "sum", "sumSquares"}``."""
        return {
            "prior": {"a": self.prior.a, "b": self.prior.b},
            "count": self.count,
            "sum": self.total,
            "sumSquares": self.total_squares,
        }

    @classmethod
    def from_snapshot(cls, data: Any, path: str = "snapshot") -> BetaModel:
        """Rebuild a model from :meth:`snapshot` output.

        :raises AssayError: ``INVALID_SNAPSHOT`` when a field is missing, mistyped or
            inconsistent (negative count, sums outside what ``count`` scores in [0, 1] allow).
        """
        if not isinstance(data, Mapping):
            fail(INVALID_SNAPSHOT, "a Beta snapshot must be an object", path)
        prior = data.get("prior")
        try:
            model = cls(BetaParams(prior["a"], prior["b"]))  # type: ignore[index]
        except (AssayError, TypeError, KeyError) as exc:
            fail(INVALID_SNAPSHOT, f"bad prior: {getattr(exc, 'message', exc)}", f"{path}.prior")
        count, total, squares = data.get("count"), data.get("sum"), data.get("sumSquares")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            fail(INVALID_SNAPSHOT, "count must be a non-negative integer", f"{path}.count")
        for key, value in (("sum", total), ("sumSquares", squares)):
            if isinstance(value, bool) or not isinstance(value, int | float):
                fail(INVALID_SNAPSHOT, f"{key} must be a number", f"{path}.{key}")
            if not (finite(value) and 0.0 <= value <= count):
                fail(INVALID_SNAPSHOT, f"{key} must be in [0, count]", f"{path}.{key}")
        if squares > total + 1e-9:  # type: ignore[operator]
            fail(INVALID_SNAPSHOT, "sumSquares cannot exceed sum for scores in [0, 1]", path)
        try:
            model._update(count, float(total), float(squares))  # type: ignore[arg-type]
        except (AssayError, TypeError, KeyError) as exc:
            fail(INVALID_SNAPSHOT, f"inconsistent statistics: {exc}", path)
        return model

    def restore(self, snapshot: Mapping[str, Any]) -> None:
        """Put this model back to a :meth:`snapshot` it produced (same prior)."""
        self._update(snapshot["count"], snapshot["sum"], snapshot["sumSquares"])

    def __repr__(self) -> str:
        p = self._params
        return f"BetaModel(a={p.a:.6g}, b={p.b:.6g}, count={self.count})"
