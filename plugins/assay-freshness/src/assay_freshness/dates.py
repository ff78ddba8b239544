"""Reading instants as integer milliseconds since the epoch, the way the reference's ``Date`` does.

An instant is a timezone-aware :class:`datetime.datetime` or an ISO-8601 string (``Z`` or
``+hh:mm`` offset). A value without an offset is read as UTC (the reference ran with
``TZ=UTC``). Sub-millisecond precision is dropped (floored), as a ``Date`` cannot hold it.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

__all__ = ["MS_PER_DAY", "epoch_ms", "is_date_like"]

MS_PER_DAY = 86_400_000
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ONE_MS = timedelta(milliseconds=1)


def is_date_like(value: Any) -> bool:
    """Whether the reference would treat ``value`` as a date: a ``datetime`` or a string
    (an unparsable string is still a date, an invalid one). ``None`` and numbers are not."""
    return isinstance(value, datetime | str)


def epoch_ms(value: datetime | str) -> float:
    """Milliseconds since 1970-01-01T00:00:00Z as an integral float; NaN for an unparsable
    string (an invalid date, which then propagates through the arithmetic)."""
    if isinstance(value, str):
        return _parse_ms(value)
    return float(_datetime_ms(value))


@lru_cache(maxsize=4096)
def _parse_ms(text: str) -> float:
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return math.nan
    return float(_datetime_ms(parsed))


def _datetime_ms(value: datetime) -> int:
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return (value - _EPOCH) // _ONE_MS
