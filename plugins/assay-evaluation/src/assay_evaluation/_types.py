"""Records produced by the evaluation runner: per-sample results, aggregates, regressions, cost."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from assay import EvalSample, MetricResult

if TYPE_CHECKING:
    from assay_evaluation._gate import Gate, GateVerdict

__all__ = [
    "BatchCounts",
    "BatchEvalResult",
    "Cost",
    "EvalResult",
    "MetricAggregate",
    "MetricRegression",
]


def _ids(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


def _results(values: Iterable[EvalResult]) -> tuple[EvalResult, ...]:
    return tuple(values)


@attrs.frozen
class Cost:
    """Judge usage (rag-eval-node-ts 0.3 ``CostTracker``), summed per sample and per batch.

    Attributes:
        llm_calls: judge calls actually made (cache hits excluded).
        input_tokens: prompt tokens reported by the judge (0 when not reported).
        output_tokens: completion tokens reported by the judge (0 when not reported).
        parse_failures: judge replies that could not be parsed (each gave an undetermined score).
        cache_hits: judge calls answered from a cache, at no cost.
    """

    llm_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    parse_failures: int = 0
    cache_hits: int = 0

    def __add__(self, other: Cost) -> Cost:
        return Cost(
            self.llm_calls + other.llm_calls,
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.parse_failures + other.parse_failures,
            self.cache_hits + other.cache_hits,
        )


@attrs.frozen
class EvalResult:
    """The evaluation of one sample.

    Attributes:
        sample: the sample, unchanged.
        metrics: one :class:`~assay.MetricResult` per distinct metric id, in run order.
        metric_order: the metric ids as run, duplicates kept (a duplicate counts twice in the
            composite, as in rag-eval-node-ts 0.3).
        higher_is_better: per metric id, the direction its threshold and composite use.
        composite_score: weighted mean of the determined scores, or ``None`` when no weight
            applies (see :func:`~assay_evaluation.composite_score`).
        passed: no metric failed (undetermined is not a failure), the composite is determined
            and at least ``composite_threshold``.
        composite_threshold: the threshold the composite was judged at.
        cost: judge usage for this sample.
        timestamp: when it was evaluated, an ISO-8601 date-time supplied by the caller
            (``options.timestamp``), or ``None``; the library never reads a clock.
    """

    sample: EvalSample
    metrics: Mapping[str, MetricResult]
    metric_order: tuple[str, ...] = attrs.field(converter=_ids)
    higher_is_better: Mapping[str, bool]
    composite_score: float | None
    passed: bool
    composite_threshold: float
    cost: Cost = Cost()
    timestamp: str | None = None

    @property
    def sample_id(self) -> str | None:
        """The sample's id, if it has one."""
        return self.sample.id


@attrs.frozen
class MetricAggregate:
    """Statistics of one metric over a batch (rag-eval-node-ts 0.3 ``MetricAggregate``).

    ``mean``, ``median``, ``min``, ``max`` and ``std_dev`` (population) are over the determined
    scores only; all are 0 when no score is determined. ``pass_rate`` and ``null_rate`` are
    fractions of all samples.

    Attributes:
        metric_id: the metric.
        mean: left-to-right sum of determined scores divided by their count.
        median: middle of the sorted determined scores (mean of the two middle ones when even).
        min: smallest determined score.
        max: largest determined score.
        std_dev: population standard deviation around ``mean``.
        pass_rate: samples whose result passed, over all samples.
        null_rate: samples whose score is undetermined (by design or by an error), over all
            samples.
        count: determined scores.
        errors: samples whose result is an error (the metric raised, the judge failed or its
            reply could not be parsed); they are among the undetermined ones.
        threshold: the threshold the metric was judged at (the composite threshold for the
            composite), or ``None`` when unknown.
    """

    metric_id: str
    mean: float
    median: float
    min: float
    max: float
    std_dev: float
    pass_rate: float
    null_rate: float
    count: int = 0
    errors: int = 0
    threshold: float | None = None


@attrs.frozen
class MetricRegression:
    """How one metric's mean moved against a baseline.

    Attributes:
        metric_id: the metric.
        baseline_mean: the baseline's mean.
        current_mean: this run's mean.
        delta: ``current_mean - baseline_mean``.
        regressed: ``delta < -threshold`` (``delta > threshold`` for a lower-is-better metric).
    """

    metric_id: str
    baseline_mean: float
    current_mean: float
    delta: float
    regressed: bool


@attrs.frozen
class BatchCounts:
    """How many samples a batch had and failed, known even when its results were not kept.

    Attributes:
        samples: samples in the batch.
        failed: samples whose overall ``passed`` is false.
        metric_failures: per metric id, samples whose result for it failed (``passed is
            False``; undetermined is not a failure).
        metric_errors: per metric id, samples whose result for it is an error.
        first_errors: per metric id with errors, the first error's message.
        first_undetermined: per metric id with undetermined-by-design results, the first one's
            explanation (e.g. no ground truth).
        higher_is_better: per metric id, its direction.
    """

    samples: int
    failed: int
    metric_failures: Mapping[str, int]
    metric_errors: Mapping[str, int] = attrs.field(factory=dict)
    first_errors: Mapping[str, str] = attrs.field(factory=dict)
    first_undetermined: Mapping[str, str] = attrs.field(factory=dict)
    higher_is_better: Mapping[str, bool] = attrs.field(factory=dict)


