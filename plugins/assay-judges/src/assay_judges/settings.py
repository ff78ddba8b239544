"""Reading judge settings from configuration and the environment, with coded errors."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlparse

import assay
from assay_evaluation import EvaluationErrorCode as Code
from assay_evaluation import snake_case
from assay_judges.http import DEFAULT_MAX_RESPONSE_BYTES

__all__ = [
    "MAX_RESPONSE_BYTES",
    "MAX_RETRIES",
    "MAX_TIMEOUT",
    "MAX_TOKENS",
    "JudgeSettings",
    "read_settings",
]

_KNOWN = {
    "model",
    "base_url",
    "api_key",
    "api_key_env",
    "timeout",
    "retries",
    "max_tokens",
    "temperature",
    "max_response_bytes",
}

MAX_TIMEOUT = 3600.0
"""The longest per-attempt deadline accepted, in seconds."""
MAX_RETRIES = 10
"""The most retries accepted."""
MAX_TOKENS = 1_000_000
"""The largest ``maxTokens`` accepted."""
MAX_RESPONSE_BYTES = 256 * 1024 * 1024
"""The largest ``maxResponseBytes`` accepted (the default is 8 MiB)."""


class JudgeSettings(dict[str, Any]):
    """Validated settings: ``model``, ``base_url``, ``api_key`` (may be ``None``), ``timeout``,
    ``retries``, ``max_tokens``, ``temperature``, ``max_response_bytes``."""


def _fail(message: str, field: str) -> assay.AssayError:
    return assay.AssayError(Code.JUDGE_MISCONFIGURED, message, f"judge.{field}")


def read_settings(
    settings: Mapping[str, Any],
    *,
    provider: str,
    default_base_url: str,
    key_env: str,
    base_url_env: str,
    key_required: bool,
    env: Mapping[str, str] | None = None,
) -> JudgeSettings:
    """Merge ``settings`` (snake_case or camelCase keys) with the environment and validate.

    ``model`` comes from the settings or ``ASSAY_JUDGE_MODEL``; ``base_url`` from the settings,
    ``base_url_env`` or ``default_base_url``; the key from ``api_key``, else the variable named by
    ``api_key_env`` (default ``key_env``).

    :raises assay.AssayError: ``JUDGE_MISCONFIGURED`` (path ``judge.<field>``) for an unknown
        setting, no model, a base URL that is not http(s), a missing required key, or a timeout,
        retry count or token limit out of range.
    """
    env = os.environ if env is None else env
    raw = {snake_case(str(k)): v for k, v in settings.items()}
    unknown = sorted(set(raw) - _KNOWN)
    if unknown:
        raise _fail(f"unknown {provider} judge setting(s): {', '.join(unknown)}", unknown[0])
    model = raw.get("model") or env.get("ASSAY_JUDGE_MODEL")
    if not isinstance(model, str) or not model:
        raise _fail(f"the {provider} judge needs a model (setting or ASSAY_JUDGE_MODEL)", "model")
    base_url = raw.get("base_url") or env.get(base_url_env) or default_base_url
    parsed = urlparse(str(base_url))
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise _fail(f"base URL must be an http(s) URL, got {base_url!r}", "baseUrl")
    key_variable = raw.get("api_key_env") or key_env
    api_key = raw.get("api_key") or env.get(str(key_variable)) or None
    if key_required and not api_key:
        raise _fail(
            f"the {provider} judge needs an API key: set {key_variable} or apiKey", "apiKey"
        )
    timeout = raw.get("timeout", 60.0)
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, int | float)
        or not 0 < timeout <= MAX_TIMEOUT
    ):
        raise _fail(
            f"timeout must be a number of seconds in (0, {MAX_TIMEOUT:g}], got {timeout!r}",
            "timeout",
        )
    bounds = {
        "retries": (2, 0, MAX_RETRIES, "retries"),
        "max_tokens": (1024, 1, MAX_TOKENS, "maxTokens"),
        "max_response_bytes": (
            DEFAULT_MAX_RESPONSE_BYTES,
            1024,
            MAX_RESPONSE_BYTES,
            "maxResponseBytes",
        ),
    }
    for field, (default, low, high, wire) in bounds.items():
        value = raw.get(field, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise _fail(f"{wire} must be an integer in [{low}, {high}], got {value!r}", wire)
    temperature = raw.get("temperature", 0.0)
    if (
        isinstance(temperature, bool)
        or not isinstance(temperature, int | float)
        or not math.isfinite(temperature)
        or not 0 <= temperature <= 2
    ):
        raise _fail(f"temperature must be a number in [0, 2], got {temperature!r}", "temperature")
    return JudgeSettings(
        model=model,
        base_url=str(base_url).rstrip("/"),
        api_key=api_key,
        timeout=float(timeout),
        retries=raw.get("retries", 2),
        max_tokens=raw.get("max_tokens", 1024),
        temperature=float(temperature),
        max_response_bytes=raw.get("max_response_bytes", DEFAULT_MAX_RESPONSE_BYTES),
    )
