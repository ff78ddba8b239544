"""Distance functions on the decision field (the specification's "Scoring").

A distance takes two decision values (the baseline's and a variant's) and returns a number in
[0, 1]: 0 means "same decision", 1 means "entirely different". The runner never names a distance
function directly: it looks one up in the registry under the kind ``"distance"`` by the name the
configuration gives (by default the decision type), so a better distance can be registered
without changing the runner.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

__all__ = [
    "DISTANCE_KIND",
    "Distance",
    "enum_distance",
    "exact_distance",
    "is_finite_number",
    "numeric_distance",
    "string_distance",
]

DISTANCE_KIND = "distance"
"""Registry kind under which distance functions are registered."""

Distance = Callable[[Any, Any], float]
"""``distance(baseline, perturbed) -> float`` in [0, 1]."""


def is_finite_number(value: Any) -> bool:
    """An ``int`` or ``float`` (not a ``bool``) that is finite."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer too large for a float
        return False


def enum_distance(a: Any, b: Any) -> float:
    """0 if ``a == b`` else 1 (enum decisions: labels such as ``"approve"`` / ``"deny"``)."""
    return 0.0 if a == b else 1.0


def string_distance(a: Any, b: Any) -> float:
    """0 if ``a == b`` else 1 (free-text decisions compared exactly, as the specification says)."""
    return 0.0 if a == b else 1.0


def exact_distance(a: Any, b: Any) -> float:
    """0 if ``a == b`` else 1, numbers compared by value (``1984 == 1984.0``).

    For numeric decisions where any change is a change (years, ids, counts): the ``numeric``
    distance is relative to the numbers' size, so 1984 against 1991 is only 7 / 1991 = 0.0035.
    """
    return 0.0 if a == b else 1.0


def numeric_distance(a: Any, b: Any) -> float:
    """``min(1, |a - b| / max(|a|, |b|, 1))``: the gap relative to the larger size, for amounts
    whose size matters (a price, a score); for years, ids or counts use :func:`exact_distance`.

    :raises TypeError: when either value is not a finite number (booleans are not numbers here);
        the runner validates decisions before scoring, so this signals a programming error.
    """
    for value in (a, b):
        if not is_finite_number(value):
            raise TypeError(f"numeric distance needs finite numbers, got {value!r}")
    return float(min(1.0, abs(a - b) / max(abs(a), abs(b), 1.0)))
