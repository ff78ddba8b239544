"""Change-point (drift) detectors on a stream of floats: Page–Hinkley and CUSUM.

Both detectors watch a stream ``x_1, x_2, ...`` one value at a time and report a
:class:`DriftEvent` when its level has moved. They share one mechanism: a cumulative sum of
deviations from a reference level, compared with its own running extreme.

For a reference level ``r_t`` and an allowance ``delta`` (both in the units of ``x``)::

    up_t   = sum_{i<=t} (x_i - r_i - delta)      U_t = up_t - min(0, up_1, ..., up_t)
    down_t = sum_{i<=t} (x_i - r_i + delta)      D_t = max(0, down_1, ..., down_t) - down_t

``U_t`` grows while values sit above the reference by more than ``delta`` (an increase),
``D_t`` while they sit below it by more than ``delta`` (a decrease). A detector fires when the
watched statistic exceeds ``threshold`` and at least ``min_samples`` values were seen since the
last (re)start.

* :class:`PageHinkley` uses the running mean of the values since the last restart as ``r_t``
  (including ``x_t``).
* :class:`Cusum` uses a fixed target mean: ``target`` when given, otherwise the mean of the
  first ``min_samples`` values after each (re)start (a warm-up during which nothing
  accumulates). ``U_t`` and ``D_t`` are then exactly the tabular CUSUM statistics
  ``S+_t = max(0, S+_{t-1} + x_t - target - delta)`` and
  ``S-_t = max(0, S-_{t-1} + target - delta - x_t)``.

After firing, a detector restarts: its statistics go back to zero and it learns the new
level, while ``index`` keeps counting every value seen since construction or :meth:`reset`.

:meth:`update_many` runs a detector over a whole array with numpy, segment by segment; it
returns the same events and leaves the detector in the same state as calling :meth:`update`
value by value (both use the same floating-point operations in the same order).

Everything is deterministic: no clocks, no randomness. Invalid parameters raise
:class:`assay.AssayError` ``INVALID_CONFIG``; a non-finite value raises ``INVALID_INPUT``; a
broken snapshot raises ``MALFORMED_INPUT``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Literal, Self

import attrs
import numpy as np

import assay

__all__ = ["Cusum", "DriftEvent", "PageHinkley"]

Direction = Literal["both", "increase", "decrease"]
_DIRECTIONS = ("both", "increase", "decrease")


@attrs.frozen
class DriftEvent:
    """One detected change.

    Attributes:
        detector: ``"page_hinkley"`` or ``"cusum"``.
        index: 0-based position of the value that made the detector fire, counted over every
            value given to the detector since construction or :meth:`reset` (restarts after an
            event do not reset it).
        statistic: the value of the statistic that crossed the threshold (``U_t`` or ``D_t``).
        threshold: the detector's threshold at the time.
        direction: ``"increase"`` or ``"decrease"``: which way the level moved.
        mean_before: the reference level before the change: for Page–Hinkley the mean of the
            values since the last restart, excluding the one that fired; for CUSUM the target.
    """

    detector: str
    index: int
    statistic: float
    threshold: float
    direction: Literal["increase", "decrease"]
    mean_before: float

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape ``{detector, index, statistic, threshold, direction, meanBefore}``."""
        return {
            "detector": self.detector,
            "index": self.index,
            "statistic": self.statistic,
            "threshold": self.threshold,
            "direction": self.direction,
            "meanBefore": self.mean_before,
        }


