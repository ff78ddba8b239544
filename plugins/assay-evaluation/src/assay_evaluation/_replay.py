"""Threshold replay: re-judge stored results at new thresholds without recomputing a metric."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from assay import AssayError
from assay_evaluation._batch import summarize_batch
from assay_evaluation._batch_result import BatchEvalResult
from assay_evaluation._codes import EvaluationErrorCode as Code
from assay_evaluation._options import check_threshold, snake_case
from assay_evaluation._single import judge_pass, sample_passed
from assay_evaluation._types import EvalResult

__all__ = ["replay_thresholds"]


def _replay_one(
    result: EvalResult, thresholds: Mapping[str, float], composite_threshold: float | None
) -> EvalResult:
    metrics = {}
    for metric_id, metric in result.metrics.items():
        threshold = thresholds.get(metric_id, metric.threshold)
        metrics[metric_id] = attrs.evolve(
            metric,
            threshold=threshold,
            passed=judge_pass(
                metric.score, threshold, result.higher_is_better.get(metric_id, True)
            ),
        )
    composite = result.composite_threshold if composite_threshold is None else composite_threshold
    return attrs.evolve(
        result,
        metrics=metrics,
        composite_threshold=composite,
        passed=sample_passed(metrics, result.composite_score, composite),
    )


def replay_thresholds(
    result: EvalResult | BatchEvalResult,
    thresholds: Mapping[str, float] | None = None,
    composite_threshold: float | None = None,
    *,
    baseline: Any = None,
    regression_threshold: float = 0.05,
) -> Any:
    """``result`` re-judged at new thresholds; scores and composites are reused, never
    recomputed.

    Pass/fail of each listed metric, each sample's overall pass, aggregate pass rates and the
    batch pass are recomputed. Metrics not listed keep their stored thresholds. For a batch,
    regressions are recomputed against ``baseline`` when given, else kept.

    :param thresholds: metric id (as stored, or camelCase) -> new threshold in [0, 1].
    :param composite_threshold: new composite threshold, or ``None`` to keep the stored one.
    :raises AssayError: ``INVALID_THRESHOLD`` outside [0, 1]; ``UNKNOWN_METRIC`` for an id the
        result does not contain.
    """
    if thresholds is not None and not isinstance(thresholds, Mapping):
        raise AssayError(
            Code.INVALID_THRESHOLD,
            f"thresholds must be a mapping of metric id to threshold, got {type(thresholds).__name__}",
            "thresholds",
        )
    results = result.results if isinstance(result, BatchEvalResult) else (result,)
    present = {m for r in results for m in r.metrics}
    normalized: dict[str, float] = {}
    for key, value in (thresholds or {}).items():
        metric_id = key if key in present else snake_case(key)
        if metric_id not in present:
            raise AssayError(
                Code.UNKNOWN_METRIC,
                f"the stored result has no metric {key!r} (has: {', '.join(sorted(present))})",
                f"thresholds.{key}",
            )
        normalized[metric_id] = check_threshold(value, f"thresholds.{key}")
    if composite_threshold is not None:
        check_threshold(composite_threshold, "compositeThreshold")
    replayed = [_replay_one(r, normalized, composite_threshold) for r in results]
    if not isinstance(result, BatchEvalResult):
        return replayed[0]
    summary = summarize_batch(
        replayed,
        list(result.aggregates),
        baseline,
        regression_threshold,
    )
    if baseline is None:
        summary = attrs.evolve(summary, regressions=result.regressions)
    return summary
