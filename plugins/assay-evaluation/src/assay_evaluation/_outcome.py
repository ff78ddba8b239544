"""What a metric result means for a gate: passed, failed, undetermined by design (no ground
truth, no question), or an error (the metric raised, the judge failed or answered something
that could not be parsed). An error is never a pass."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from assay import MetricResult, MetricSignal

__all__ = ["STATUSES", "error_of", "failed_to_compute", "missing_requirement", "status_of"]

STATUSES = ("pass", "fail", "undetermined", "error")
"""The four outcomes of one metric on one sample."""


def error_of(result: MetricResult) -> str | None:
    """Why ``result`` could not be computed, or ``None`` when it has a score or is undetermined
    by design.

    An undetermined result is an error when its details carry ``"error"`` (set by the runner
    when the metric raised), ``"judgeFailures"`` (a judge that failed after its retries), a
    ``cost.parseFailures`` count (a judge reply no parser could use), or when it has a signal
    of severity ``"error"``.
    """
    if result.score is not None:
        return None
    details = result.details
    error = details.get("error")
    if error:
        return str(error.get("message", error)) if isinstance(error, Mapping) else str(error)
    failures = details.get("judgeFailures")
    if failures:
        first = failures[0] if isinstance(failures, list | tuple) else failures
        message = first.get("message") if isinstance(first, Mapping) else None
        return f"the judge failed: {message or result.explanation}"
    cost = details.get("cost")
    if isinstance(cost, Mapping) and cost.get("parseFailures"):
        return f"the judge's reply could not be parsed: {result.explanation}"
    for signal in result.signals:
        if signal.severity == "error":
            return signal.message
    return None


def status_of(result: MetricResult) -> str:
    """``"pass"``, ``"fail"``, ``"undetermined"`` or ``"error"`` (see :data:`STATUSES`)."""
    if result.passed is not None:
        return "pass" if result.passed else "fail"
    return "error" if error_of(result) is not None else "undetermined"


def failed_to_compute(metric_id: str, threshold: float, exc: BaseException) -> MetricResult:
    """The result recorded when a metric raised ``exc``: undetermined, with the error in
    ``details["error"]`` and as a signal, so it counts as an error, never as a pass."""
    code = getattr(exc, "code", None)
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    kind = code or type(exc).__name__
    error: dict[str, Any] = {"type": type(exc).__name__, "message": f"{kind}: {message}"}
    if code:
        error["code"] = code
    return MetricResult(
        metric_id,
        None,
        None,
        threshold,
        f"the metric could not be computed ({kind}: {message})",
        (MetricSignal("error", f"{kind}: {message}"),),
        {"error": error},
    )


def missing_requirement(metric_id: str, threshold: float, field: str) -> MetricResult:
    """The undetermined result of a metric that needs ``field`` on a sample without it (by
    design, not an error)."""
    return MetricResult(
        metric_id,
        None,
        None,
        threshold,
        f"{metric_id} needs the sample's {field}, and this sample has none.",
        (),
        {"missing": [field]},
    )
