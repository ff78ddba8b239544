"""Validation of numbers at the edges, shared by the plugin's modules."""

from __future__ import annotations

import json
import math
from typing import Any

import assay

__all__ = [
    "config_number",
    "finite_input",
    "is_finite_number",
    "parse_json_text",
    "read_json",
    "score_input",
    "show",
]


def is_finite_number(value: Any) -> bool:
    """An int or float (not a bool) that is finite as a float: an int beyond float range is
    not (``math.isfinite`` would raise ``OverflowError`` on it)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


_is_finite_number = is_finite_number


def show(value: Any) -> str:
    """``repr(value)`` for a message, shortened; safe for ints over the 4,300-digit limit."""
    try:
        text = repr(value)
    except ValueError:
        return f"<an integer of about {value.bit_length() * 0.30103:.0f} digits>"
    return text if len(text) <= 80 else text[:77] + "..."


def config_number(value: Any, path: str, low: float = 0.0, high: float = 1.0) -> float:
    """``value`` as a float when it is a finite number in ``[low, high]``.

    :raises assay.AssayError: ``INVALID_CONFIG`` at ``path`` otherwise.
    """
    if not _is_finite_number(value) or not low <= value <= high:
        raise assay.AssayError(
            assay.ErrorCode.INVALID_CONFIG,
            f"must be a number in [{low:g}, {high:g}], got {show(value)}",
            path,
        )
    return float(value)


def finite_input(value: Any, path: str) -> float:
    """``value`` as a float when it is a finite number.

    :raises assay.AssayError: ``INVALID_INPUT`` at ``path`` otherwise.
    """
    if not _is_finite_number(value):
        raise assay.AssayError(
            assay.ErrorCode.INVALID_INPUT, f"expected a finite number, got {show(value)}", path
        )
    return float(value)


def score_input(value: Any, path: str) -> float:
    """``value`` as a float when it is a quality score: a finite number in [0, 1].

    :raises assay.AssayError: ``INVALID_INPUT`` at ``path`` otherwise.
    """
    score = finite_input(value, path)
    if not 0.0 <= score <= 1.0:
        raise assay.AssayError(
            assay.ErrorCode.INVALID_INPUT, f"a quality score must be in [0, 1], got {score:g}", path
        )
    return score


def parse_json_text(text: str, path: str) -> Any:
    """``json.loads(text)``, every failure a ``MALFORMED_INPUT`` error at ``path`` (not JSON,
    nested too deeply, an integer over Python's 4,300-digit limit)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        message = f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
    except RecursionError:
        message = "not usable JSON: nested too deeply"
    except ValueError:
        message = "not usable JSON: a number has too many digits"
    raise assay.AssayError(assay.ErrorCode.MALFORMED_INPUT, message, path)


def read_json(path: str) -> Any:
    """The JSON document of file ``path`` (``-``: standard input).

    :raises assay.AssayError: ``IO_ERROR`` when unreadable, ``MALFORMED_INPUT`` otherwise.
    """
    from assay.cli import read_text_input

    return parse_json_text(read_text_input(path), path)
