"""JSON wire shapes of evaluation results (camelCase keys, the field names of rag-eval-node-ts
0.3), both ways.

The same shape is used for streamed JSON Lines, baseline files and ``assay eval --json``'s final
line, so a stored result can be read back, resumed, replayed and compared.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from assay import AssayError, ErrorCode, MetricResult, MetricSignal
from assay_evaluation._samples import coerce_sample, sample_to_wire
from assay_evaluation._types import (
    Cost,
    EvalResult,
    MetricAggregate,
    MetricRegression,
)

if TYPE_CHECKING:
    from assay_evaluation._batch_result import BatchEvalResult

__all__ = [
    "aggregate_to_wire",
    "batch_to_wire",
    "cost_to_wire",
    "metric_result_from_wire",
    "metric_result_to_wire",
    "result_from_wire",
    "result_line",
    "result_to_wire",
]

_COST = (
    ("llm_calls", "llmCalls"),
    ("input_tokens", "inputTokens"),
    ("output_tokens", "outputTokens"),
    ("parse_failures", "parseFailures"),
    ("cache_hits", "cacheHits"),
)


def signal_to_wire(signal: MetricSignal) -> dict[str, Any]:
    """``{"severity", "message", "evidence"?}``."""
    wire = {"severity": signal.severity, "message": signal.message}
    if signal.evidence is not None:
        wire["evidence"] = signal.evidence
    return wire


def metric_result_to_wire(result: MetricResult) -> dict[str, Any]:
    """``{"metricId", "score", "passed", "threshold", "explanation", "signals", "details"}``."""
    return {
        "metricId": result.metric_id,
        "score": result.score,
        "passed": result.passed,
        "threshold": result.threshold,
        "explanation": result.explanation,
        "signals": [signal_to_wire(s) for s in result.signals],
        "details": dict(result.details),
    }


def metric_result_from_wire(wire: Mapping[str, Any]) -> MetricResult:
    """Inverse of :func:`metric_result_to_wire`."""
    return MetricResult(
        metric_id=wire["metricId"],
        score=wire["score"],
        passed=wire["passed"],
        threshold=wire["threshold"],
        explanation=wire.get("explanation", ""),
        signals=tuple(
            MetricSignal(s["severity"], s["message"], s.get("evidence"))
            for s in wire.get("signals", ())
        ),
        details=wire.get("details") or {},
    )


def cost_to_wire(cost: Cost) -> dict[str, int]:
    """``{"llmCalls", "inputTokens", "outputTokens", "parseFailures", "cacheHits"}``."""
    return {wire: getattr(cost, name) for name, wire in _COST}


def result_to_wire(result: EvalResult) -> dict[str, Any]:
    """The full JSON form of one sample's result (what streamed JSON Lines hold); ``timestamp``
    only when the result has one."""
    wire: dict[str, Any] = {
        "id": result.sample.id,
        "sample": sample_to_wire(result.sample),
        "metrics": {k: metric_result_to_wire(v) for k, v in result.metrics.items()},
        "metricOrder": list(result.metric_order),
        "higherIsBetter": dict(result.higher_is_better),
        "compositeScore": result.composite_score,
        "compositeThreshold": result.composite_threshold,
        "passed": result.passed,
        "cost": cost_to_wire(result.cost),
    }
    if result.timestamp is not None:
        wire["timestamp"] = result.timestamp
    return wire


_LINE_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False)
"""``json.dumps(..., ensure_ascii=False)``'s encoder, made once; a result's wire form is a
fresh tree, never circular, so the check (a dict entry per container) is left out."""


def result_line(key: str, result: EvalResult) -> str:
    """The streamed JSON Lines line of ``result``: ``{"key", "result"}`` and a newline."""
    return _LINE_ENCODER.encode({"key": key, "result": result_to_wire(result)}) + "\n"


def result_from_wire(wire: Mapping[str, Any], path: str = "result") -> EvalResult:
    """Inverse of :func:`result_to_wire`.

    :raises AssayError: ``MALFORMED_INPUT`` when a required field is missing or of the wrong
        type.
    """
    try:
        metrics = {k: metric_result_from_wire(v) for k, v in wire["metrics"].items()}
        timestamp = wire.get("timestamp")
        if timestamp is not None and not isinstance(timestamp, str):
            raise TypeError(f"timestamp must be a string, got {type(timestamp).__name__}")
        return EvalResult(
            sample=coerce_sample(wire["sample"], f"{path}.sample"),
            metrics=metrics,
            metric_order=wire.get("metricOrder") or list(metrics),
            higher_is_better=wire.get("higherIsBetter") or dict.fromkeys(metrics, True),
            composite_score=wire["compositeScore"],
            passed=wire["passed"],
            composite_threshold=wire.get("compositeThreshold", 0.6),
            cost=Cost(**{name: int(wire.get("cost", {}).get(key, 0)) for name, key in _COST}),
            timestamp=timestamp,
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise AssayError(
            ErrorCode.MALFORMED_INPUT, f"not a stored evaluation result ({exc!r})", path
        ) from exc


def aggregate_to_wire(aggregate: MetricAggregate, with_id: bool = True) -> dict[str, Any]:
    """``{"metricId", "mean", "median", "min", "max", "stdDev", "passRate", "nullRate",
    "count", "errors", "threshold"?}`` (``metricId`` left out for the composite, ``threshold``
    when known)."""
    wire = {
        "mean": aggregate.mean,
        "median": aggregate.median,
        "min": aggregate.min,
        "max": aggregate.max,
        "stdDev": aggregate.std_dev,
        "passRate": aggregate.pass_rate,
        "nullRate": aggregate.null_rate,
        "count": aggregate.count,
        "errors": aggregate.errors,
    }
    if aggregate.threshold is not None:
        wire["threshold"] = aggregate.threshold
    return {"metricId": aggregate.metric_id, **wire} if with_id else wire


def regression_to_wire(regression: MetricRegression) -> dict[str, Any]:
    """``{"metricId", "baselineMean", "currentMean", "delta", "regressed"}``."""
    return {
        "metricId": regression.metric_id,
        "baselineMean": regression.baseline_mean,
        "currentMean": regression.current_mean,
        "delta": regression.delta,
        "regressed": regression.regressed,
    }


def batch_to_wire(batch: BatchEvalResult, with_results: bool = True) -> dict[str, Any]:
    """The JSON form of a batch result; ``regressions`` only when a baseline was given. Without
    ``results`` it is the aggregate record used as a baseline file; so it is, too, for a batch
    whose results were not kept (``keep_results=False``)."""
    wire: dict[str, Any] = {}
    if with_results and batch.results_kept:
        wire["results"] = [result_to_wire(r) for r in batch.results]
    wire.update(
        aggregates={k: aggregate_to_wire(v) for k, v in batch.aggregates.items()},
        compositeAggregate=aggregate_to_wire(batch.composite_aggregate, with_id=False),
        passed=batch.passed,
        totalCost=cost_to_wire(batch.total_cost),
    )
    if batch.regressions is not None:
        wire["regressions"] = [regression_to_wire(r) for r in batch.regressions]
    return wire