def _finite_param(name: str, value: Any, *, positive: bool | None) -> float:
    """A finite number; ``positive=True`` requires > 0, ``False`` >= 0, ``None`` any sign."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise assay.AssayError("INVALID_CONFIG", f"must be a finite number, got {value!r}", name)
    if positive is not None and (value < 0 or (positive and value == 0)):
        bound = "> 0" if positive else ">= 0"
        raise assay.AssayError("INVALID_CONFIG", f"must be {bound}, got {value!r}", name)
    return float(value)


def _min_samples_param(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise assay.AssayError(
            "INVALID_CONFIG", f"must be an integer >= 1, got {value!r}", "minSamples"
        )
    return value


def _direction_param(value: Any) -> Direction:
    if value not in _DIRECTIONS:
        raise assay.AssayError(
            "INVALID_CONFIG", f"must be one of {', '.join(_DIRECTIONS)}, got {value!r}", "direction"
        )
    return value  # type: ignore[no-any-return]


def _finite_value(value: Any, path: str) -> float:
    if type(value) is float and math.isfinite(value):  # the common case, checked cheaply
        return value
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise assay.AssayError("INVALID_INPUT", f"must be a finite number, got {value!r}", path)
    return float(value)


def _as_array(values: Iterable[float]) -> np.ndarray:
    try:
        array = np.asarray(list(values) if not isinstance(values, np.ndarray) else values)
        array = array.astype(np.float64, copy=False)
    except (TypeError, ValueError) as exc:
        raise assay.AssayError("INVALID_INPUT", f"must be numbers: {exc}", "values") from exc
    if array.ndim != 1:
        raise assay.AssayError("INVALID_INPUT", "must be one-dimensional", "values")
    bad = np.flatnonzero(~np.isfinite(array))
    if bad.size:
        first = int(bad[0])
        raise assay.AssayError(
            "INVALID_INPUT", f"must be a finite number, got {array[first]!r}", f"values[{first}]"
        )
    return array


class _Detector:
    """Shared mechanism: cumulative deviations from a reference level and their extremes."""

    name: ClassVar[str]
    _param_names: ClassVar[tuple[str, ...]]
    _state_names: ClassVar[tuple[str, ...]]

    delta: float
    threshold: float
    min_samples: int
    direction: Direction

    def _init_common(self, delta: Any, threshold: Any, min_samples: Any, direction: Any) -> None:
        self.delta = _finite_param("delta", delta, positive=False)
        self.threshold = _finite_param("threshold", threshold, positive=True)
        self.min_samples = _min_samples_param(min_samples)
        self.direction = _direction_param(direction)

    def reset(self) -> None:
        """Forget everything seen: statistics, learned level and the event index."""
        self._index = 0
        self._restart()

    def _restart(self) -> None:
        self._count = 0
        self._up = 0.0
        self._up_min = 0.0
        self._down = 0.0
        self._down_max = 0.0

    # -- one value ---------------------------------------------------------------------------

    def update(self, x: float) -> DriftEvent | None:
        """Feed one value; return the event when the detector fires on it, else ``None``.

        :raises AssayError: ``INVALID_INPUT`` (path ``x``) when ``x`` is not a finite number.
        """
        value = _finite_value(x, "x")
        index = self._index
        self._index += 1
        reference = self._observe(value)
        if reference is None:  # still warming up
            return None
        deviation = value - reference
        self._up += deviation - self.delta
        self._up_min = min(self._up_min, self._up)
        self._down += deviation + self.delta
        self._down_max = max(self._down_max, self._down)
        if self._count < self.min_samples:
            return None
        return self._maybe_fire(index, self._up - self._up_min, self._down_max - self._down)

    def _maybe_fire(self, index: int, up_stat: float, down_stat: float) -> DriftEvent | None:
        direction = self._fired_direction(up_stat, down_stat)
        if direction is None:
            return None
        event = DriftEvent(
            detector=self.name,
            index=index,
            statistic=up_stat if direction == "increase" else down_stat,
            threshold=self.threshold,
            direction=direction,
            mean_before=self._mean_before(),
        )
        self._restart()
        return event

    def _fired_direction(
        self, up_stat: float, down_stat: float
    ) -> Literal["increase", "decrease"] | None:
        up = self.direction != "decrease" and up_stat > self.threshold
        down = self.direction != "increase" and down_stat > self.threshold
        if up and (not down or up_stat >= down_stat):
            return "increase"
        return "decrease" if down else None

    # -- a whole array -----------------------------------------------------------------------

    def update_many(self, values: Iterable[float]) -> list[DriftEvent]:
        """Feed every value of ``values`` in order (vectorised with numpy); return the events.

        Equivalent to ``[e for x in values if (e := self.update(x))]``, with the same final
        state, but the work per segment between events is done on arrays.

        :raises AssayError: ``INVALID_INPUT`` (path ``values[i]``) at the first value that is not
            a finite number; the detector is left unchanged in that case.
        """
        array = _as_array(values)
        events: list[DriftEvent] = []
        start = 0
        while start < array.size:
            start = self._warm_up(array, start)
            if start >= array.size:
                break
            fired_at = self._scan(array[start:])
            if fired_at is None:
                break
            event = self._finish_scan(array[start : start + fired_at + 1])
            assert event is not None  # _scan found the firing position
            events.append(event)
            start += fired_at + 1
        return events

    def _warm_up(self, array: np.ndarray, start: int) -> int:
        """Feed values one by one while the detector has no reference level; return the next
        position to scan."""
        while start < array.size and self._needs_warm_up():
            self.update(float(array[start]))
            start += 1
        return start

    def _needs_warm_up(self) -> bool:
        return False

    def _statistics(self, chunk: np.ndarray) -> tuple[np.ndarray, ...]:
        """Counts, references, U and D and the running extremes for ``chunk`` from the
        current state, computed with the same operations as :meth:`update`."""
        counts = self._count + np.arange(1, chunk.size + 1)
        references = self._references(chunk, counts)
        deviations = chunk - references
        up = np.cumsum(np.concatenate(([self._up], deviations - self.delta)))[1:]
        up_min = np.minimum.accumulate(np.concatenate(([self._up_min], up)))[1:]
        down = np.cumsum(np.concatenate(([self._down], deviations + self.delta)))[1:]
        down_max = np.maximum.accumulate(np.concatenate(([self._down_max], down)))[1:]
        return counts, up, up_min, down, down_max

    def _scan(self, chunk: np.ndarray) -> int | None:
        """Position in ``chunk`` where the detector fires, or ``None`` after absorbing it all."""
        counts, up, up_min, down, down_max = self._statistics(chunk)
        eligible = counts >= self.min_samples
        fires = np.zeros(chunk.size, dtype=bool)
        if self.direction != "decrease":
            fires |= eligible & (up - up_min > self.threshold)
        if self.direction != "increase":
            fires |= eligible & (down_max - down > self.threshold)
        hits = np.flatnonzero(fires)
        if hits.size:
            return int(hits[0])
        self._absorb(chunk, counts, up, up_min, down, down_max)
        return None

    def _finish_scan(self, chunk: np.ndarray) -> DriftEvent | None:
        """Absorb ``chunk`` whose last value fires; return that event."""
        counts, up, up_min, down, down_max = self._statistics(chunk)
        self._absorb(chunk[:-1], counts[:-1], up[:-1], up_min[:-1], down[:-1], down_max[:-1])
        return self.update(float(chunk[-1]))

    def _absorb(self, chunk: np.ndarray, *columns: np.ndarray) -> None:
        if chunk.size == 0:
            return
        counts, up, up_min, down, down_max = columns
        self._index += int(chunk.size)
        self._advance_reference(chunk)
        self._count = int(counts[-1])
        self._up, self._up_min = float(up[-1]), float(up_min[-1])
        self._down, self._down_max = float(down[-1]), float(down_max[-1])

    # -- snapshots ---------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The full state as a JSON-safe dict: ``{detector, params, state}``.

        ``from_snapshot(snapshot())`` gives a detector that behaves identically from here on.
        """
        return {
            "detector": self.name,
            "params": {key: getattr(self, attr) for key, attr in self._param_names_map()},
            "state": {key: getattr(self, attr) for key, attr in self._state_names_map()},
        }

    @classmethod
    def from_snapshot(cls, snapshot: Mapping[str, Any]) -> Self:
        """Rebuild a detector from :meth:`snapshot` output.

        :raises AssayError: ``MALFORMED_INPUT`` for a snapshot of another detector or with
            missing or non-numeric fields; ``INVALID_CONFIG`` for bad parameters.
        """
        params, state = cls._check_snapshot(snapshot)
        detector = cls(**{attr: params[key] for key, attr in cls._param_names_map()})
        detector._load_state(state)
        return detector

    @classmethod
    def _param_names_map(cls) -> list[tuple[str, str]]:
        return [(_camel(name), name) for name in cls._param_names]

    @classmethod
    def _state_names_map(cls) -> list[tuple[str, str]]:
        return [(_camel(name), f"_{name}") for name in cls._state_names]

    @classmethod
    def _check_snapshot(cls, snapshot: Any) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
        if not isinstance(snapshot, Mapping):
            raise assay.AssayError("MALFORMED_INPUT", "a snapshot must be an object", "snapshot")
        if snapshot.get("detector") != cls.name:
            raise assay.AssayError(
                "MALFORMED_INPUT",
                f"expected detector {cls.name!r}, got {snapshot.get('detector')!r}",
                "snapshot.detector",
            )
        parts = []
        for part, names in (("params", cls._param_names_map()), ("state", cls._state_names_map())):
            section = snapshot.get(part)
            if not isinstance(section, Mapping):
                raise assay.AssayError("MALFORMED_INPUT", "must be an object", f"snapshot.{part}")
            missing = [key for key, _ in names if key not in section]
            if missing:
                raise assay.AssayError(
                    "MALFORMED_INPUT", f"missing {', '.join(missing)}", f"snapshot.{part}"
                )
            parts.append(section)
        return parts[0], parts[1]

    def _load_state(self, state: Mapping[str, Any]) -> None:
        for key, attr in self._state_names_map():
            value = state[key]
            if key in ("index", "count"):
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise assay.AssayError(
                        "MALFORMED_INPUT",
                        f"must be an integer >= 0, got {value!r}",
                        f"snapshot.state.{key}",
                    )
            elif value is not None:
                value = _finite_value(value, f"snapshot.state.{key}")
            setattr(self, attr, value)

    # -- hooks for the concrete detectors ----------------------------------------------------

    def _observe(self, value: float) -> float | None:
        raise NotImplementedError

    def _references(self, chunk: np.ndarray, counts: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _advance_reference(self, chunk: np.ndarray) -> None:
        raise NotImplementedError

    def _mean_before(self) -> float:
        raise NotImplementedError

    def __repr__(self) -> str:
        params = ", ".join(f"{attr}={getattr(self, attr)!r}" for attr in self._param_names)
        return f"{type(self).__name__}({params})"


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word.title() for word in rest)


