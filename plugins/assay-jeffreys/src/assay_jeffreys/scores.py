"""Reading and checking score vectors, labeled observations and dimension models.

A score vector arrives as a mapping ``{dimension: value}``, or as a sequence of
:class:`~assay_jeffreys.types.QualityScore` or of ``{"dimension", "value"}`` objects. Every
reader here validates defensively (input may come from a file or from a model) and raises
:class:`assay.AssayError` with the field path.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from assay import AssayError
from assay_jeffreys.errors import (
    INVALID_CONFIG,
    INVALID_DIMENSION,
    INVALID_OBSERVATION,
    INVALID_SCORE,
    fail,
    refuse_unknown_fields,
)
from assay_jeffreys.types import (
    BetaParams,
    DimensionModel,
    LabeledObservation,
    QualityScore,
    check_hypothesis,
)

__all__ = [
    "model_from_wire",
    "models_from_wire",
    "observation_from_wire",
    "observations_from_wire",
    "to_score_map",
    "to_score_vector",
]


def _check_value(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        fail(INVALID_SCORE, f"a score must be a number, got {value!r}", path)
    if isinstance(value, int):
        value = float(value) if -2 <= value <= 2 else math.inf  # no overflow for huge ints
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        fail(INVALID_SCORE, f"a score must be finite and in [0, 1], got {value!r}", path)
    return float(value)


def _check_dimension(name: Any, path: str) -> str:
    if not isinstance(name, str) or not name:
        fail(INVALID_SCORE, f"a dimension must be a non-empty string, got {name!r}", path)
    return name


def to_score_map(scores: Any, path: str = "scores") -> dict[str, float]:
    """Validate a score vector and return it as ``{dimension: value}`` in input order.

    :raises AssayError: ``INVALID_SCORE`` for a value that is not a finite number in [0, 1], a
        duplicate dimension, or a malformed row (not an object, missing fields).
    """
    if type(scores) is dict and all(
        type(k) is str and k and type(v) is float and 0.0 <= v <= 1.0 for k, v in scores.items()
    ):
        return dict(scores)  # fast path: a plain dict of in-range floats (NaN fails the test)
    result: dict[str, float] = {}
    if isinstance(scores, Mapping):
        for name, value in scores.items():
            _check_dimension(name, path)
            result[name] = _check_value(value, f"{path}.{name}")
        return result
    if isinstance(scores, str | bytes) or not isinstance(scores, Iterable):
        fail(INVALID_SCORE, "scores must be an object map or an array of scores", path)
    for i, item in enumerate(scores):
        where = f"{path}[{i}]"
        if isinstance(item, QualityScore):
            name, value = item.dimension, item.value
        elif isinstance(item, Mapping):
            if "dimension" not in item or "value" not in item:
                fail(INVALID_SCORE, "a score row needs 'dimension' and 'value'", where)
            name, value = item["dimension"], item["value"]
        else:
            fail(INVALID_SCORE, f"a score row must be an object, got {item!r}", where)
        _check_dimension(name, f"{where}.dimension")
        if name in result:
            fail(INVALID_SCORE, f"duplicate dimension {name!r}", f"{where}.dimension")
        result[name] = _check_value(value, f"{where}.value")
    return result


def to_score_vector(scores: Any, path: str = "scores") -> tuple[QualityScore, ...]:
    """:func:`to_score_map`, as a tuple of :class:`QualityScore`."""
    return tuple(QualityScore(k, v) for k, v in to_score_map(scores, path).items())


def observation_from_wire(data: Any, path: str = "observation") -> LabeledObservation:
    """A :class:`LabeledObservation` from ``{"scores": ..., "label": "high" | "low"}``.

    :raises AssayError: ``INVALID_OBSERVATION`` when not an object or without scores / label;
        ``INVALID_HYPOTHESIS`` for another label; ``INVALID_SCORE`` for bad scores.
    """
    if isinstance(data, LabeledObservation):
        return data
    if not isinstance(data, Mapping):
        fail(INVALID_OBSERVATION, "a labeled observation must be an object", path)
    for key in ("scores", "label"):
        if key not in data:
            fail(INVALID_OBSERVATION, f"missing {key!r}", f"{path}.{key}")
    label = check_hypothesis(data["label"], f"{path}.label")
    return LabeledObservation(to_score_vector(data["scores"], f"{path}.scores"), label)


def observations_from_wire(data: Any, path: str = "observations") -> list[LabeledObservation]:
    """A list of :class:`LabeledObservation` from an array of observations.

    :raises AssayError: ``INVALID_OBSERVATION`` when ``data`` is not an array; as
        :func:`observation_from_wire` for an item.
    """
    if isinstance(data, str | bytes | Mapping) or not isinstance(data, Iterable):
        fail(INVALID_OBSERVATION, "observations must be an array of labeled observations", path)
    return [observation_from_wire(item, f"{path}[{i}]") for i, item in enumerate(data)]


def _beta_from_wire(data: Any, path: str) -> BetaParams:
    if isinstance(data, BetaParams):
        return data
    if not isinstance(data, Mapping) or "a" not in data or "b" not in data:
        fail(INVALID_CONFIG, "Beta parameters must be an object {a, b}", path)
    try:
        return BetaParams(data["a"], data["b"])
    except AssayError as exc:  # re-raise with the full path
        field = getattr(exc, "path", None)
        fail(INVALID_CONFIG, getattr(exc, "message", str(exc)), f"{path}.{field}")


_MODEL_KEYS = ("dimension", "high", "low", "weight")


def model_from_wire(data: Any, path: str = "model") -> DimensionModel:
    """A :class:`DimensionModel` from ``{"dimension", "high": {a, b}, "low": {a, b},
    "weight"?}`` (weight defaults to 1).

    :raises AssayError: ``INVALID_CONFIG`` for a malformed object, an unknown field (with the
        closest known one), bad parameters or weight; ``INVALID_DIMENSION`` for a missing or
        empty dimension.
    """
    if isinstance(data, DimensionModel):
        return data
    if not isinstance(data, Mapping):
        fail(INVALID_CONFIG, "a dimension model must be an object", path)
    refuse_unknown_fields(data, _MODEL_KEYS, path)
    dimension = data.get("dimension")
    if not isinstance(dimension, str) or not dimension:
        fail(INVALID_DIMENSION, "a model needs a non-empty 'dimension'", f"{path}.dimension")
    for key in ("high", "low"):
        if key not in data:
            fail(INVALID_CONFIG, f"missing {key!r}", f"{path}.{key}")
    high = _beta_from_wire(data["high"], f"{path}.high")
    low = _beta_from_wire(data["low"], f"{path}.low")
    weight = data.get("weight", 1.0)
    try:
        return DimensionModel(dimension, high, low, weight)
    except AssayError as exc:
        fail(INVALID_CONFIG, getattr(exc, "message", str(exc)), f"{path}.weight")


def models_from_wire(data: Any, path: str = "models") -> list[DimensionModel]:
    """A list of models from a JSON array; dimensions must be unique.

    :raises AssayError: as :func:`model_from_wire`; ``INVALID_DIMENSION`` for a duplicate.
    """
    if isinstance(data, str | bytes | Mapping) or not isinstance(data, Iterable):
        fail(INVALID_CONFIG, "models must be an array of dimension models", path)
    items = list(data)
    if all(type(item) is DimensionModel for item in items):
        models = items  # already validated records
    else:
        models = [model_from_wire(item, f"{path}[{i}]") for i, item in enumerate(items)]
    seen: set[str] = set()
    for i, model in enumerate(models):
        if model.dimension in seen:
            fail(INVALID_DIMENSION, f"duplicate model {model.dimension!r}", f"{path}[{i}]")
        seen.add(model.dimension)
    return models
