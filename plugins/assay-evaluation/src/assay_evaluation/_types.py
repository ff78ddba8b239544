"""Records produced by the evaluation runner: per-sample results, aggregates, regressions, cost."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs

from assay import EvalSample, MetricResult

__all__ = [
    "BatchCounts",
    "Cost",
    "EvalResult",
    "MetricAggregate",
    "MetricRegression",
]


def _ids(values: Iterable[str]) -> tuple[str, ...]:
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


@attrs.frozen(slots=False)  # one per sample: a dict class is cheaper to build
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
        threshold: the largest move of the mean that is not a regression (the run's
            ``regression_threshold``); ``None`` in a record built by hand. Not compared, not
            written to the JSON form.
        higher_is_better: the metric's direction (a lower-is-better metric regresses when its
            mean rises).
    """

    metric_id: str
    baseline_mean: float
    current_mean: float
    delta: float
    regressed: bool
    threshold: float | None = attrs.field(default=None, eq=False)
    higher_is_better: bool = attrs.field(default=True, eq=False)

    def describe(self) -> str:
        """``mean 0.986 -> 0.748 (delta -0.238; allowed: a drop of at most 0.05)``."""
        allowed = ""
        if self.threshold is not None:
            move = "drop" if self.higher_is_better else "rise"
            allowed = f"; allowed: a {move} of at most {self.threshold:g}"
        return (
            f"mean {self.baseline_mean:.3f} -> {self.current_mean:.3f} "
            f"(delta {self.delta:+.3f}{allowed})"
        )


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
