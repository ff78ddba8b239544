"""Batch statistics and regression detection, computed exactly as rag-eval-node-ts 0.3 does
(plain left-to-right sums, population standard deviation, squares by multiplication)."""

from __future__ import annotations

import heapq
import itertools
import math
from array import array
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import attrs

from assay import AssayError
from assay_evaluation._codes import EvaluationErrorCode as Code
from assay_evaluation._options import snake_case
from assay_evaluation._outcome import error_of, status_of
from assay_evaluation._types import (
    BatchCounts,
    Cost,
    EvalResult,
    MetricAggregate,
    MetricRegression,
)

__all__ = [
    "BatchTally",
    "aggregate_metric",
    "baseline_means",
    "batch_passed",
    "composite_aggregate",
    "detect_regressions",
    "summarize",
    "worst_rank",
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
    lowest, low, high, highest = _order_statistics(scores)
    median = high if count % 2 else (low + high) / 2
    squares = 0.0
    for score in scores:
        deviation = score - mean
        squares += deviation * deviation
    std_dev = math.sqrt(squares / count)
    return MetricAggregate(
        metric_id, mean, median, lowest, highest, std_dev, pass_rate, null_rate, count
    )


_SORT_BLOCK = 1 << 16
"""Scores sorted at once; longer arrays are sorted in blocks of this many and merged."""


def _order_statistics(scores: Sequence[float]) -> tuple[float, float, float, float]:
    """The first, the two middle (``count // 2 - 1`` and ``count // 2``) and the last of
    ``scores`` in ``sorted`` order (stable: of equal values, the earlier first). A long array
    (a tally's) is sorted in blocks and merged, so the transient copy is 8 bytes a score plus
    one block, not a list of a million float objects."""
    count = len(scores)
    middle = count // 2
    if count <= _SORT_BLOCK or not isinstance(scores, array):
        ordered = sorted(scores)
        return (
            ordered[0],
            ordered[middle - 1] if middle else ordered[0],
            ordered[middle],
            ordered[-1],
        )
    blocks = [
        array("d", sorted(scores[start : start + _SORT_BLOCK]))
        for start in range(0, count, _SORT_BLOCK)
    ]
    merged = heapq.merge(*blocks)  # stable across blocks, which are in input order
    before = next(itertools.islice(merged, middle - 1, None))
    at = next(merged)
    lowest = min(block[0] for block in blocks)  # the first of equal minima: blocks in order
    highest = max(reversed([block[-1] for block in blocks]))  # the last of equal maxima
    return lowest, before, at, highest


def aggregate_metric(metric_id: str, results: Sequence[EvalResult]) -> MetricAggregate:
    """:func:`summarize` of one metric over ``results`` (a sample without that metric counts
    as undetermined), with its error count and threshold."""
    return BatchTally.of(results, [metric_id]).aggregate(metric_id)


def composite_aggregate(results: Sequence[EvalResult]) -> MetricAggregate:
    """Statistics of the determined composite scores; ``pass_rate`` counts samples whose overall
    ``passed`` is true, and is 0 when no composite is determined (as in rag-eval-node-ts 0.3)."""
    return BatchTally.of(results, []).composite()


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


_UNDETERMINED, _PASSED, _FAILED, _ERROR = 0, 1, 2, 3
_NO_COST = Cost()
_NAN = math.nan
_V = TypeVar("_V")


def worst_rank(result: EvalResult) -> tuple[int, float]:
    """How bad a sample is, smallest first: an error in any metric, then an undetermined
    composite, then by composite score."""
    if any(status_of(m) == "error" for m in result.metrics.values()):
        return (0, 0.0)
    if result.composite_score is None:
        return (1, 0.0)
    return (2, result.composite_score)


def _worst_key(item: tuple[int, EvalResult]) -> tuple[tuple[int, float], int]:
    return worst_rank(item[1]), item[0]


def _keep_first(mine: dict[str, _V], theirs: Mapping[str, _V]) -> None:
    """Add the keys of ``theirs`` that ``mine`` lacks, after its own (the first seen wins)."""
    for key, value in theirs.items():
        mine.setdefault(key, value)


def _determined(values: array[float]) -> array[float]:
    """The values that are not NaN (undetermined), in order, as 8-byte floats: a million
    scores take 8 MB here, not the 32 MB of a list."""
    return array("d", (value for value in values if value == value))


def _nans(size: int) -> array[float]:
    return array("d", [_NAN]) * size


class BatchTally:
    """What a batch's aggregates need from each sample's result, by input position: per metric
    the score and the pass flag, the composite, the overall pass, the cost and the directions;
    not the sample, explanations, signals or details. Scores are held as 8-byte floats (NaN for
    an undetermined one: a metric's NaN is already turned into ``None``), flags as bytes, so a
    million samples with two metrics take about 27 MB. Results may arrive in any order (a
    resumed file, an executor) and a later one for a position replaces the earlier one; a tally
    also grows at its end (:meth:`add` at ``size``, :meth:`extend`). The statistics are taken
    in input order, so they equal :func:`aggregate_metric` and :func:`composite_aggregate` over
    the results to the last bit.

    :param metric_ids: the metrics to aggregate, distinct, in run order.
    :param size: samples in the batch (0: it grows as results are added at its end).
    :param worst: also keep the full results of this many worst samples (:func:`worst_rank`:
        errors first, then undetermined composites, then the lowest composite; the earlier
        sample first on a tie), for a report that shows them without every result.
    """

    def __init__(self, metric_ids: Sequence[str], size: int = 0, worst: int = 0) -> None:
        self.metric_ids = list(dict.fromkeys(metric_ids))
        self.size = size
        self._scores: dict[str, array[float]] = {m: _nans(size) for m in self.metric_ids}
        self._flags: dict[str, bytearray] = {m: bytearray(size) for m in self.metric_ids}
        self._composites: array[float] = _nans(size)
        self._passed = bytearray(size)
        self._costs: dict[int, Cost] = {}  # only non-zero costs are held
        self.directions: dict[str, bool] = {}
        self.thresholds: dict[str, float] = {}
        self.composite_threshold: float | None = None
        self.first_errors: dict[str, str] = {}
        self.first_undetermined: dict[str, str] = {}
        self.worst_count = worst
        self.worst: list[tuple[int, EvalResult]] = []

    @classmethod
    def of(cls, results: Sequence[EvalResult], metric_ids: Sequence[str]) -> BatchTally:
        """The tally of ``results`` in order."""
        tally = cls(metric_ids, len(results))
        for index, result in enumerate(results):
            tally.add(index, result)
        return tally

    def _grow(self) -> None:
        for metric_id in self.metric_ids:
            self._scores[metric_id].append(_NAN)
            self._flags[metric_id].append(_UNDETERMINED)
        self._composites.append(_NAN)
        self._passed.append(0)
        self.size += 1

    def extend(self, other: BatchTally) -> None:
        """Append ``other``'s positions after this tally's (same metrics): what a worker
        tallied for a chunk joins the batch's tally without any per-sample object."""
        for metric_id in self.metric_ids:
            self._scores[metric_id].extend(other._scores[metric_id])
            self._flags[metric_id].extend(other._flags[metric_id])
        self._composites.extend(other._composites)
        self._passed.extend(other._passed)
        self._costs.update({self.size + i: cost for i, cost in other._costs.items()})
        if self.worst_count:
            self._keep_worst([(self.size + i, result) for i, result in other.worst])
        self.size += other.size
        self.directions.update(other.directions)
        _keep_first(self.thresholds, other.thresholds)
        _keep_first(self.first_errors, other.first_errors)
        _keep_first(self.first_undetermined, other.first_undetermined)
        if other.size:
            self.composite_threshold = other.composite_threshold

    def add(self, index: int, result: EvalResult) -> None:
        """Record ``result`` as position ``index``'s (replacing what was there); ``index ==
        size`` appends it."""
        if index == self.size:
            self._grow()
        for metric_id in self.metric_ids:
            metric = result.metrics.get(metric_id)
            if metric is None or metric.score is None:
                self._scores[metric_id][index] = _NAN
                flag = _UNDETERMINED
                if metric is not None:
                    self.thresholds.setdefault(metric_id, metric.threshold)
                    error = error_of(metric)
                    if error is not None:
                        flag = _ERROR
                        self.first_errors.setdefault(metric_id, error)
                    elif metric.passed is False:
                        flag = _FAILED
                    elif metric_id not in self.first_undetermined:
                        self.first_undetermined[metric_id] = metric.explanation
                self._flags[metric_id][index] = flag
            else:
                if metric_id not in self.thresholds:
                    self.thresholds[metric_id] = metric.threshold
                self._scores[metric_id][index] = metric.score
                self._flags[metric_id][index] = (
                    _PASSED if metric.passed is True else _FAILED if metric.passed is False else 0
                )
        self.composite_threshold = result.composite_threshold
        composite = result.composite_score
        self._composites[index] = _NAN if composite is None else composite
        self._passed[index] = bool(result.passed)
        if result.cost != _NO_COST:
            self._costs[index] = result.cost
        else:
            self._costs.pop(index, None)
        self.directions.update(result.higher_is_better)
        if self.worst_count:
            self._keep_worst([(index, result)])

    def _keep_worst(self, offered: list[tuple[int, EvalResult]]) -> None:
        replaced = {index for index, _ in offered}
        kept = [item for item in self.worst if item[0] not in replaced]
        self.worst = heapq.nsmallest(self.worst_count, kept + offered, key=_worst_key)

    def determined(self, metric_id: str) -> Sequence[float]:
        """The determined scores of ``metric_id``, in input order."""
        return _determined(self._scores[metric_id])

    def aggregate(self, metric_id: str) -> MetricAggregate:
        """:func:`aggregate_metric` of one metric."""
        scores = _determined(self._scores[metric_id])
        passed = self._flags[metric_id].count(_PASSED)  # only a determined score passes
        aggregate = summarize(metric_id, scores, passed, self.size - len(scores), self.size)
        return attrs.evolve(
            aggregate,
            errors=self._flags[metric_id].count(_ERROR),
            threshold=self.thresholds.get(metric_id),
        )

    def composite(self) -> MetricAggregate:
        """:func:`composite_aggregate`."""
        scores = _determined(self._composites)
        passed = self._passed.count(1) if scores else 0
        aggregate = summarize("composite", scores, passed, self.size - len(scores), self.size)
        return attrs.evolve(aggregate, threshold=self.composite_threshold)

    def total_cost(self) -> Cost:
        """The sum of every position's cost."""
        total = Cost()
        for index in sorted(self._costs):
            total = total + self._costs[index]
        return total

    def counts(self) -> BatchCounts:
        """Samples, failed samples and per-metric failures."""
        return BatchCounts(
            samples=self.size,
            failed=self.size - self._passed.count(1),
            metric_failures={m: self._flags[m].count(_FAILED) for m in self.metric_ids},
            metric_errors={m: self._flags[m].count(_ERROR) for m in self.metric_ids},
            first_errors=dict(self.first_errors),
            first_undetermined=dict(self.first_undetermined),
            higher_is_better=dict(self.directions),
        )
