"""The scorecard's JSON wire shapes: inputs, config and scorecard, compatible with
transparent-confidence 0.3.

Registered on the core's one converter (:data:`assay.converter`); integral numbers are written
as ints and non-finite numbers tagged ``{"$float": "NaN"}``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

import cattrs
import orjson

from assay import AssayError, ErrorCode
from assay.wire import (
    converter,
    dimension_score_to_wire,
    register_camel,
    to_json_safe,
    warning_to_wire,
    wire_number,
)
from assay_scorecard.signals import json_kind
from assay_scorecard.types import (
    ActionPolicyConfig,
    Candidate,
    ClaimSupport,
    IndexIntegrityInputs,
    Scorecard,
    ScoringConfig,
    ScoringInputs,
    SignalPolicyConfig,
)

__all__ = [
    "all_finite",
    "json_loads",
    "scorecard_to_json",
    "scorecard_to_wire",
    "scoring_config_from_wire",
    "scoring_config_to_wire",
    "scoring_inputs_from_wire",
    "scoring_inputs_to_wire",
    "wire_to_json",
]

# Leaf classes first: a generated hook captures the hooks of its fields' classes when made.
for _cls in (
    Candidate,
    ClaimSupport,
    IndexIntegrityInputs,
    ScoringInputs,
    ActionPolicyConfig,
    SignalPolicyConfig,
):
    register_camel(_cls)

_n = wire_number


def _tier(tier: Any) -> dict[str, Any] | None:
    if tier is None:
        return None
    return {"score": _n(tier.score), "label": tier.label, "color": tier.color}


def scorecard_to_wire(scorecard: Scorecard) -> dict[str, Any]:
    """The scorecard in the JSON wire shape of transparent-confidence 0.3, keys in the reference's emitted order; integral
    numbers as ints (``25``, not ``25.0``).

    Non-finite numbers stay Python floats; :func:`scorecard_to_json` (or :func:`to_json_safe`
    before ``json.dumps``) tags them.
    """
    meta = scorecard.meta
    return {
        "total": _n(scorecard.total),
        "label": scorecard.label,
        "labelColor": scorecard.label_color,
        "recommendedAction": scorecard.recommended_action,
        "actionReason": scorecard.action_reason,
        "tier1": _tier(scorecard.tier1),
        "tier2": _tier(scorecard.tier2),
        "dimensions": {
            name: dimension_score_to_wire(dim) for name, dim in scorecard.dimensions.items()
        },
        "meta": {
            "algorithmVersion": meta.algorithm_version,
            "schemaVersion": meta.schema_version,
            "rawTotal": _n(meta.raw_total),
            "maxPossible": _n(meta.max_possible),
            "activeExtensions": list(meta.active_extensions),
            "activeDimensions": list(meta.active_dimensions),
            "missingSignals": list(meta.missing_signals),
            "warnings": [warning_to_wire(w) for w in meta.warnings],
            "weights": {k: _n(v) for k, v in meta.weights.items()},
        },
    }


def scorecard_to_json(scorecard: Scorecard, *, indent: int | None = None) -> str:
    """The wire shape as JSON text; non-finite numbers (only from NaN inputs) are written
    ``{"$float": "NaN"}``.

    Without ``indent`` the text is compact (no spaces), one line, written by orjson in the
    common case; with ``indent`` it is pretty-printed by the json module.
    """
    wire = scorecard_to_wire(scorecard)
    if indent is None:
        text = compact_utf8(scorecard, wire)
        if text is not None:
            return text.decode()
    return wire_to_json(wire, indent=indent)


def compact_utf8(scorecard: Scorecard, wire: dict[str, Any]) -> bytes | None:
    """The compact JSON of ``wire`` (``scorecard``'s wire shape) as UTF-8, written by orjson,
    when that is exactly what :func:`scorecard_to_json` writes; ``None`` when it is not (a
    non-finite number, or an integer beyond 64 bits: :func:`wire_to_json` decides those)."""
    # orjson writes a non-finite number as null: when the text holds no null but those of
    # absent tiers, there was none (a null anywhere else takes the careful way)
    try:
        text = orjson.dumps(wire)
    except TypeError:  # a value orjson does not write (an int beyond 64 bits)
        return None
    nulls = (scorecard.tier1 is None) + (scorecard.tier2 is None)
    return text if text.count(b"null") == nulls else None


def wire_to_json(wire: Any, *, indent: int | None = None) -> str:
    """JSON text of a wire-shape value (see :func:`scorecard_to_json`)."""
    if indent is None and all_finite(wire):
        try:
            return orjson.dumps(wire).decode()
        except TypeError:  # a value orjson does not write (an int beyond 64 bits): json decides
            pass
    separators = (",", ":") if indent is None else None
    try:
        return json.dumps(
            wire, ensure_ascii=False, allow_nan=False, indent=indent, separators=separators
        )
    except ValueError:  # a NaN or infinity somewhere: tag it
        return json.dumps(
            to_json_safe(wire),
            ensure_ascii=False,
            allow_nan=False,
            indent=indent,
            separators=separators,
        )


def all_finite(value: Any) -> bool:
    """Whether no float in ``value`` (nested dicts, lists, tuples) is NaN or infinite."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, Mapping):
        return all(all_finite(item) for item in value.values())
    if isinstance(value, list | tuple):
        return all(all_finite(item) for item in value)
    return True


def json_loads(text: str | bytes) -> Any:
    """Parse JSON text with orjson's speed, accepting what the json module accepts (``NaN``
    and ``Infinity`` literals included). An integer beyond 64 bits reads as the nearest double,
    as JavaScript's ``JSON.parse`` (the reference's reader) reads it.

    :raises json.JSONDecodeError: for text that is not JSON.
    """
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # NaN literals and other json-module extensions
        return json.loads(text)


converter.register_unstructure_hook(Scorecard, scorecard_to_wire)


def scoring_inputs_to_wire(inputs: ScoringInputs | Mapping[str, Any]) -> dict[str, Any]:
    """Wire-shape dict of scoring inputs; a mapping is returned as a plain dict unchanged."""
    if isinstance(inputs, Mapping):
        return dict(inputs)
    if isinstance(inputs, ScoringInputs):
        return converter.unstructure(inputs)  # type: ignore[no-any-return]
    raise AssayError(
        ErrorCode.MALFORMED_INPUT,
        f"scoring inputs must be a ScoringInputs or a JSON object, not {type(inputs).__name__}",
    )


def scoring_inputs_from_wire(data: Mapping[str, Any]) -> ScoringInputs:
    """Typed :class:`ScoringInputs` from a wire-shape dict (unknown keys are ignored).

    :raises AssayError: ``MALFORMED_INPUT`` naming the field that could not be read.
    """
    try:
        return converter.structure(dict(data), ScoringInputs)
    except cattrs.BaseValidationError as exc:
        raise _structure_error(exc, "scoring inputs") from exc


def _structure_error(exc: cattrs.BaseValidationError, what: str) -> AssayError:
    """An AssayError naming the first field cattrs could not read, in wire notation."""
    problems = cattrs.transform_error(exc, path="$")
    first = problems[0] if problems else str(exc)
    message, _, where = first.partition(" @ ")
    path = where.removeprefix("$").removeprefix(".") or None
    return AssayError(ErrorCode.MALFORMED_INPUT, f"cannot read {what}: {message}", path)


_CONFIG_FIELDS = {
    "preset": "preset",
    "weights": "weights",
    "actionPolicy": "action_policy",
    "signalPolicy": "signal_policy",
    "validation": "validation",
}


def scoring_config_to_wire(config: ScoringConfig | Mapping[str, Any] | None) -> dict[str, Any]:
    """Wire-shape dict of a scoring config (sections flattened to top-level keys)."""
    if config is None:
        return {}
    if isinstance(config, Mapping):
        return dict(config)
    if not isinstance(config, ScoringConfig):
        raise AssayError(
            ErrorCode.INVALID_CONFIG,
            f"config must be a ScoringConfig or a JSON object, not {json_kind(config)}",
            "config",
        )
    wire: dict[str, Any] = {}
    for key, attr in _CONFIG_FIELDS.items():
        value = getattr(config, attr)
        if value is not None:
            wire[key] = converter.unstructure(value)
    for key, section in config.sections.items():
        wire[key] = dict(section)
    return wire


def scoring_config_from_wire(data: Mapping[str, Any]) -> ScoringConfig:
    """Typed :class:`ScoringConfig` from a wire-shape dict; unknown keys become sections."""
    try:
        kwargs: dict[str, Any] = {}
        sections: dict[str, Any] = {}
        for key, value in data.items():
            if key == "actionPolicy":
                kwargs["action_policy"] = converter.structure(value, ActionPolicyConfig)
            elif key == "signalPolicy":
                kwargs["signal_policy"] = converter.structure(value, SignalPolicyConfig)
            elif key in _CONFIG_FIELDS:
                kwargs[_CONFIG_FIELDS[key]] = value
            else:
                sections[key] = value
        return ScoringConfig(**kwargs, sections=sections)
    except (cattrs.BaseValidationError, TypeError, ValueError) as exc:
        raise AssayError(ErrorCode.INVALID_CONFIG, f"cannot read config: {exc}") from exc
