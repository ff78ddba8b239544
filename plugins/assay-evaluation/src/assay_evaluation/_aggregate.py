"""Batch statistics and regression detection, computed exactly as rag-eval-node-ts 0.3 does
(plain left-to-right sums, population standard deviation, squares by multiplication)."""

from __future__ import annotations

import heapq
import math
import os
from array import array
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

import attrs

from assay import AssayError
from assay.cli import read_json_file
from assay_evaluation._codes import EvaluationErrorCode as Code
from assay_evaluation._options import snake_case
from assay_evaluation._outcome import error_of, status_of
from assay_evaluation._spill import order_statistics
from assay_evaluation._types import (
    BatchCounts,
    Cost,
    EvalResult,
    MetricAggregate,
    MetricRegression,
)

__all__ = [
    "BatchTally",
    "TallyReader",
    "add_costs",
    "aggregate_metric",
    "baseline_means",
    "batch_passed",
    "composite_aggregate",
    "detect_regressions",
    "determined",
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
    lowest, low, high, highest = order_statistics(scores)
    median = high if count % 2 else (low + high) / 2
    squares = 0.0
    for score in scores:
        deviation = score - mean
        squares += deviation * deviation
    std_dev = math.sqrt(squares / count)
    return MetricAggregate(
        metric_id, mean, median, lowest, highest, std_dev, pass_rate, null_rate, count
    )


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
    """Metric id -> mean from a baseline: a :class:`~assay_evaluation.BatchEvalResult`, its
    JSON form (``{"aggregates": {id: {"mean": ...}}}``, ids camelCase or snake_case), or the
    path of a JSON file holding it (what ``assay eval --save-baseline`` writes).

    :raises AssayError: ``INVALID_BASELINE`` when there are no aggregates, or a mean is not a
        finite number (NaN and infinities would make every comparison pass silently);
        ``IO_ERROR`` / ``MALFORMED_INPUT`` for a file that cannot be read or is not JSON.
    """
    if isinstance(baseline, str | os.PathLike):
        baseline = read_json_file(os.fspath(baseline))
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
        regressions.append(
            MetricRegression(metric_id, base, aggregate.mean, delta, regressed, threshold, higher)
        )
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


def determined(values: array[float]) -> array[float]:
    """The values that are not NaN (undetermined), in order, as 8-byte floats: a million
    scores take 8 MB here, not the 32 MB of a list."""
    return array("d", (value for value in values if value == value))


def _nans(size: int) -> array[float]:
    return array("d", [_NAN]) * size


def add_costs(total: Cost, costs: Iterable[Cost]) -> Cost:
    """``total`` plus each of ``costs`` in turn (left to right, so a running total equals the
    total of all)."""
    for cost in costs:
        total = total + cost
    return total


class TallyReader:
    """What a batch's summary reads from a tally, whichever way it holds the per-sample
    numbers (:class:`BatchTally` by input position; a run's tally in bounded memory): the
    aggregates, counts and total cost. Subclasses give the determined scores, flag counts and
    cost; the rest is kept here as results arrive.

    :param metric_ids: the metrics to aggregate, distinct, in run order.
    :param worst: also keep the full results of this many worst samples (:func:`worst_rank`:
        errors first, then undetermined composites, then the lowest composite; the earlier
        sample first on a tie), for a report that shows them without every result.
    """

    def __init__(self, metric_ids: Sequence[str], size: int, worst: int) -> None:
        self.metric_ids = list(dict.fromkeys(metric_ids))
        self.size = size
        self.directions: dict[str, bool] = {}
        self.thresholds: dict[str, float] = {}
        self.composite_threshold: float | None = None
        self.first_errors: dict[str, str] = {}
        self.first_undetermined: dict[str, str] = {}
        self.worst_count = worst
        self.worst: list[tuple[int, EvalResult]] = []

    def determined(self, metric_id: str) -> Sequence[float]:
        """The determined scores of ``metric_id``, in input order."""
        raise NotImplementedError

    def _determined_composites(self) -> Sequence[float]:
        raise NotImplementedError

    def _flag_count(self, metric_id: str, flag: int) -> int:
        """Samples whose ``metric_id`` has ``flag`` (``_PASSED``, ``_FAILED``, ``_ERROR``)."""
        raise NotImplementedError

    def _passed_count(self) -> int:
        """Samples that passed overall."""
        raise NotImplementedError

    def total_cost(self) -> Cost:
        """The sum of every position's cost, in input order."""
        raise NotImplementedError

    def close(self) -> None:
        """Let go of what the tally holds outside memory (nothing, unless a subclass spills)."""

    def _keep_worst(self, offered: list[tuple[int, EvalResult]]) -> None:
        replaced = {index for index, _ in offered}
        kept = [item for item in self.worst if item[0] not in replaced]
        self.worst = heapq.nsmallest(self.worst_count, kept + offered, key=_worst_key)

    def _take_notes(self, other: TallyReader) -> None:
        """Join what ``other`` (the tally of the results after this one's) noted besides the
        numbers: directions, thresholds, first errors and undetermined reasons."""
        self.directions.update(other.directions)
        _keep_first(self.thresholds, other.thresholds)
        _keep_first(self.first_errors, other.first_errors)
        _keep_first(self.first_undetermined, other.first_undetermined)
        if other.size:
            self.composite_threshold = other.composite_threshold

    def aggregate(self, metric_id: str) -> MetricAggregate:
        """:func:`aggregate_metric` of one metric."""
        scores = self.determined(metric_id)
        passed = self._flag_count(metric_id, _PASSED)  # only a determined score passes
        aggregate = summarize(metric_id, scores, passed, self.size - len(scores), self.size)
        return attrs.evolve(
            aggregate,
            errors=self._flag_count(metric_id, _ERROR),
            threshold=self.thresholds.get(metric_id),
        )

    def composite(self) -> MetricAggregate:
        """:func:`composite_aggregate`."""
        scores = self._determined_composites()
        passed = self._passed_count() if scores else 0
        aggregate = summarize("composite", scores, passed, self.size - len(scores), self.size)
        return attrs.evolve(aggregate, threshold=self.composite_threshold)

    def counts(self) -> BatchCounts:
        """Samples, failed samples and per-metric failures."""
        return BatchCounts(
            samples=self.size,
            failed=self.size - self._passed_count(),
            metric_failures={m: self._flag_count(m, _FAILED) for m in self.metric_ids},
            metric_errors={m: self._flag_count(m, _ERROR) for m in self.metric_ids},
            first_errors=dict(self.first_errors),
            first_undetermined=dict(self.first_undetermined),
            higher_is_better=dict(self.directions),
        )


class BatchTally(TallyReader):
    """What a batch's aggregates need from each sample's result, by input position: per metric
    the score and the pass flag, the composite, the overall pass, the cost and the directions;
    not the sample, explanations, signals or details. Scores are held as 8-byte floats (NaN for
    an undetermined one: a metric's NaN is already turned into ``None``), flags as bytes, so a
    million samples with two metrics take about 27 MB. Results may arrive in any order (a
    resumed file, an executor) and a later one for a position replaces the earlier one; a tally
    also grows at its end (:meth:`add` at ``size``). The statistics are taken in input order,
    so they equal :func:`aggregate_metric` and :func:`composite_aggregate` over the results to
    the last bit. A worker tallies each chunk this way; the calling process joins the chunks
    in a tally of bounded memory (:class:`~assay_evaluation._running.RunningTally`).

    :param metric_ids: the metrics to aggregate, distinct, in run order.
    :param size: samples in the batch (0: it grows as results are added at its end).
    :param worst: as :class:`TallyReader`.
    """

    def __init__(self, metric_ids: Sequence[str], size: int = 0, worst: int = 0) -> None:
        super().__init__(metric_ids, size, worst)
        self.scores: dict[str, array[float]] = {m: _nans(size) for m in self.metric_ids}
        self.flags: dict[str, bytearray] = {m: bytearray(size) for m in self.metric_ids}
        self.composites: array[float] = _nans(size)
        self.passed = bytearray(size)
        self.costs: dict[int, Cost] = {}  # only non-zero costs are held

    @classmethod
    def of(cls, results: Sequence[EvalResult], metric_ids: Sequence[str]) -> BatchTally:
        """The tally of ``results`` in order."""
        tally = cls(metric_ids, len(results))
        for index, result in enumerate(results):
            tally.add(index, result)
        return tally

    def _grow(self) -> None:
        for metric_id in self.metric_ids:
            self.scores[metric_id].append(_NAN)
            self.flags[metric_id].append(_UNDETERMINED)
        self.composites.append(_NAN)
        self.passed.append(0)
        self.size += 1

    def add(self, index: int, result: EvalResult) -> None:
        """Record ``result`` as position ``index``'s (replacing what was there); ``index ==
        size`` appends it."""
        if index == self.size:
            self._grow()
        for metric_id in self.metric_ids:
            metric = result.metrics.get(metric_id)
            if metric is None or metric.score is None:
                self.scores[metric_id][index] = _NAN
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
                self.flags[metric_id][index] = flag
            else:
                if metric_id not in self.thresholds:
                    self.thresholds[metric_id] = metric.threshold
                self.scores[metric_id][index] = metric.score
                self.flags[metric_id][index] = (
                    _PASSED if metric.passed is True else _FAILED if metric.passed is False else 0
                )
        self.composite_threshold = result.composite_threshold
        composite = result.composite_score
        self.composites[index] = _NAN if composite is None else composite
        self.passed[index] = bool(result.passed)
        if result.cost != _NO_COST:
            self.costs[index] = result.cost
        else:
            self.costs.pop(index, None)
        self.directions.update(result.higher_is_better)
        if self.worst_count:
            self._keep_worst([(index, result)])

    def determined(self, metric_id: str) -> Sequence[float]:
        """The determined scores of ``metric_id``, in input order."""
        return determined(self.scores[metric_id])

    def _determined_composites(self) -> Sequence[float]:
        return determined(self.composites)

    def _flag_count(self, metric_id: str, flag: int) -> int:
        return self.flags[metric_id].count(flag)

    def _passed_count(self) -> int:
        return self.passed.count(1)

    def total_cost(self) -> Cost:
        """The sum of every position's cost."""
        return add_costs(Cost(), (self.costs[index] for index in sorted(self.costs)))
