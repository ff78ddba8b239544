"""Per-dimension high and low score models, calibrated from labeled history, updated online."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from assay import AssayError
from assay_jeffreys.beta import BetaModel
from assay_jeffreys.errors import (
    INVALID_CONFIG,
    INVALID_DIMENSION,
    INVALID_SNAPSHOT,
    fail,
    refuse_unknown_fields,
)
from assay_jeffreys.scores import _beta_from_wire, observation_from_wire, observations_from_wire
from assay_jeffreys.types import (
    BetaParams,
    DimensionModel,
    LabeledObservation,
    check_hypothesis,
    finite,
)

__all__ = ["DEFAULT_PRIOR_HIGH", "DEFAULT_PRIOR_LOW", "DimensionSpec", "HypothesisManager"]

DEFAULT_PRIOR_HIGH = BetaParams(2.0, 1.0)
"""Weakly informative: mean 2/3, three pseudo-observations."""
DEFAULT_PRIOR_LOW = BetaParams(1.0, 2.0)
"""Weakly informative: mean 1/3, three pseudo-observations."""


@attrs.frozen
class DimensionSpec:
    """Per-dimension options of a :class:`HypothesisManager`.

    Attributes:
        dimension: the dimension's name.
        weight: its weight (``None``: the manager's default weight).
        prior_high: its high-quality prior (``None``: the manager's default).
        prior_low: its low-quality prior (``None``: the manager's default).
    """

    dimension: str
    weight: float | None = None
    prior_high: BetaParams | None = None
    prior_low: BetaParams | None = None


class _Dimension:
    __slots__ = ("high", "low", "weight")

    def __init__(self, weight: float, prior_high: BetaParams, prior_low: BetaParams) -> None:
        self.weight = weight
        self.high = BetaModel(prior_high)
        self.low = BetaModel(prior_low)


def _check_weight(weight: Any, path: str) -> float:
    if isinstance(weight, bool) or not isinstance(weight, int | float):
        fail(INVALID_CONFIG, f"weight must be a number, got {weight!r}", path)
    if not (finite(weight) and weight >= 0):
        fail(INVALID_CONFIG, f"weight must be finite and >= 0, got {weight!r}", path)
    return float(weight)


_SPEC_KEYS = {"dimension", "weight", "priorHigh", "priorLow"}


def _spec_from_wire(item: Any, path: str) -> DimensionSpec:
    """A :class:`DimensionSpec` from itself or from the specification's object shape
    ``{"dimension", "weight"?, "priorHigh"?: {a, b}, "priorLow"?: {a, b}}``."""
    if isinstance(item, DimensionSpec):
        return item
    if not isinstance(item, Mapping):
        fail(INVALID_CONFIG, "a dimension spec must be a DimensionSpec or an object", path)
    refuse_unknown_fields(item, _SPEC_KEYS, path)
    if "dimension" not in item:
        fail(INVALID_DIMENSION, "a dimension spec needs a 'dimension'", f"{path}.dimension")
    priors = {}
    for key in ("priorHigh", "priorLow"):
        value = item.get(key)
        priors[key] = None if value is None else _beta_from_wire(value, f"{path}.{key}")
    return DimensionSpec(
        item["dimension"], item.get("weight"), priors["priorHigh"], priors["priorLow"]
    )


class HypothesisManager:
    """Two calibrated :class:`BetaModel` per dimension (high, low), plus a weight.

    Dimensions listed in ``dimensions`` come first, in that order; a dimension first seen in an
    observation is added after them with the defaults.

    :param dimensions: per-dimension options.
    :param default_weight: weight of a dimension without its own (default 1).
    :param default_prior_high: prior of the high hypothesis (default Beta(2, 1)).
    :param default_prior_low: prior of the low hypothesis (default Beta(1, 2)).
    :raises AssayError: ``INVALID_CONFIG`` for a negative or non-finite weight;
        ``INVALID_DIMENSION`` for a duplicate or empty dimension name.
    """

    def __init__(
        self,
        dimensions: Iterable[DimensionSpec] = (),
        default_weight: float = 1.0,
        default_prior_high: BetaParams = DEFAULT_PRIOR_HIGH,
        default_prior_low: BetaParams = DEFAULT_PRIOR_LOW,
    ) -> None:
        self.default_weight = _check_weight(default_weight, "defaultWeight")
        self.default_prior_high = default_prior_high
        self.default_prior_low = default_prior_low
        self._dims: dict[str, _Dimension] = {}
        if isinstance(dimensions, str | bytes | Mapping) or not isinstance(dimensions, Iterable):
            fail(INVALID_CONFIG, "dimensions must be an array of dimension specs", "dimensions")
        for i, item in enumerate(dimensions):
            spec = _spec_from_wire(item, f"dimensions[{i}]")
            if not isinstance(spec.dimension, str) or not spec.dimension:
                fail(INVALID_DIMENSION, "a dimension needs a name", f"dimensions[{i}]")
            if spec.dimension in self._dims:
                fail(
                    INVALID_DIMENSION, f"duplicate dimension {spec.dimension!r}", f"dimensions[{i}]"
                )
            weight = default_weight if spec.weight is None else spec.weight
            self._dims[spec.dimension] = _Dimension(
                _check_weight(weight, f"dimensions[{i}].weight"),
                spec.prior_high or default_prior_high,
                spec.prior_low or default_prior_low,
            )

    @property
    def dimensions(self) -> list[str]:
        """The known dimensions, in order."""
        return list(self._dims)

    def _dimension(self, name: str) -> _Dimension:
        if name not in self._dims:
            self._dims[name] = _Dimension(
                self.default_weight, self.default_prior_high, self.default_prior_low
            )
        return self._dims[name]

    def observe(self, observation: LabeledObservation | Mapping[str, Any]) -> HypothesisManager:
        """Fold one labeled output into its hypothesis's model on each scored dimension.

        All or nothing: scores are checked before any model changes, and a model whose refit
        fails (``NUMERIC``) puts back the ones already updated.

        :raises AssayError: ``INVALID_OBSERVATION`` / ``INVALID_HYPOTHESIS`` / ``INVALID_SCORE``
            for a malformed observation (see :func:`~assay_jeffreys.observation_from_wire`).
        """
        obs = observation_from_wire(observation)
        touched: list[tuple[BetaModel, dict[str, Any]]] = []
        try:
            for score in obs.scores:
                dim = self._dimension(score.dimension)
                model = dim.high if obs.label == "high" else dim.low
                touched.append((model, model.snapshot()))
                model.observe(score.value)
        except AssayError:
            for model, before in reversed(touched):  # all or nothing
                model.restore(before)
            raise
        return self

    def fit(
        self, observations: Iterable[LabeledObservation | Mapping[str, Any]]
    ) -> HypothesisManager:
        """:meth:`observe` each observation in turn; returns ``self``.

        :raises AssayError: ``INVALID_OBSERVATION`` when ``observations`` is not an array.
        """
        for obs in observations_from_wire(observations):
            self.observe(obs)
        return self

    def unfitted(self) -> HypothesisManager:
        """A new manager with this one's dimensions, weights, priors and defaults, and no
        observations (the starting point of a fit on other history)."""
        specs = [
            DimensionSpec(name, d.weight, d.high.prior, d.low.prior)
            for name, d in self._dims.items()
        ]
        return HypothesisManager(
            specs, self.default_weight, self.default_prior_high, self.default_prior_low
        )

    def models(self) -> list[DimensionModel]:
        """The current calibration, one :class:`DimensionModel` per dimension, in order."""
        return [
            DimensionModel(name, d.high.params, d.low.params, d.weight)
            for name, d in self._dims.items()
        ]

    def model(self, dimension: str, kind: str) -> BetaModel:
        """The live :class:`BetaModel` of ``dimension`` under hypothesis ``kind``.

        :raises AssayError: ``INVALID_DIMENSION`` for an unknown dimension;
            ``INVALID_HYPOTHESIS`` for a kind other than ``"high"`` / ``"low"``.
        """
        check_hypothesis(kind, "kind")
        if dimension not in self._dims:
            fail(INVALID_DIMENSION, f"unknown dimension {dimension!r}", "dimension")
        dim = self._dims[dimension]
        return dim.high if kind == "high" else dim.low

    def observation_count(self, dimension: str, kind: str) -> int:
        """How many scores of ``dimension`` were folded into hypothesis ``kind``.

        :raises AssayError: as :meth:`model`.
        """
        return self.model(dimension, kind).count

    def snapshot(self) -> dict[str, Any]:
        """JSON-safe state of every dimension (weight and both models' snapshots)."""
        return {
            "defaultWeight": self.default_weight,
            "defaultPriorHigh": attrs.asdict(self.default_prior_high),
            "defaultPriorLow": attrs.asdict(self.default_prior_low),
            "dimensions": [
                {
                    "dimension": name,
                    "weight": d.weight,
                    "high": d.high.snapshot(),
                    "low": d.low.snapshot(),
                }
                for name, d in self._dims.items()
            ],
        }

    @classmethod
    def from_snapshot(cls, data: Any) -> HypothesisManager:
        """Rebuild a manager from :meth:`snapshot` output.

        :raises AssayError: ``INVALID_SNAPSHOT`` when malformed.
        """
        if not isinstance(data, Mapping) or not isinstance(data.get("dimensions"), list):
            fail(INVALID_SNAPSHOT, "a manager snapshot needs a 'dimensions' array", "snapshot")
        try:
            manager = cls(
                default_weight=data.get("defaultWeight", 1.0),
                default_prior_high=BetaParams(**data.get("defaultPriorHigh", {"a": 2, "b": 1})),
                default_prior_low=BetaParams(**data.get("defaultPriorLow", {"a": 1, "b": 2})),
            )
        except (AssayError, TypeError, KeyError) as exc:
            fail(INVALID_SNAPSHOT, f"bad defaults: {getattr(exc, 'message', exc)}", "snapshot")
        for i, item in enumerate(data["dimensions"]):
            path = f"snapshot.dimensions[{i}]"
            if not isinstance(item, Mapping) or not isinstance(item.get("dimension"), str):
                fail(INVALID_SNAPSHOT, "each dimension needs a 'dimension' name", path)
            dim = _Dimension(
                manager.default_weight, manager.default_prior_high, manager.default_prior_low
            )
            try:
                dim.weight = _check_weight(item.get("weight", manager.default_weight), path)
            except (AssayError, TypeError, KeyError) as exc:
                fail(INVALID_SNAPSHOT, getattr(exc, "message", str(exc)), f"{path}.weight")
            dim.high = BetaModel.from_snapshot(item.get("high"), f"{path}.high")
            dim.low = BetaModel.from_snapshot(item.get("low"), f"{path}.low")
            manager._dims[item["dimension"]] = dim
        return manager
