"""Public helpers that define what the scorecard's input signals mean.

They are shared by the core's input checks and signal policy and by dimension plugins, so that
"a finite number", "a valid claim summary" and "a dated candidate" mean the same everywhere.
All follow the reference implementation's JavaScript semantics.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from assay import AssayError, ErrorCode, ScoreWarning
from assay.wire import to_camel

DOCUMENTS_SILENT = ScoreWarning(
    "documents-silent", "warn", "Source documents do not address this question.", "documentsSilent"
)
"""Raised by the core's input checks and by the grounding dimension; one text, so the scorecard
keeps it once."""
MISSING_CANDIDATES = ScoreWarning(
    "missing-candidates", "warn", "No retrieved candidates were provided.", "candidates"
)
"""Raised by the core's input checks and by the retrieval dimension; one text, kept once."""

__all__ = [
    "DOCUMENTS_SILENT",
    "MISSING_CANDIDATES",
    "SIMILAR_ENOUGH",
    "claim_support_problem",
    "closest_name",
    "is_finite_number",
    "is_number",
    "js_truthy",
    "json_kind",
    "resolve_score_bands",
    "timestamp_ms",
]


_BIG = 1 << 1000  # ints below this in magnitude are finite as doubles (math.isfinite is exact)


def is_number(value: Any) -> bool:
    """JavaScript ``typeof value === "number"``: int or float, not bool."""
    kind = type(value)
    if kind is float or kind is int:
        return True
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_finite_number(value: Any) -> bool:
    """A number that is neither NaN nor infinite."""
    kind = type(value)
    if kind is float:
        finite: bool = value - value == 0  # NaN and the infinities give NaN
        return finite
    if kind is int and -_BIG < value < _BIG:
        return True
    try:
        return is_number(value) and math.isfinite(value)
    except OverflowError:  # an integer beyond float range
        return False


def js_truthy(value: Any) -> bool:
    """JavaScript truthiness: ``None``, ``False``, ``0``, ``""`` and NaN are falsy."""
    if value is None or value is False or value == "":
        return False
    if is_number(value):
        return value != 0 and not math.isnan(value)
    return True


SIMILAR_ENOUGH = 0.75
"""How alike (difflib's ratio, 0-1) a name must be to a known one to be suggested: a letter
dropped, added or swapped in a name of four or more letters stays at or above it (``suportLevel``
scores 0.96 against ``supportLevel``); two different words sharing a suffix stay below it
(``confidenceLevel`` scores 0.44)."""


