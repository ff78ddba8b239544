"""Number tests with JavaScript's semantics, shared by the corpus and index integrity dimensions."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["is_integer", "is_number", "js_min"]


def is_number(value: Any) -> bool:
    """A JSON number (``bool`` is not one, although Python makes it an ``int``)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_integer(value: Any) -> bool:
    """JavaScript ``Number.isInteger``: a finite number with no fractional part (2.0 counts)."""
    return is_number(value) and math.isfinite(value) and value == int(value)


def js_min(a: float, b: float) -> float:
    """``Math.min(a, b)``: NaN when either is NaN (Python's ``min`` depends on argument order)."""
    if math.isnan(a) or math.isnan(b):
        return math.nan
    return a if a <= b else b
