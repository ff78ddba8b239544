"""Number helpers that reproduce JavaScript's arithmetic exactly.

Wire formats defined by a JavaScript implementation round and print numbers the JavaScript way;
these helpers give the same results in Python, so that every machine-readable field matches
what that implementation writes.
"""

from __future__ import annotations

import math

__all__ = ["js_number", "js_round", "round_to", "to_fixed"]


def js_round(x: float) -> float:
    """JavaScript ``Math.round``: nearest integer, halves towards +infinity; NaN/inf pass through."""
    if not math.isfinite(x):
        return x
    floor = math.floor(x)
    return float(floor + 1) if x - floor >= 0.5 else float(floor)


def round_to(x: float, digits: int) -> float:
    """``Math.round(x * 10**digits) / 10**digits`` with the product taken in binary64 first."""
    scale = 10.0**digits
    scaled = x * scale
    if scaled - scaled != 0:  # NaN or an infinity: passes through, as in JavaScript
        return scaled / scale
    floor = math.floor(scaled)
    return (floor + 1 if scaled - floor >= 0.5 else floor) / scale


def to_fixed(x: float, digits: int) -> float:
    """JavaScript ``Number(x.toFixed(digits))``: the exact binary value rounded half away from 0.

    Python's ``round`` already rounds the exact binary value, but halves to even; the two differ
    only on exact ties (0.03125 -> 0.0313 here, 0.0312 with ``round``), which are decided
    exactly with :class:`~decimal.Decimal` on the rare path.
    """
    if not math.isfinite(x) or abs(x) >= 1e21:  # toFixed writes these as String(x)
        return x
    scaled = abs(x) * 10.0**digits
    if abs(scaled - math.floor(scaled) - 0.5) > 1e-6:
        return round(x, digits)
    from decimal import ROUND_HALF_UP, Decimal  # the rare path: not imported with assay

    quantum = Decimal(1).scaleb(-digits)
    return float(Decimal(x).quantize(quantum, rounding=ROUND_HALF_UP))


def js_number(x: float | int) -> str:
    """Format a number the way JavaScript's ``String(x)`` does for ordinary values (70, 65.5)."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == int(x) and abs(x) < 1e21:
        return str(int(x))
    return repr(x)


def js_to_number(value: object) -> float:
    """JavaScript ``Number(value)`` for the values configs carry: numbers as is, ``None`` -> 0,
    booleans -> 0/1, numeric strings parsed (blank -> 0), anything else NaN."""
    if value is None or value is False:
        return 0.0
    if value is True:
        return 1.0
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return 0.0
        try:
            return float(text)
        except ValueError:
            return math.nan
    return math.nan
