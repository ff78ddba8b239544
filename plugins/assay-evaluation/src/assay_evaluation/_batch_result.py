"""The result of a batch evaluation, with what a team does with it: check it against a gate,
turn it into records, a DataFrame, a file or an HTML report."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from assay import AssayError
from assay.cli import atomic_write
from assay_evaluation._codes import EvaluationErrorCode as Code
from assay_evaluation._export import save_results, to_pandas, to_records
from assay_evaluation._gate import Gate, GateVerdict
from assay_evaluation._progress import RunStats
from assay_evaluation._report_html import render_html
from assay_evaluation._types import BatchCounts, Cost, EvalResult, MetricAggregate, MetricRegression

__all__ = ["BatchEvalResult"]


def _results(values: Iterable[EvalResult]) -> tuple[EvalResult, ...]:
    return tuple(values)


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
        stats: how fast the run went and what it cost the calling process
            (:class:`~assay_evaluation.RunStats`); ``None`` in a result built by hand. Not
            compared, not written to any file.
        worst_results: ``(input position, result)`` of the worst samples kept with
            ``keep_worst`` when ``results`` is empty (what the HTML report shows).
        scores: with ``keep_worst``, each metric's determined scores in input order (the
            report's histograms), held as 8-byte floats (with workers, beyond 65,536 of them,
            in a temporary file read back in blocks as they are iterated).

    With ``keep_results=False`` (what ``assay eval`` does unless ``--json`` or ``--html`` needs
    every result) ``results`` is empty: the aggregates, pass, cost, regressions and
    ``counts`` are those of the full batch, but no per-sample result is held in memory.
    """

    results: tuple[EvalResult, ...] = attrs.field(converter=_results)
    aggregates: Mapping[str, MetricAggregate]
    composite_aggregate: MetricAggregate
    passed: bool
    total_cost: Cost = attrs.field(factory=Cost)
    regressions: tuple[MetricRegression, ...] | None = None
    counts: BatchCounts | None = None
    stats: RunStats | None = attrs.field(default=None, eq=False, repr=False)
    worst_results: tuple[tuple[int, EvalResult], ...] = attrs.field(
        default=(), eq=False, repr=False
    )
    scores: Mapping[str, Sequence[float]] | None = attrs.field(default=None, eq=False, repr=False)

    def __repr__(self) -> str:
        """A short account (samples, failures, each metric's mean and pass rate, regressions)
        instead of every result: a batch of thousands shown in a notebook or a debugger stays
        one readable line. ``results`` holds the results."""
        parts = [
            f"{self.sample_count} samples",
            f"{self.failed_count} failed",
            f"passed={self.passed}",
        ]
        for metric_id, aggregate in (
            *self.aggregates.items(),
            ("composite", self.composite_aggregate),
        ):
            if aggregate.count:
                parts.append(
                    f"{metric_id}: mean {aggregate.mean:.3f}, pass rate {aggregate.pass_rate:.1%}"
                )
            else:
                parts.append(f"{metric_id}: no score")
        if self.regressions is not None:
            parts.append(f"regressed={[r.metric_id for r in self.regressed]}")
        return f"<BatchEvalResult {'; '.join(parts)}>"

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
        if gate is not None and settings:
            raise AssayError(Code.INVALID_OPTION, "give a Gate or settings, not both", "gate")
        return (gate or Gate.from_mapping(settings)).check(self)

    def to_records(self) -> list[dict[str, Any]]:
        """One flat dict per sample: id, question, answer, contexts, ground truth, and per
        metric its score, pass flag, status and reason (see
        :func:`assay_evaluation.to_records`).

        :raises AssayError: ``INVALID_OPTION`` when the results were not kept."""
        return to_records(self)

    def to_pandas(self) -> Any:
        """:meth:`to_records` as a ``pandas.DataFrame`` (needs the ``pandas`` extra).

        :raises AssayError: ``MISSING_DEPENDENCY`` without pandas, naming the extra."""
        return to_pandas(self)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write every result to ``path`` by its extension (``.jsonl``, ``.csv``, ``.parquet``),
        atomically; see :func:`assay_evaluation.save_results`."""
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
