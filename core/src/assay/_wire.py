"""The one converter between assay's frozen records and the seeds' camelCase JSON wire shapes.

Serialization rules live here, not in the classes: snake_case attribute names become camelCase
keys; ``None`` input fields are omitted (absent = not provided); a dimension whose ``warnings``
is ``None`` omits the key. Non-finite numbers, which JSON cannot carry, are written as
``{"$float": "NaN" | "Infinity" | "-Infinity"}`` by :func:`to_json_safe` (the conformance
vectors' convention) or as ``null`` on request.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

import attrs
import cattrs
import orjson
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from assay._accel import load_speedups
from assay._errors import AssayError, ErrorCode
from assay._scorecard.types import (
    ActionPolicyConfig,
    Candidate,
    ClaimSupport,
    DimensionScore,
    IndexIntegrityInputs,
    Scorecard,
    ScoreWarning,
    ScoringConfig,
    ScoringInputs,
    SignalPolicyConfig,
)

__all__ = [
    "converter",
    "from_json_safe",
    "scorecard_to_json",
    "scorecard_to_wire",
    "scoring_config_from_wire",
    "scoring_config_to_wire",
    "scoring_inputs_from_wire",
    "scoring_inputs_to_wire",
    "to_camel",
    "to_json_safe",
    "to_wire",
]


def to_camel(name: str) -> str:
    """``require_tier1_at_least`` -> ``requireTier1AtLeast``."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


converter = cattrs.Converter()
converter.register_unstructure_hook(datetime, lambda d: d.isoformat())
converter.register_structure_hook(datetime, lambda v, _: datetime.fromisoformat(v))

# Leaf classes first: a generated hook captures the hooks of its fields' classes when made.
_OMIT_NONE = (
    Candidate,
    ClaimSupport,
    IndexIntegrityInputs,
    ScoringInputs,
    ActionPolicyConfig,
    SignalPolicyConfig,
)


def _camel_overrides(cls: type, omit_none: bool) -> dict[str, Any]:
    return {
        f.name: override(rename=to_camel(f.name), omit_if_default=omit_none)
        for f in attrs.fields(cls)
        if f.name != "sections"
    }


def _register(cls: type, omit_none: bool, *, skip: tuple[str, ...] = ()) -> None:
    overrides = _camel_overrides(cls, omit_none)
    for name in skip:
        overrides[name] = override(omit=True)
    # omit_if_default drops optional fields left at their default (None = not provided);
    # required fields have no default and are always written.
    unstructure: Any = make_dict_unstructure_fn(cls, converter, **overrides)
    converter.register_unstructure_hook(cls, unstructure)
    converter.register_structure_hook(
        cls,
        make_dict_structure_fn(
            cls,
            converter,
            _cattrs_forbid_extra_keys=False,
            **{k: v for k, v in overrides.items() if k not in skip},
        ),
    )


for _cls in _OMIT_NONE:
    _register(_cls, omit_none=True)


def _n(value: Any) -> Any:
    """An integral float as an int (25.0 -> 25), as the reference emits numbers."""
    if type(value) is float and value.is_integer():
        return int(value)
    return value


def _numbers(mapping: Mapping[str, Any]) -> dict[str, Any]:
    return {key: _n(value) for key, value in mapping.items()}


def _unstructure_dimension(score: DimensionScore) -> dict[str, Any]:
    breakdown = score.breakdown
    wire: dict[str, Any] = {
        "raw": _n(score.raw),
        "max": _n(score.max),
        "normalized": _n(score.normalized),
        "explanation": score.explanation,
        "breakdown": {
            "components": _numbers(breakdown.components),
            "adjustments": _numbers(breakdown.adjustments),
            "diagnostics": _numbers(breakdown.diagnostics),
            "uncappedRaw": _n(breakdown.uncapped_raw),
            "raw": _n(breakdown.raw),
        },
    }
    if score.warnings is not None:
        wire["warnings"] = [_warning(w) for w in score.warnings]
    return wire