class PageHinkley(_Detector):
    """Page–Hinkley test: cumulative deviation from the running mean (see module docs).

    :param delta: allowance, in the units of the values: deviations smaller than this do not
        accumulate (>= 0).
    :param threshold: fire when the statistic exceeds this (> 0), in the units of the values.
    :param min_samples: do not fire before this many values since the last (re)start (>= 1).
    :param direction: ``"both"``, ``"increase"`` or ``"decrease"``: which moves to report.
    :raises AssayError: ``INVALID_CONFIG`` naming the bad parameter.
    """

    name = "page_hinkley"
    _param_names = ("delta", "threshold", "min_samples", "direction")
    _state_names = ("index", "count", "total", "previous_total", "up", "up_min", "down", "down_max")

    def __init__(
        self,
        delta: float = 0.005,
        threshold: float = 50.0,
        min_samples: int = 30,
        direction: Direction = "both",
    ) -> None:
        self._init_common(delta, threshold, min_samples, direction)
        self.reset()

    def _restart(self) -> None:
        super()._restart()
        self._total = 0.0
        self._previous_total = 0.0

    def _observe(self, value: float) -> float:
        self._previous_total = self._total
        self._count += 1
        self._total += value
        return self._total / self._count

    def _references(self, chunk: np.ndarray, counts: np.ndarray) -> np.ndarray:
        totals = np.cumsum(np.concatenate(([self._total], chunk)))[1:]
        means: np.ndarray = totals / counts
        return means

    def _advance_reference(self, chunk: np.ndarray) -> None:
        totals = np.cumsum(np.concatenate(([self._total], chunk)))
        self._previous_total, self._total = float(totals[-2]), float(totals[-1])

    def _mean_before(self) -> float:
        return self._previous_total / (self._count - 1) if self._count > 1 else 0.0


