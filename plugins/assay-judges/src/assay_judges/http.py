"""One JSON POST with a total deadline, a response-size cap and bounded retries, over the
standard library's :mod:`http.client`.

The transport is deliberately strict, because a judge's server is outside the evaluation's trust:

* **No redirects with credentials.** A redirect is followed only when it stays on the same origin
  (scheme, host and port) and keeps the method (307 / 308); any other redirect is a judge failure
  (reason ``redirect``): the API key is never sent to another origin and no other server's reply
  is used.
* **A deadline, not a per-read timeout.** ``timeout`` bounds each attempt as a whole (connect,
  send, status line, headers and body): a server trickling one byte at a time cannot hold a call
  past it (reason ``deadline``).
* **A size cap.** A body larger than ``max_response_bytes`` (default
  :data:`DEFAULT_MAX_RESPONSE_BYTES`, 8 MiB) is refused without reading it whole (reason
  ``too-large``).
* **Every malformed reply is a coded failure.** A truncated body, a garbage status line, a body
  that is not JSON or nests too deeply raise ``JUDGE_ERROR`` with ``details["reason"]``, never
  a bare Python exception.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urljoin, urlsplit

import attrs

import assay
from assay_evaluation import EvaluationErrorCode as Code

__all__ = [
    "DEFAULT_MAX_RESPONSE_BYTES",
    "MAX_REDIRECTS",
    "RETRYABLE_STATUS",
    "HttpJudgeBase",
    "post_json",
    "reply_fields",
]

RETRYABLE_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
"""HTTP statuses worth retrying (timeouts, rate limits, overload, server errors)."""

DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024
"""The default cap on a judge's response body: 8 MiB."""

MAX_REDIRECTS = 3
"""Same-origin 307 / 308 redirects followed per attempt at most."""

_CHUNK = 64 * 1024


class _Failure(Exception):
    """One attempt's failure: ``reason`` (a short stable word), ``detail``, ``retryable``."""

    def __init__(self, reason: str, detail: str, *, retryable: bool) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail
        self.retryable = retryable


def _origin(url: str) -> tuple[str, str, int]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    port = parts.port or (443 if scheme == "https" else 80)
    return scheme, (parts.hostname or "").lower(), port


def _attempt(
    url: str, data: bytes, headers: Mapping[str, str], timeout: float, max_bytes: int
) -> tuple[int, bytes]:
    """One attempt, redirects included, within ``timeout`` seconds in all: the status and the
    body (at most ``max_bytes``; for an error status, at most 300 bytes)."""
    deadline = time.monotonic() + timeout
    origin = _origin(url)
    for _ in range(MAX_REDIRECTS + 1):
        status, location, body = _exchange(url, data, headers, deadline, timeout, max_bytes)
        if status not in (301, 302, 303, 307, 308):
            return status, body
        target = urljoin(url, location or "")
        if not location or _origin(target) != origin or status not in (307, 308):
            raise _Failure(
                "redirect",
                f"HTTP {status} redirect to {target!r} refused (judges follow only same-origin "
                "307/308 redirects; credentials are never sent to another origin)",
                retryable=False,
            )
        url = target
    raise _Failure("redirect", f"more than {MAX_REDIRECTS} redirects", retryable=False)


def _exchange(
    url: str,
    data: bytes,
    headers: Mapping[str, str],
    deadline: float,
    timeout: float,
    max_bytes: int,
) -> tuple[int, str | None, bytes]:
    parts = urlsplit(url)
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise _Failure("deadline", f"deadline of {timeout:g}s exceeded", retryable=True)
    connection_class = (
        http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    )
    connection = connection_class(parts.hostname or "", parts.port, timeout=remaining)
    expired = threading.Event()

    def expire() -> None:
        # Wake whatever read is blocked: the deadline covers the whole exchange.
        expired.set()
        sock = connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    timer = threading.Timer(remaining, expire)
    timer.daemon = True
    timer.start()
    try:
        path = parts.path or "/"
        if parts.query:
            path += f"?{parts.query}"
        connection.request("POST", path, body=data, headers=dict(headers))
        response = connection.getresponse()
        status = response.status
        if status >= 300:
            return status, response.getheader("location"), _read(response, 300, deadline)
        length = response.getheader("content-length")
        if length is not None and length.strip().isdigit() and int(length) > max_bytes:
            raise _Failure(
                "too-large",
                f"response of {int(length)} bytes exceeds the {max_bytes}-byte cap",
                retryable=False,
            )
        body = _read(response, max_bytes + 1, deadline)
        if len(body) > max_bytes:
            raise _Failure(
                "too-large", f"response exceeds the {max_bytes}-byte cap", retryable=False
            )
        if response.length:  # bytes announced by Content-Length but never sent
            raise _Failure(
                "truncated",
                f"response truncated: {response.length} announced byte(s) missing",
                retryable=True,
            )
        return status, None, body
    except _Failure:
        if expired.is_set():
            raise _Failure(
                "deadline", f"deadline of {timeout:g}s exceeded", retryable=True
            ) from None
        raise
    except (http.client.HTTPException, OSError, ValueError) as exc:
        if expired.is_set():
            raise _Failure(
                "deadline", f"deadline of {timeout:g}s exceeded", retryable=True
            ) from exc
        reason = {
            http.client.BadStatusLine: "bad-status-line",
            http.client.IncompleteRead: "truncated",
            http.client.RemoteDisconnected: "disconnected",
        }.get(type(exc), "transport")
        if isinstance(exc, TimeoutError):
            reason = "deadline"
        detail = f"{type(exc).__name__}: {exc}"[:300]
        raise _Failure(reason, detail, retryable=True) from exc
    finally:
        timer.cancel()
        connection.close()


