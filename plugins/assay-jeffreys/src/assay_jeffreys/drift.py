"""The monitor's default drift detector: a Page–Hinkley test in units of the stream's spread.

A Page–Hinkley test with an absolute allowance and threshold suits one spread of scores only:
tuned for a tight stream it fires on a stationary stream twice as spread out, just by chance.
:class:`ScaledPageHinkley` learns the stream's level and spread first, then watches it:

1. **Warm-up**: the first ``min_samples`` values give the level (their mean) and the scale
   (their sample standard deviation, at least ``min_scale`` so that a nearly constant stream
   does not turn every small move into many standard deviations).
2. **Watch**: each value, clipped to ``level ± clip · scale`` (one outlying score moves the
   statistic by at most ``clip`` standard deviations), feeds an
   :class:`assay_calibration.drift.PageHinkley` whose allowance is ``allowance · scale`` and
   threshold ``threshold · scale``; the warm-up values are its first values.
3. **After an alert**: the detector forgets the level and scale and warms up again on the next
   ``min_samples`` values (the new level, with its own spread).

Everything is deterministic: the same values give the same alerts, and :meth:`snapshot` /
:meth:`from_snapshot` resume exactly.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from assay_calibration.drift import DriftEvent, PageHinkley
from assay_jeffreys.errors import INVALID_CONFIG, INVALID_SNAPSHOT, fail

__all__ = ["ScaledPageHinkley"]

_INVALID_INPUT = "INVALID_INPUT"


def _number(name: str, value: Any, least: float, *, strict: bool = False) -> float:
    """A finite number at or above ``least`` (above it when ``strict``)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or value < least
        or (strict and value == least)
    ):
        bound = f"> {least:g}" if strict else f">= {least:g}"
        fail(INVALID_CONFIG, f"must be a finite number {bound}, got {value!r}", name)
    return float(value)


class ScaledPageHinkley:
    """Page–Hinkley with its allowance and threshold in standard deviations of the stream.

    :param allowance: deviations smaller than this many standard deviations do not accumulate.
    :param threshold: fire when the statistic exceeds this many standard deviations.
    :param clip: each value is clipped to the warm-up level plus or minus this many standard
        deviations before it is watched.
    :param min_samples: values of warm-up (level and scale), and the fewest values since the
        last (re)start before it may fire.
    :param min_scale: the smallest scale used, in the units of the values.
    :param direction: ``"both"``, ``"increase"`` or ``"decrease"``.
    :raises AssayError: ``INVALID_CONFIG`` naming a bad parameter.
    """

    name = "scaled_page_hinkley"

    def __init__(
        self,
        allowance: float = 0.5,
        threshold: float = 10.0,
        clip: float = 2.0,
        min_samples: int = 30,
        min_scale: float = 0.05,
        direction: str = "both",
    ) -> None:
        self.allowance = _number("allowance", allowance, 0.0)
        self.threshold = _number("threshold", threshold, 0.0, strict=True)
        self.clip = _number("clip", clip, 0.0, strict=True)
        self.min_scale = _number("minScale", min_scale, 0.0, strict=True)
        if isinstance(min_samples, bool) or not isinstance(min_samples, int) or min_samples < 2:
            fail(INVALID_CONFIG, f"must be an integer >= 2, got {min_samples!r}", "minSamples")
        if direction not in ("both", "increase", "decrease"):
            fail(
                INVALID_CONFIG,
                f"must be both, increase or decrease, got {direction!r}",
                "direction",
            )
        self.min_samples, self.direction = min_samples, direction
        self._index = 0
        self._restart()

    def _restart(self) -> None:
        self._warm: list[float] = []
        self._level: float | None = None
        self._scale: float | None = None
        self._inner: PageHinkley | None = None

    @property
    def scale(self) -> float | None:
        """The standard deviation the detector works in (``None`` while warming up)."""
        return self._scale

    def _clipped(self, value: float) -> float:
        assert self._level is not None and self._scale is not None
        bound = self.clip * self._scale
        return min(max(value, self._level - bound), self._level + bound)

    def update(self, x: float) -> DriftEvent | None:
        """Feed one value; return the event when the detector fires on it, else ``None``.

        The event is in the units of the values (statistic, threshold and ``mean_before``, the
        mean of the clipped values before the change); ``index`` counts every value fed.

        :raises AssayError: ``INVALID_INPUT`` (path ``x``) when ``x`` is not a finite number.
        """
        if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x):
            fail(_INVALID_INPUT, f"must be a finite number, got {x!r}", "x")
        value = float(x)
        index = self._index
        self._index += 1
        if self._inner is None:
            self._warm.append(value)
            if len(self._warm) < self.min_samples:
                return None
            event = self._start_watching()
        else:
            event = self._inner.update(self._clipped(value))
        if event is None:
            return None
        self._restart()
        return DriftEvent(
            self.name,
            index,
            event.statistic,
            event.threshold,
            event.direction,
            event.mean_before,
        )

    def _start_watching(self) -> DriftEvent | None:
        """Learn the level and scale from the warm-up and feed it to a new test."""
        n = len(self._warm)
        level = sum(self._warm) / n
        spread = math.sqrt(sum((v - level) ** 2 for v in self._warm) / (n - 1)) if n > 1 else 0.0
        self._level, self._scale = level, max(spread, self.min_scale)
        self._inner = PageHinkley(
            self.allowance * self._scale,
            self.threshold * self._scale,
            self.min_samples,
            self.direction,  # type: ignore[arg-type]
        )
        events = self._inner.update_many([self._clipped(v) for v in self._warm])
        self._warm = []
        return events[-1] if events else None

    def update_many(self, values: Iterable[float]) -> list[DriftEvent]:
        """:meth:`update` each value in order; the events."""
        return [event for x in values if (event := self.update(x)) is not None]

    def snapshot(self) -> dict[str, Any]:
        """The full state as JSON: ``{detector, params, state}``."""
        return {
            "detector": self.name,
            "params": {
                "allowance": self.allowance,
                "threshold": self.threshold,
                "clip": self.clip,
                "minSamples": self.min_samples,
                "minScale": self.min_scale,
                "direction": self.direction,
            },
            "state": {
                "index": self._index,
                "warmUp": list(self._warm),
                "level": self._level,
                "scale": self._scale,
                "test": None if self._inner is None else self._inner.snapshot(),
            },
        }

    @classmethod
    def from_snapshot(cls, snapshot: Mapping[str, Any]) -> ScaledPageHinkley:
        """Rebuild a detector from :meth:`snapshot` output; it behaves identically from here.

        :raises AssayError: ``INVALID_SNAPSHOT`` for a snapshot of another detector or with a
            missing or malformed field; ``INVALID_CONFIG`` for bad parameters.
        """
        if not isinstance(snapshot, Mapping) or snapshot.get("detector") != cls.name:
            fail(INVALID_SNAPSHOT, f"not a {cls.name} snapshot", "snapshot")
        try:
            params, state = snapshot["params"], snapshot["state"]
            detector = cls(
                params["allowance"],
                params["threshold"],
                params["clip"],
                params["minSamples"],
                params["minScale"],
                params["direction"],
            )
            detector._index = int(state["index"])
            detector._warm = [float(v) for v in state["warmUp"]]
            if state["test"] is not None:
                detector._level, detector._scale = float(state["level"]), float(state["scale"])
                detector._inner = PageHinkley.from_snapshot(state["test"])
        except (KeyError, TypeError, ValueError) as exc:
            fail(INVALID_SNAPSHOT, f"malformed {cls.name} snapshot: {exc!r}", "snapshot")
        return detector