@attrs.frozen
class BatchEvalResult:
    """The evaluation of a batch.

    Attributes:
        results: one :class:`EvalResult` per input sample, in input order.
        aggregates: one :class:`MetricAggregate` per metric id, in run order.
        composite_aggregate: statistics of the determined composite scores; its ``pass_rate`` is
            the fraction of samples whose overall ``passed`` is true.
        passed: every sample passed and ``composite_aggregate.pass_rate >= 0.5``.
        total_cost: judge usage over all samples.
        regressions: per-metric comparison with a baseline, or ``None`` when none was given.
        counts: samples, failed samples and per-metric failures; ``None`` in a result built by
            hand (they are then counted from ``results``).

    With ``keep_results=False`` (what ``assay eval`` does unless ``--json`` or ``--html`` needs
    every result) ``results`` is empty: the aggregates, pass, cost, regressions and
    ``counts`` are those of the full batch, but no per-sample result is held in memory.
    """

    results: tuple[EvalResult, ...] = attrs.field(converter=_results)
    aggregates: Mapping[str, MetricAggregate]
    composite_aggregate: MetricAggregate
    passed: bool
    total_cost: Cost = Cost()
    regressions: tuple[MetricRegression, ...] | None = None
    counts: BatchCounts | None = None

    @property
    def sample_count(self) -> int:
        """Samples in the batch (also when ``results`` were not kept)."""
        return len(self.results) if self.counts is None else self.counts.samples

    @property
    def failed_count(self) -> int:
        """Samples that did not pass (also when ``results`` were not kept)."""
        if self.counts is None:
            return sum(not r.passed for r in self.results)
        return self.counts.failed

    @property
    def results_kept(self) -> bool:
        """Whether ``results`` holds every sample's result."""
        return len(self.results) == self.sample_count

    def check(self, gate: Gate | None = None, **settings: Any) -> GateVerdict:
        """Whether this batch passes ``gate`` (default: :class:`~assay_evaluation.Gate` built
        from ``settings``: ``min_pass_rate``, ``max_undetermined_rate``, ``max_error_rate``,
        ``fail_on``): passed, the exit code ``assay eval`` would give, and why.

        :raises AssayError: ``INVALID_OPTION`` for a bad setting, or both a gate and settings.
        """
        from assay_evaluation._gate import Gate

        if gate is not None and settings:
            from assay import AssayError

            raise AssayError("INVALID_OPTION", "give a Gate or settings, not both", "gate")
        return (gate or Gate.from_mapping(settings)).check(self)

    def to_records(self) -> list[dict[str, Any]]:
        """One flat dict per sample: id, question, answer, contexts, ground truth, and per
        metric its score, pass flag, status and reason (see
        :func:`assay_evaluation.to_records`).

        :raises AssayError: ``INVALID_OPTION`` when the results were not kept."""
        from assay_evaluation._export import to_records

        return to_records(self)

    def to_pandas(self) -> Any:
        """:meth:`to_records` as a ``pandas.DataFrame`` (needs the ``pandas`` extra).

        :raises AssayError: ``MISSING_DEPENDENCY`` without pandas, naming the extra."""
        from assay_evaluation._export import to_pandas

        return to_pandas(self)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write every result to ``path`` by its extension (``.jsonl``, ``.csv``, ``.parquet``),
        atomically; see :func:`assay_evaluation.save_results`."""
        from assay_evaluation._export import save_results

        return save_results(self, path)

    def to_html(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        title: str = "assay evaluation",
        worst: int = 10,
        gate: Gate | None = None,
    ) -> str:
        """The self-contained HTML report (verdict under ``gate``, aggregates, histograms,
        regressions, the ``worst`` samples with question, answer, contexts, ground truth and
        each metric's reason); written atomically to ``path`` when given. Returns the HTML."""
        from assay.cli import atomic_write
        from assay_evaluation._gate import Gate
        from assay_evaluation._report_html import render_html

        html = render_html(self, title, worst, (gate or Gate()).check(self))
        if path is not None:
            with atomic_write(path) as handle:
                handle.write(html)
        return html

    @property
    def regressed(self) -> list[MetricRegression]:
        """The regressions that were flagged."""
        return [r for r in self.regressions or () if r.regressed]

    def failed_thresholds(self) -> dict[str, float]:
        """Metric id -> pass rate, for every metric that some sample failed."""
        if self.counts is not None:
            failures = self.counts.metric_failures
            return {
                metric_id: aggregate.pass_rate
                for metric_id, aggregate in self.aggregates.items()
                if failures.get(metric_id, 0)
            }
        return {
            metric_id: aggregate.pass_rate
            for metric_id, aggregate in self.aggregates.items()
            if any(
                r.metrics.get(metric_id) and r.metrics[metric_id].passed is False
                for r in self.results
            )
        }
