"""Robust parsing of judge replies: JSON (possibly inside a code fence or surrounded by prose)
or a bare number / yes-no. Every parser returns ``None`` for a reply it cannot use."""

from __future__ import annotations

import json
import math
import re
from typing import Any

__all__ = ["parse_claims", "parse_score", "parse_verdict", "parse_verdicts"]

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_SCORE_KEYS = ("score", "rating", "relevance", "value")
_VERDICT_KEYS = ("verdict", "supported", "attributed", "relevant", "useful")
_TRUE = {"yes", "true", "1", "supported", "relevant", "attributed"}
_FALSE = {"no", "false", "0", "unsupported", "irrelevant", "not attributed"}


def _json(text: str) -> Any:
    """The first JSON value found: the whole reply, a fenced block, or the outermost
    ``{...}`` / ``[...]`` span; ``None`` when there is none."""
    stripped = text.strip()
    candidates = [stripped, *(m.group(1).strip() for m in _FENCE.finditer(text))]
    for opening, closing in (("{", "}"), ("[", "]")):
        start, end = stripped.find(opening), stripped.rfind(closing)
        if 0 <= start < end:
            candidates.append(stripped[start : end + 1])
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    return None


def _clamp(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return min(1.0, max(0.0, float(value)))


def parse_score(text: str) -> float | None:
    """A score in [0, 1] from ``{"score": x}`` (or ``rating``/``relevance``/``value``), a JSON
    number, or a bare number (optionally followed by ``.``); clamped to [0, 1]."""
    value = _json(text)
    if isinstance(value, dict):
        for key in _SCORE_KEYS:
            if key in value:
                return _clamp(value[key])
        return None
    if value is not None:
        return _clamp(value)
    stripped = text.strip().rstrip(".")
    return _clamp(float(stripped)) if _NUMBER.fullmatch(stripped) else None


def _truth(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().strip(".").lower()
        return True if word in _TRUE else False if word in _FALSE else None
    if isinstance(value, dict):
        for key in _VERDICT_KEYS:
            if key in value:
                return _truth(value[key])
    return None


def parse_verdict(text: str) -> bool | None:
    """A yes/no verdict from ``{"verdict": 1}`` (or ``supported``/``relevant``/...), a JSON
    boolean or 0/1, or a bare ``yes``/``no``/``1``/``0``."""
    value = _json(text)
    return _truth(value if value is not None else text)


def parse_verdicts(text: str, count: int) -> list[bool] | None:
    """Exactly ``count`` verdicts from a JSON array (of booleans, 0/1, yes/no or objects with a
    verdict key), or from ``{"verdicts": [...]}``; ``None`` for any other shape or length."""
    value = _json(text)
    if isinstance(value, dict):
        value = next((v for v in value.values() if isinstance(v, list)), None)
    if not isinstance(value, list) or len(value) != count:
        return None
    verdicts = [_truth(item) for item in value]
    return None if any(v is None for v in verdicts) else verdicts  # type: ignore[return-value]


def parse_claims(text: str) -> list[str] | None:
    """A list of claim strings from a JSON array of strings or ``{"claims": [...]}``; blank
    claims are dropped."""
    value = _json(text)
    if isinstance(value, dict):
        value = value.get("claims")
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return None
    return [item.strip() for item in value if item.strip()]