class Cusum(_Detector):
    """Two-sided tabular CUSUM around a target mean (see module docs).

    :param delta: allowance ``k``, in the units of the values (>= 0); a common choice is half
        the shift worth detecting.
    :param threshold: decision interval ``h`` (> 0); a common choice is 4–5 standard deviations.
    :param min_samples: with ``target=None``, the warm-up length used to estimate the target
        after each (re)start; with a fixed target, do not fire before this many values.
    :param direction: ``"both"``, ``"increase"`` or ``"decrease"``.
    :param target: the in-control mean; ``None`` to learn it from the warm-up.
    :raises AssayError: ``INVALID_CONFIG`` naming the bad parameter.
    """

    name = "cusum"
    _param_names = ("delta", "threshold", "min_samples", "direction", "target")
    _state_names = ("index", "count", "warm_total", "reference", "up", "up_min", "down", "down_max")

    def __init__(
        self,
        delta: float = 0.5,
        threshold: float = 5.0,
        min_samples: int = 30,
        direction: Direction = "both",
        target: float | None = None,
    ) -> None:
        self._init_common(delta, threshold, min_samples, direction)
        self.target = None if target is None else _finite_param("target", target, positive=None)
        self.reset()

    def _restart(self) -> None:
        super()._restart()
        self._warm_total = 0.0
        self._reference: float | None = self.target

    def _needs_warm_up(self) -> bool:
        return self._reference is None

    def _observe(self, value: float) -> float | None:
        self._count += 1
        if self._reference is None:
            self._warm_total += value
            if self._count == self.min_samples:
                self._reference = self._warm_total / self._count
            return None
        return self._reference

    def _references(self, chunk: np.ndarray, counts: np.ndarray) -> np.ndarray:
        assert self._reference is not None
        return np.full(chunk.size, self._reference)

    def _advance_reference(self, chunk: np.ndarray) -> None:
        """The target does not move between restarts."""

    def _mean_before(self) -> float:
        assert self._reference is not None
        return self._reference
