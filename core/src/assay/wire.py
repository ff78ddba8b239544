"""The converter machinery between assay's frozen records and camelCase JSON wire shapes.

Serialization rules live here, not in the classes: snake_case attribute names become camelCase
keys (:func:`to_camel`); a job plugin registers its own records on the one :data:`converter`
with :func:`register_camel`. Non-finite numbers, which JSON cannot carry, are written as
``{"$float": "NaN" | "Infinity" | "-Infinity"}`` by :func:`to_json_safe` or as ``null`` on
request.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from assay._records import DimensionScore, ScoreWarning

__all__ = [
    "converter",
    "from_json_safe",
    "register_camel",
    "to_camel",
    "to_json_safe",
    "to_wire",
    "wire_number",
]


def to_camel(name: str) -> str:
    """``uncapped_raw`` -> ``uncappedRaw``."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


converter = cattrs.Converter()
converter.register_unstructure_hook(datetime, lambda d: d.isoformat())
converter.register_structure_hook(datetime, lambda v, _: datetime.fromisoformat(v))


def register_camel(cls: type, *, omit_none: bool = True, skip: tuple[str, ...] = ()) -> None:
    """Register ``cls`` (an attrs class) on :data:`converter` with camelCase keys.

    Register leaf classes first: a generated hook captures the hooks of its fields' classes.

    :param omit_none: drop optional fields left at their default (``None`` = not provided);
        required fields have no default and are always written.
    :param skip: attribute names left out of the wire shape (a ``sections`` mapping, say).
    """
    overrides: dict[str, Any] = {  # Any: mypy would match the values to the bool parameters
        f.name: override(rename=to_camel(f.name), omit_if_default=omit_none)
        for f in attrs.fields(cls)
        if f.name not in skip
    }
    unstructure: Any = make_dict_unstructure_fn(cls, converter, **overrides)
    converter.register_unstructure_hook(cls, unstructure)
    converter.register_structure_hook(
        cls, make_dict_structure_fn(cls, converter, _cattrs_forbid_extra_keys=False, **overrides)
    )


def wire_number(value: Any) -> Any:
    """An integral float as an int (25.0 -> 25), as JavaScript writes numbers."""
    if type(value) is float and value.is_integer():
        return int(value)
    return value


def _numbers(mapping: Mapping[str, Any]) -> dict[str, Any]:
    # a copy (in C), then only the floats rewritten: most values are ints and strings, and this
    # runs for every map of every dimension score written
    wire = dict(mapping)
    for key, value in mapping.items():
        if type(value) is float:
            wire[key] = wire_number(value)
    return wire


def dimension_score_to_wire(score: DimensionScore) -> dict[str, Any]:
    """A :class:`~assay.DimensionScore` in its wire shape (``warnings`` omitted when ``None``)."""
    breakdown = score.breakdown
    n = wire_number
    wire: dict[str, Any] = {
        "raw": n(score.raw),
        "max": n(score.max),
        "normalized": n(score.normalized),
        "explanation": score.explanation,
        "breakdown": {
            "components": _numbers(breakdown.components),
            "adjustments": _numbers(breakdown.adjustments),
            "diagnostics": _numbers(breakdown.diagnostics),
            "uncappedRaw": n(breakdown.uncapped_raw),
            "raw": n(breakdown.raw),
        },
    }
    if score.warnings is not None:
        wire["warnings"] = [warning_to_wire(w) for w in score.warnings]
    return wire


def warning_to_wire(warning: ScoreWarning) -> dict[str, Any]:
    """A :class:`~assay.ScoreWarning` in its wire shape."""
    return {
        "code": warning.code,
        "severity": warning.severity,
        "message": warning.message,
        "path": warning.path,
    }


converter.register_unstructure_hook(DimensionScore, dimension_score_to_wire)
converter.register_unstructure_hook(ScoreWarning, warning_to_wire)


def to_wire(record: Any) -> Any:
    """Any registered assay record in its camelCase wire shape, through the one converter."""
    return converter.unstructure(record)


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
