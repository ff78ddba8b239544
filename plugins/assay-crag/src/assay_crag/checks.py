"""Validation of numbers at the edges, shared by the plugin's modules."""

from __future__ import annotations

import math
from typing import Any

import assay

__all__ = ["config_number", "finite_input"]


def _is_finite_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def config_number(value: Any, path: str, low: float = 0.0, high: float = 1.0) -> float:
    """``value`` as a float when it is a finite number in ``[low, high]``.

    :raises assay.AssayError: ``INVALID_CONFIG`` at ``path`` otherwise.
    """
    if not _is_finite_number(value) or not low <= value <= high:
        raise assay.AssayError(
            assay.ErrorCode.INVALID_CONFIG,
            f"must be a number in [{low:g}, {high:g}], got {value!r}",
            path,
        )
    return float(value)


def finite_input(value: Any, path: str) -> float:
    """``value`` as a float when it is a finite number.

    :raises assay.AssayError: ``INVALID_INPUT`` at ``path`` otherwise.
    """
    if not _is_finite_number(value):
        raise assay.AssayError(
            assay.ErrorCode.INVALID_INPUT, f"expected a finite number, got {value!r}", path
        )
    return float(value)