def _warning(warning: Any) -> dict[str, Any]:
    return {
        "code": warning.code,
        "severity": warning.severity,
        "message": warning.message,
        "path": warning.path,
    }


def _tier(tier: Any) -> dict[str, Any] | None:
    if tier is None:
        return None
    return {"score": _n(tier.score), "label": tier.label, "color": tier.color}


def scorecard_to_wire(scorecard: Scorecard) -> dict[str, Any]:
    """The scorecard in the seed's wire shape, keys in the reference's emitted order; integral
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
            name: _unstructure_dimension(dim) for name, dim in scorecard.dimensions.items()
        },
        "meta": {
            "algorithmVersion": meta.algorithm_version,
            "schemaVersion": meta.schema_version,
            "rawTotal": _n(meta.raw_total),
            "maxPossible": _n(meta.max_possible),
            "activeExtensions": list(meta.active_extensions),
            "activeDimensions": list(meta.active_dimensions),
            "missingSignals": list(meta.missing_signals),
            "warnings": [_warning(w) for w in meta.warnings],
            "weights": _numbers(meta.weights),
        },
    }


def scorecard_to_json(scorecard: Scorecard, *, indent: int | None = None) -> str:
    """The wire shape as JSON text; non-finite numbers (only from NaN inputs) are written
    ``{"$float": "NaN"}``.

    Without ``indent`` the text is compact (no spaces), one line, written by orjson in the
    common case; with ``indent`` it is pretty-printed by the json module.
    """
    if indent is None and _scorecard_json is not None:
        text = _scorecard_json(scorecard)
        if text is not None:
            return text
    return wire_to_json(scorecard_to_wire(scorecard), indent=indent)


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


PURE_SCORECARD_TO_WIRE = scorecard_to_wire
"""The pure-Python reference of :func:`scorecard_to_wire`; the compiled twin must match it."""

PURE_ALL_FINITE = all_finite
"""The pure-Python reference of :func:`all_finite`."""

_speedups = load_speedups("assay._scorecard._speedups")
# the compiled direct writer of a scorecard's JSON text (None: the wire dict + orjson path)
_scorecard_json: Callable[[Scorecard], str | None] | None = (
    None if _speedups is None else _speedups.scorecard_json
)
if _speedups is not None:
    scorecard_to_wire = _speedups.scorecard_to_wire
    all_finite = _speedups.all_finite

converter.register_unstructure_hook(Scorecard, scorecard_to_wire)
converter.register_unstructure_hook(DimensionScore, _unstructure_dimension)
converter.register_unstructure_hook(ScoreWarning, _warning)


def to_wire(record: Any) -> Any:
    """Any assay record (scorecard, dimension score, warning, inputs, config, ...) in its
    camelCase wire shape, through the one converter."""
    return converter.unstructure(record)


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
            f"config must be a ScoringConfig or a JSON object, not {type(config).__name__}",
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


_TAGS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def to_json_safe(value: Any, *, nonfinite: str = "tagged") -> Any:
    """A copy of ``value`` that ``json.dumps(allow_nan=False)`` accepts; integral floats
    become ints.

    :param nonfinite: ``"tagged"`` writes ``{"$float": "NaN"}`` (round-trips through
        :func:`from_json_safe`); ``"null"`` writes ``None``.
    """
    if isinstance(value, float):
        if math.isfinite(value):
            # integral numbers print without a fraction, as the reference emits them (25, not 25.0)
            return int(value) if value.is_integer() and abs(value) < 2**53 else value
        if nonfinite == "null":
            return None
        return {
            "$float": "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
        }
    if isinstance(value, Mapping):
        return {k: to_json_safe(v, nonfinite=nonfinite) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json_safe(v, nonfinite=nonfinite) for v in value]
    return value


def from_json_safe(value: Any) -> Any:
    """Inverse of :func:`to_json_safe` with tagged non-finite numbers."""
    if isinstance(value, dict):
        if len(value) == 1 and "$float" in value and value["$float"] in _TAGS:
            return _TAGS[value["$float"]]
        return {k: from_json_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_json_safe(v) for v in value]
    return value
