"""JSON wire shapes of the gate's records: camelCase keys, JSON-safe numbers.

One function, :func:`to_wire`, converts any record of :mod:`assay_jeffreys.types` (or
nested lists, tuples and mappings of them): field names become camelCase (or the name in the
field's ``wire`` metadata), ``None`` fields are left out, and non-finite floats become ``None``
(JSON ``null``) so the result always survives ``json.dumps(..., allow_nan=False)``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import attrs

__all__ = ["camel_case", "json_safe", "to_wire"]


def camel_case(name: str) -> str:
    """``"log_bayes_factor"`` -> ``"logBayesFactor"``."""
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def json_safe(value: Any) -> Any:
    """``value`` with every non-finite float replaced by ``None`` (recursively)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


def to_wire(value: Any) -> Any:
    """The JSON wire form of a record (or of a list / mapping of records); see module doc."""
    if attrs.has(type(value)):
        out = {}
        for field in attrs.fields(type(value)):
            item = getattr(value, field.name)
            if item is None:
                continue
            out[field.metadata.get("wire", camel_case(field.name))] = to_wire(item)
        return out
    if isinstance(value, Mapping):
        return {str(k): to_wire(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_wire(v) for v in value]
    return json_safe(value)
