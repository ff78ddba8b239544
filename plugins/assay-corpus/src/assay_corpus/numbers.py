"""Number tests with JavaScript's semantics, shared by the corpus and index integrity dimensions."""

from __future__ import annotations

import math
from typing import Any

from assay_scorecard.signals import is_finite_number

__all__ = ["is_integer", "js_min"]


def is_integer(value: Any) -> bool:
    """JavaScript ``Number.isInteger``: a finite number with no fractional part (2.0 counts)."""
    return is_finite_number(value) and float(value).is_integer()


def js_min(a: float, b: float) -> float:
    """``Math.min(a, b)``: NaN when either is NaN (Python's ``min`` depends on argument order)."""
    if math.isnan(a) or math.isnan(b):
        return math.nan
    return a if a <= b else b