def _read(response: http.client.HTTPResponse, limit: int, deadline: float) -> bytes:
    """Up to ``limit`` bytes of ``response``, one socket read at a time, within ``deadline``."""
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        if time.monotonic() >= deadline:
            raise _Failure("deadline", "deadline exceeded while reading", retryable=True)
        chunk = response.read1(min(_CHUNK, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def post_json(
    url: str,
    body: Mapping[str, Any],
    headers: Mapping[str, str],
    *,
    timeout: float,
    retries: int,
    backoff: float = 0.5,
    sleep: Callable[[float], None] = time.sleep,
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
) -> Any:
    """POST ``body`` as JSON to ``url`` and return the decoded JSON response.

    Each attempt has a total deadline of ``timeout`` seconds and may read at most
    ``max_response_bytes``. A transport error, a deadline, a truncated reply, a garbage status
    line or a retryable status is retried up to ``retries`` times, waiting
    ``backoff * 2**attempt`` seconds between attempts (``sleep`` is injectable; there is no
    jitter, so runs are reproducible). A refused redirect, an oversized body or a
    non-retryable status ends the call at once.

    :raises assay.AssayError: ``JUDGE_ERROR`` naming the URL and the last failure, with
        ``details["reason"]`` one of ``http-status``, ``redirect``, ``deadline``,
        ``too-large``, ``truncated``, ``bad-status-line``, ``disconnected``, ``transport``,
        ``not-json``.
    """
    data = json.dumps(body).encode("utf-8")
    request_headers = {"content-type": "application/json", **headers}
    last = "no attempt made"
    reason = "transport"
    attempt = 0
    for attempt in range(retries + 1):
        if attempt:
            sleep(backoff * 2 ** (attempt - 1))
        try:
            status, payload = _attempt(url, data, request_headers, timeout, max_response_bytes)
        except _Failure as failure:
            last, reason = failure.detail, failure.reason
            if not failure.retryable:
                break
            continue
        if status >= 300:
            last = f"HTTP {status}: {payload.decode('utf-8', 'replace')}"
            reason = "http-status"
            if status not in RETRYABLE_STATUS:
                break
            continue
        try:
            return json.loads(payload)
        except (ValueError, RecursionError) as exc:
            why = "nests too deeply" if isinstance(exc, RecursionError) else "is not JSON"
            raise assay.AssayError(
                Code.JUDGE_ERROR,
                f"{url} answered with a body that {why}",
                details={"reason": "not-json"},
            ) from None
    raise assay.AssayError(
        Code.JUDGE_ERROR,
        f"POST {url} failed after {attempt + 1} attempt(s): {last}",
        details={"reason": reason},
    )


def reply_fields(
    response: Any, prompt_key: str, completion_key: str
) -> tuple[int | None, int | None, str | None]:
    """``(prompt_tokens, completion_tokens, model)`` from a decoded reply, each ``None`` unless
    well formed: ``usage`` must be an object and each count a non-negative integer, ``model`` a
    string. A server's odd bookkeeping never fails an otherwise usable reply."""
    if not isinstance(response, dict):
        return None, None, None
    usage = response.get("usage")
    usage = usage if isinstance(usage, dict) else {}

    def count(key: str) -> int | None:
        value = usage.get(key)
        ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**53
        return value if ok else None

    model = response.get("model")
    return count(prompt_key), count(completion_key), model if isinstance(model, str) else None


@attrs.frozen(kw_only=True)
class HttpJudgeBase:
    """Transport settings shared by the HTTP judges (keyword-only).

    Attributes:
        timeout: seconds per attempt, a deadline for the whole attempt (not per socket read).
        retries: extra attempts on transport errors, deadlines and retryable statuses.
        max_tokens: reply limit.
        temperature: sampling temperature (0 for the most repeatable judge).
        backoff: seconds before the first retry, doubled for each further one.
        max_response_bytes: the largest response body accepted (default 8 MiB).
        sleep: how to wait between retries (injectable; default :func:`time.sleep`).
    """

    timeout: float = 60.0
    retries: int = 2
    max_tokens: int = 1024
    temperature: float = 0.0
    backoff: float = 0.5
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
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
            max_response_bytes=self.max_response_bytes,
        )
