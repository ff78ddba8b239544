"""Structured log records and OpenTelemetry span attributes for scorecards (the reference's
"Observability Logging"). No clock is read: the caller passes the timestamp."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from assay_scorecard.types import Scorecard

__all__ = ["log_record", "otel_attributes", "record_on_span"]


def log_record(scorecard: Scorecard, *, timestamp: str | datetime) -> dict[str, Any]:
    """A JSON-safe record for a log pipeline with the reference's observability fields:
    timestamp, algorithmVersion, total, label, recommendedAction, actionReason, actionRule,
    tier1Score, tier2Score, rawTotal, maxPossible, activeExtensions, warningCodes,
    missingSignals and per-dimension raw / max / normalized.

    :param timestamp: when the answer was scored (an ISO-8601 string or a datetime); assay never
        reads the clock itself.
    """
    meta = scorecard.meta
    return {
        "timestamp": timestamp.isoformat() if isinstance(timestamp, datetime) else timestamp,
        "algorithmVersion": meta.algorithm_version,
        "total": scorecard.total,
        "label": scorecard.label,
        "recommendedAction": scorecard.recommended_action,
        "actionReason": scorecard.action_reason,
        "actionRule": scorecard.action_rule,
        "tier1Score": scorecard.tier1.score if scorecard.tier1 else None,
        "tier2Score": scorecard.tier2.score if scorecard.tier2 else None,
        "rawTotal": meta.raw_total,
        "maxPossible": meta.max_possible,
        "activeExtensions": list(meta.active_extensions),
        "warningCodes": [w.code for w in meta.warnings],
        "missingSignals": list(meta.missing_signals),
        "dimensions": {
            name: {"raw": dim.raw, "max": dim.max, "normalized": dim.normalized}
            for name, dim in scorecard.dimensions.items()
        },
    }


def otel_attributes(scorecard: Scorecard, prefix: str = "assay.scorecard") -> dict[str, Any]:
    """Flat OpenTelemetry span attributes (str, number, bool or sequences of str), e.g.
    ``assay.scorecard.total``, ``assay.scorecard.dimension.grounding.raw``."""
    meta = scorecard.meta
    attributes: dict[str, Any] = {
        f"{prefix}.total": scorecard.total,
        f"{prefix}.label": scorecard.label,
        f"{prefix}.recommended_action": scorecard.recommended_action,
        f"{prefix}.action_rule": scorecard.action_rule,
        f"{prefix}.algorithm_version": meta.algorithm_version,
        f"{prefix}.warning_codes": [w.code for w in meta.warnings],
        f"{prefix}.missing_signals": list(meta.missing_signals),
    }
    if scorecard.tier1:
        attributes[f"{prefix}.tier1"] = scorecard.tier1.score
    if scorecard.tier2:
        attributes[f"{prefix}.tier2"] = scorecard.tier2.score
    for name, dim in scorecard.dimensions.items():
        attributes[f"{prefix}.dimension.{name}.raw"] = dim.raw
        attributes[f"{prefix}.dimension.{name}.normalized"] = dim.normalized
    return attributes


def record_on_span(scorecard: Scorecard, span: Any = None) -> None:
    """Set :func:`otel_attributes` on ``span`` (default: the current OpenTelemetry span).
    Needs the optional extra ``assay[otel]`` (opentelemetry-api) only when ``span`` is omitted.
    """
    if span is None:
        from opentelemetry import trace  # optional extra: assay[otel]

        span = trace.get_current_span()
    span.set_attributes(otel_attributes(scorecard))
