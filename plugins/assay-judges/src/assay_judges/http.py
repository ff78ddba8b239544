"""One JSON POST with a timeout and bounded retries, over the standard library's urllib."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any

import attrs

import assay
from assay_evaluation import EvaluationErrorCode as Code

__all__ = ["RETRYABLE_STATUS", "HttpJudgeBase", "post_json"]

RETRYABLE_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
"""HTTP statuses worth retrying (timeouts, rate limits, overload, server errors)."""


def post_json(
    url: str,
    body: Mapping[str, Any],
    headers: Mapping[str, str],
    *,
    timeout: float,
    retries: int,
    backoff: float = 0.5,
    sleep: Callable[[float], None] = time.sleep,
) -> Any:
    """POST ``body`` as JSON to ``url`` and return the decoded JSON response.

    A transport error, a timeout or a retryable status is retried up to ``retries`` times,
    waiting ``backoff * 2**attempt`` seconds between attempts (``sleep`` is injectable; there is
    no jitter, so runs are reproducible).

    :raises assay.AssayError: ``JUDGE_ERROR`` naming the URL and the last failure: a
        non-retryable HTTP status (with the start of the response body), retries exhausted, or
        a response that is not JSON.
    """
    data = json.dumps(body).encode("utf-8")
    request_headers = {"content-type": "application/json", **headers}
    last = "no attempt made"
    for attempt in range(retries + 1):
        if attempt:
            sleep(backoff * 2 ** (attempt - 1))
        request = urllib.request.Request(url, data=data, headers=request_headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                payload = response.read()
        except urllib.error.HTTPError as exc:
            detail = exc.read(300).decode("utf-8", "replace")
            last = f"HTTP {exc.code}: {detail}"
            if exc.code not in RETRYABLE_STATUS:
                break
            continue
        except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as exc:
            last = f"{type(exc).__name__}: {getattr(exc, 'reason', exc)}"
            continue
        try:
            return json.loads(payload)
        except ValueError as exc:
            raise assay.AssayError(
                Code.JUDGE_ERROR, f"{url} answered with something that is not JSON"
            ) from exc
    raise assay.AssayError(
        Code.JUDGE_ERROR, f"POST {url} failed after {attempt + 1} attempt(s): {last}"
    )


@attrs.frozen(kw_only=True)
class HttpJudgeBase:
    """Transport settings shared by the HTTP judges (keyword-only).

    Attributes:
        timeout: seconds per attempt.
        retries: extra attempts on transport errors, timeouts and retryable statuses.
        max_tokens: reply limit.
        temperature: sampling temperature (0 for the most repeatable judge).
        backoff: seconds before the first retry, doubled for each further one.
        sleep: how to wait between retries (injectable; default :func:`time.sleep`).
    """

    timeout: float = 60.0
    retries: int = 2
    max_tokens: int = 1024
    temperature: float = 0.0
    backoff: float = 0.5
    sleep: Callable[[float], None] = attrs.field(default=time.sleep, eq=False, repr=False)

    def post(self, url: str, body: Mapping[str, Any], headers: Mapping[str, str]) -> Any:
        """:func:`post_json` with these settings."""
        return post_json(
            url,
            body,
            headers,
            timeout=self.timeout,
            retries=self.retries,
            backoff=self.backoff,
            sleep=self.sleep,
        )
