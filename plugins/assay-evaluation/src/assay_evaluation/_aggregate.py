"""Batch statistics and regression detection, computed exactly as rag-eval-node-ts 0.3 does
(plain left-to-right sums, population standard deviation, squares by multiplication)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from assay import AssayError
from assay_evaluation._codes import EvaluationErrorCode as Code
from assay_evaluation._options import snake_case
from assay_evaluation._types import EvalResult, MetricAggregate, MetricRegression

__all__ = [
    "aggregate_metric",
    "baseline_means",
    "batch_passed",
    "composite_aggregate",
    "detect_regressions",
    "summarize",
]


def summarize(
    metric_id: str, scores: Sequence[float], passed: int, nulls: int, total: int
) -> MetricAggregate:
    """Statistics of determined ``scores``; rates over ``total`` samples (0 when empty)."""
    count = len(scores)
    pass_rate = passed / total if total else 0.0
    null_rate = nulls / total if total else 0.0
    if not count:
        return MetricAggregate(metric_id, 0.0, 0.0, 0.0, 0.0, 0.0, pass_rate, null_rate, 0)
    total_score = 0.0
    for score in scores:
        total_score += score
    mean = total_score / count
    ordered = sorted(scores)
    middle = count // 2
    median = ordered[middle] if count % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    squares = 0.0
    for score in scores:
        deviation = score - mean
        squares += deviation * deviation
    std_dev = math.sqrt(squares / count)
    return MetricAggregate(
        metric_id, mean, median, ordered[0], ordered[-1], std_dev, pass_rate, null_rate, count
    )


def aggregate_metric(metric_id: str, results: Sequence[EvalResult]) -> MetricAggregate:
    """:func:`summarize` of one metric over ``results`` (a sample without that metric counts
    as undetermined)."""
    scores: list[float] = []
    passed = nulls = 0
    for result in results:
        metric = result.metrics.get(metric_id)
        if metric is None or metric.score is None:
            nulls += 1
            continue
        scores.append(metric.score)
        passed += metric.passed is True
    return summarize(metric_id, scores, passed, nulls, len(results))


def composite_aggregate(results: Sequence[EvalResult]) -> MetricAggregate:
    """Statistics of the determined composite scores; ``pass_rate`` counts samples whose overall
    ``passed`` is true, and is 0 when no composite is determined (as in rag-eval-node-ts 0.3)."""
    scores = [r.composite_score for r in results if r.composite_score is not None]
    nulls = len(results) - len(scores)
    passed = sum(r.passed for r in results) if scores else 0
    return summarize("composite", scores, passed, nulls, len(results))


def batch_passed(results: Sequence[EvalResult], composite: MetricAggregate) -> bool:
    """Every sample passed and at least half of them passed overall (an empty batch fails)."""
    return all(r.passed for r in results) and composite.pass_rate >= 0.5


def baseline_means(baseline: Any) -> dict[str, float]:
    """Metric id -> mean from a baseline: a :class:`~assay_evaluation.BatchEvalResult` or its
    JSON form (``{"aggregates": {id: {"mean": ...}}}``, ids camelCase or snake_case).

    :raises AssayError: ``INVALID_BASELINE`` when there are no aggregates, or a mean is not a
        finite number (NaN and infinities would make every comparison pass silently).
    """
    aggregates = getattr(baseline, "aggregates", None)
    if aggregates is None and isinstance(baseline, Mapping):
        aggregates = baseline.get("aggregates")
    if not isinstance(aggregates, Mapping):
        raise AssayError(
            Code.INVALID_BASELINE, "a baseline needs an 'aggregates' object", "baselineResult"
        )
    means: dict[str, float] = {}
    for key, aggregate in aggregates.items():
        mean = getattr(aggregate, "mean", None)
        if mean is None and isinstance(aggregate, Mapping):
            mean = aggregate.get("mean")
        if isinstance(mean, bool) or not isinstance(mean, int | float) or not math.isfinite(mean):
            raise AssayError(
                Code.INVALID_BASELINE,
                f"mean must be a finite number, got {mean!r}",
                f"baselineResult.aggregates.{key}.mean",
            )
        means[str(key)] = float(mean)
    return means


def detect_regressions(
    aggregates: Mapping[str, MetricAggregate],
    baseline: Any,
    threshold: float,
    higher_is_better: Mapping[str, bool],
    order: Sequence[str] | None = None,
) -> tuple[MetricRegression, ...]:
    """Compare each metric present in both the current aggregates and the baseline, in the
    current order (``order``, duplicates kept as rag-eval-node-ts keeps them: a metric
    requested twice gives two records; default: the aggregates' order). ``delta = current - baseline``; a regression is ``delta < -threshold`` (strict)
    or, for a lower-is-better metric, ``delta > threshold``."""
    means = baseline_means(baseline)
    by_snake = {snake_case(key): value for key, value in means.items()}
    regressions = []
    if not math.isfinite(threshold):
        raise AssayError(
            Code.INVALID_OPTION,
            f"must be a finite number, got {threshold!r}",
            "options.regressionThreshold",
        )
    for metric_id in aggregates if order is None else order:
        aggregate = aggregates[metric_id]
        base = means.get(metric_id, by_snake.get(snake_case(metric_id)))
        if base is None:
            continue
        delta = aggregate.mean - base
        higher = higher_is_better.get(metric_id, True)
        regressed = delta < -threshold if higher else delta > threshold
        regressions.append(MetricRegression(metric_id, base, aggregate.mean, delta, regressed))
    return tuple(regressions)
