"""The gate's stable error codes (those of bayesoutputgate), raised as :class:`assay.AssayError`.

Callers branch on ``error.code``, never on the message text.
"""

from __future__ import annotations

from typing import NoReturn

import assay

__all__ = [
    "INVALID_CONFIG",
    "INVALID_DIMENSION",
    "INVALID_HYPOTHESIS",
    "INVALID_OBSERVATION",
    "INVALID_SCORE",
    "INVALID_SNAPSHOT",
    "INVALID_STATE",
    "NUMERIC",
    "fail",
]

INVALID_CONFIG = "INVALID_CONFIG"
"""A malformed option: a bad policy kind, a negative weight, a non-numeric flag, a bad file."""
INVALID_SCORE = "INVALID_SCORE"
"""A score outside [0, 1], non-finite, a duplicate dimension, a malformed score row."""
INVALID_DIMENSION = "INVALID_DIMENSION"
"""An unknown or invalid dimension (including scores that match no modeled dimension)."""
INVALID_HYPOTHESIS = "INVALID_HYPOTHESIS"
"""A hypothesis label other than ``"high"`` or ``"low"``."""
INVALID_OBSERVATION = "INVALID_OBSERVATION"
"""A malformed labeled observation, a missing label, too few samples for a diagnostic."""
INVALID_STATE = "INVALID_STATE"
"""An operation invalid for the current state (e.g. deciding with a monitor that has no data)."""
INVALID_SNAPSHOT = "INVALID_SNAPSHOT"
"""A malformed model snapshot or audit chain."""
NUMERIC = "NUMERIC"
"""A numeric domain error, e.g. a Beta fit producing non-finite parameters."""


def fail(code: str, message: str, path: str | None = None) -> NoReturn:
    """Raise :class:`assay.AssayError` with ``code``, ``message`` and ``path``."""
    raise assay.AssayError(code, message, path)
