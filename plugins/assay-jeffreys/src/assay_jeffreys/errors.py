"""The gate's stable error codes (those of bayesoutputgate), raised as :class:`assay.AssayError`.

Callers branch on ``error.code``, never on the message text.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Mapping
from typing import Any, NoReturn

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
    "refuse_unknown_fields",
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


def refuse_unknown_fields(data: Mapping[Any, Any], known: Collection[str], path: str) -> None:
    """Raise ``INVALID_CONFIG`` at ``path`` when ``data`` has a key outside ``known``, naming
    each such key with the closest known one (a likely typo) and the known keys."""
    unknown = sorted(str(k) for k in data if k not in known)
    if not unknown:
        return
    hints = []
    for key in unknown:
        close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.6)
        hints.append(f"{key!r} (did you mean {close[0]!r}?)" if close else repr(key))
    fail(
        INVALID_CONFIG,
        f"unknown field(s) {', '.join(hints)}; known: {', '.join(sorted(known))}",
        path,
    )