def _folded(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


def closest_name(name: str, known: Iterable[str]) -> str | None:
    """The known name ``name`` was most likely meant to be, or ``None`` when none is close.

    Tried in order: the camelCase spelling of a snake_case or kebab-case name
    (``support_level`` -> ``supportLevel``); the same letters in another case or without
    separators (``SupportLevel``, ``High`` -> ``high``); else the most similar known name
    (difflib, case-insensitive) when it is at least :data:`SIMILAR_ENOUGH` alike. Deterministic:
    ties go to the name that sorts first.
    """
    return _closest_name(name, known if isinstance(known, frozenset) else frozenset(known))


@lru_cache(maxsize=1024)
def _closest_name(name: str, known: frozenset[str]) -> str | None:
    """:func:`closest_name`, kept per (name, known names): a batch repeats its typos."""
    names = sorted(known)
    camel = to_camel(name.replace("-", "_"))
    if camel != name and camel in names:
        return camel
    folded = {_folded(n): n for n in reversed(names)}  # the first in sort order wins
    hit = folded.get(_folded(name))
    if hit is not None:
        return hit
    target = name.lower()
    best: str | None = None
    best_ratio = SIMILAR_ENOUGH
    for candidate in names:  # in sort order: the first of equally close names stays
        ratio = difflib.SequenceMatcher(None, target, candidate.lower()).ratio()
        if ratio > best_ratio or (best is None and ratio == best_ratio):
            best, best_ratio = candidate, ratio
    return best


def _is_count(value: Any) -> bool:
    if type(value) is int and 0 <= value < _BIG:  # the common case, decided without a float
        return True
    return is_finite_number(value) and value >= 0 and float(value).is_integer()


def claim_support_problem(claim_support: Any) -> str | None:
    """Why a ``claimSupport`` object is invalid (the reference's message), or ``None`` if valid.

    Valid: ``totalClaims``, ``supportedClaims``, ``contradictedClaims`` (default 0) and
    ``unsupportedClaims`` (when present) are non-negative integers, ``totalClaims > 0``,
    ``supported + contradicted <= total`` and ``supported + unsupported + contradicted <= total``.
    """
    if not isinstance(claim_support, Mapping):
        return "Claim support counts should be finite non-negative integers."
    total: Any = claim_support.get("totalClaims")
    supported: Any = claim_support.get("supportedClaims")
    contradicted: Any = claim_support.get("contradictedClaims", 0)
    counts = [total, supported, contradicted]
    if "unsupportedClaims" in claim_support:
        counts.append(claim_support["unsupportedClaims"])
    for count in counts:
        if not _is_count(count):
            return "Claim support counts should be finite non-negative integers."
    if total <= 0:
        return "claimSupport.totalClaims must be greater than 0."
    if supported + contradicted > total:
        return "claimSupport supportedClaims + contradictedClaims cannot exceed totalClaims."
    unsupported = claim_support.get("unsupportedClaims", 0)
    if supported + unsupported + contradicted > total:
        return (
            "claimSupport supportedClaims + unsupportedClaims + contradictedClaims cannot "
            "exceed totalClaims."
        )
    return None


def timestamp_ms(value: Any) -> float | None:
    """Milliseconds since the epoch of a date signal, or ``None`` when it is not a date.

    Accepts a :class:`datetime` (naive ones are taken as UTC) or an ISO-8601 string (``Z`` or an
    offset; a date-only string is midnight UTC). Returns NaN for a string that is not a valid date
    (the reference's ``Invalid Date``). Numbers, ``None`` and other types are not dates.
    Timestamps are truncated to whole milliseconds, as JavaScript dates are.
    """
    if type(value) is str:
        known = _PARSED.get(value)
        if known is not None:
            return known
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            return math.nan
        stamp = _epoch_ms(moment)
        if len(_PARSED) >= 4096:  # a bounded memo: dates repeat across candidates and answers
            _PARSED.clear()
        _PARSED[value] = stamp
        return stamp
    if isinstance(value, datetime):
        return _epoch_ms(value)
    if isinstance(value, str):  # a str subclass: read as its text
        return timestamp_ms(str(value))
    return None


_PARSED: dict[str, float] = {}
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _epoch_ms(moment: datetime) -> float:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    delta = moment - _EPOCH
    return float(delta.days * 86_400_000 + delta.seconds * 1000 + delta.microseconds // 1000)


def resolve_score_bands(
    overrides: Any, path: str, defaults: Mapping[str, float]
) -> dict[str, float]:
    """``full`` / ``high`` / ``medium`` / ``low`` score bands: ``defaults`` merged with the
    configured ``overrides`` (a partial object), validated as the reference validates them:
    every value (extra keys too) a finite number, and ``full >= high >= medium >= low``.

    :raises AssayError: ``INVALID_CONFIG`` at ``path`` (or ``path.key`` for a bad value).
    """
    bands = dict(defaults)
    if overrides is not None:
        if not isinstance(overrides, Mapping):
            raise AssayError(ErrorCode.INVALID_CONFIG, "scoreBands must be an object", path)
        bands.update(overrides)
    for key, value in bands.items():
        if not is_finite_number(value):
            raise AssayError(
                ErrorCode.INVALID_CONFIG,
                f"band must be a finite number, got {value!r}",
                f"{path}.{key}",
            )
    if not bands["full"] >= bands["high"] >= bands["medium"] >= bands["low"]:
        raise AssayError(
            ErrorCode.INVALID_CONFIG, "bands must satisfy full >= high >= medium >= low", path
        )
    return bands


def json_kind(value: Any) -> str:
    """What a wrong value is, in the JSON terms of the record (``null``, ``the number 3``,
    ``the string '0.9'``, ``an object``, ...), not Python's (``NoneType``, ``str``); a value JSON has
    no name for by its Python type (``set``, ``ndarray``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        shown = repr(value) if len(value) <= 40 else repr(value[:37]) + "..."
        return f"the string {shown}"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list):
        return "an array"
    return type(value).__name__
