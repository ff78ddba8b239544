"""The public entry points: :func:`evaluate`, :func:`evaluate_batch`, :func:`create_evaluator`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any

import attrs

from assay import AssayError, EvalSample, Metric, Registry, default_registry
from assay_evaluation._aggregate import TallyReader
from assay_evaluation._batch import run_batch, summarize_tally
from assay_evaluation._batch_result import BatchEvalResult
from assay_evaluation._codes import EvaluationErrorCode as Code
from assay_evaluation._columns import ColumnMapper
from assay_evaluation._options import EvaluateOptions, parse_options
from assay_evaluation._pipeline import Submit, on_executor, on_processes, run_sharded
from assay_evaluation._plan import resolve_plan
from assay_evaluation._plan_memo import PlanMemo
from assay_evaluation._progress import Clock, RunStats
from assay_evaluation._readers import SampleSource, read_samples
from assay_evaluation._samples import coerce_sample
from assay_evaluation._shard import chunk_jobs
from assay_evaluation._single import evaluate_with_plan
from assay_evaluation._types import EvalResult
from assay_evaluation._work import WorkPlan
from assay_evaluation._workers import orphan_safe_pool

__all__ = ["Evaluator", "create_evaluator", "evaluate", "evaluate_batch"]

SampleLike = EvalSample | Mapping[str, Any]
OptionsLike = EvaluateOptions | Mapping[str, Any] | None
MetricLike = str | Metric
"""A registered metric's id, or a :class:`~assay.Metric` object used as given."""


def evaluate(
    sample: SampleLike,
    metrics: Sequence[MetricLike] | None = None,
    options: OptionsLike = None,
    *,
    registry: Registry | None = None,
    column_map: Mapping[str, str] | None = None,
    strict: bool = False,
) -> EvalResult:
    """Evaluate one sample (rag-eval-node-ts 0.3 ``evaluate``).

    :param sample: an :class:`~assay.EvalSample` or its JSON shape.
    :param metrics: metrics in run order: registry ids (snake_case, or the camelCase of the
        JSON input format) or :class:`~assay.Metric` objects, which need no registration;
        ``None`` uses ``options.profile`` when given, else
        :data:`~assay_evaluation.DEFAULT_METRICS` when they are all registered, else the
        registry's ``metric-set`` named ``default``, else every registered metric.
    :param options: :class:`EvaluateOptions` or a mapping of them (snake_case or camelCase keys).
    :param registry: where metrics and judges are looked up (default: the process registry).
    :param column_map: sample field -> key, for keys that are neither the JSON input format's
        nor ragas's (``user_input``, ``response``, ``retrieved_contexts``, ``reference``).
    :param strict: an unknown key is an ``INVALID_SAMPLE`` error instead of a
        :class:`~assay_evaluation.SampleFieldWarning`.
    :return: per-metric results (tri-state), the composite score and the overall pass.
    :raises AssayError: ``MISSING_ANSWER``, ``INVALID_CONTEXTS``, ``INVALID_SAMPLE`` for a bad
        sample; ``UNKNOWN_METRIC``, ``INVALID_THRESHOLD``, ``INVALID_OPTION``,
        ``JUDGE_MISCONFIGURED`` for bad options; ``INVALID_PLUGIN_OBJECT`` for a metric or judge
        that is a class instead of an instance, or a metric object that lacks a member of the
        protocol. A metric that raises or returns a result breaking its contract (a score
        outside [0, 1], not a MetricResult) gives that metric an error result
        (``INVALID_METRIC_RESULT`` in ``details["error"]``), not an exception.
    """
    parsed = _DEFAULTS if options is None else parse_options(options)
    if column_map is not None or not isinstance(sample, EvalSample):
        sample = ColumnMapper(column_map, strict=strict).row(sample, "sample")
    checked = coerce_sample(sample)
    plan = _PLANS.plan(metrics, parsed, registry if registry is not None else default_registry())
    return evaluate_with_plan(checked, plan)


_DEFAULTS = EvaluateOptions()
"""The options of a call that gives none (read, never changed)."""

_PLANS = PlanMemo()
"""The plan of the last :func:`evaluate` call, reused while nothing it depends on changed."""


def evaluate_batch(
    samples: SampleSource,
    metrics: Sequence[MetricLike] | None = None,
    options: OptionsLike = None,
    *,
    registry: Registry | None = None,
    column_map: Mapping[str, str] | None = None,
    strict: bool = False,
    format: str | None = None,
    contexts_separator: str | None = None,
) -> BatchEvalResult:
    """Evaluate many samples (rag-eval-node-ts 0.3 ``evaluateBatch``), at any scale.

    ``samples`` is a list (or any iterable) of samples, a path to a JSON Lines, JSON array, CSV
    or Parquet file, a pandas or polars DataFrame, a Hugging Face ``Dataset`` or a mapping of
    columns; columns are matched as :func:`~assay_evaluation.read_samples` says (``format``,
    ``column_map``, ``strict`` and ``contexts_separator`` are its arguments).

    In-process (the default), every sample is validated before any work starts. With
    ``options.workers`` (a pool of processes started and stopped here), ``options.scheduler``
    (a dask.distributed cluster) or ``options.executor`` (any
    :class:`concurrent.futures.Executor`), the rows travel unparsed in chunks of
    ``options.chunk_size``, with at most ``options.concurrency`` chunks in flight (at least
    twice the workers), and the workers read, validate, evaluate and serialize them: a bad
    sample stops the run when its chunk is reached, its error naming the line or row, after
    the chunks before it are written. A JSON Lines file is cut into byte ranges of whole
    lines, which workers on this machine read from the file themselves (others get the
    range's bytes); it is never held whole. Results and ``output`` are identical whatever
    runs them, in input order.

    With ``options.output`` each finished chunk is appended to a JSON Lines file (flushed and
    fsynced); with ``options.resume`` samples already in that file (by id, or by position when
    they have none) are not evaluated again; the file is read one line at a time (a resumed
    run reads its samples here, then sends the rest to the workers as objects). With
    ``options.keep_results=False`` no per-sample result is kept in memory: ``results`` is
    empty and everything else (aggregates, pass, cost, regressions, ``counts``) is as with
    them; with workers the calling process's memory does not grow with the number of samples
    (scores beyond 65,536 per metric wait in a temporary file for the statistics).
    ``stats`` says how fast it went and what it cost the calling process.

    :return: results, per-metric aggregates, composite aggregate, overall pass, total cost and,
        with ``options.baseline_result``, regressions.
    :raises AssayError: as :func:`evaluate` and :func:`~assay_evaluation.read_samples` (a bad
        sample is reported as ``samples[i].field``, ``line N.field`` or ``row N.field``);
        ``INVALID_BASELINE`` for a baseline without aggregates; ``MALFORMED_INPUT`` when the
        file to resume from is not a results stream.
    """
    parsed = parse_options(options)
    clock = parsed.clock or Clock()
    tally: TallyReader
    if _distributes(parsed):
        plan = resolve_plan(
            metrics, parsed, registry if registry is not None else default_registry()
        )
        counted = parsed.on_progress is not None  # only progress needs the total first
        jobs, total = chunk_jobs(samples, format, parsed.chunk_size, counted)
        work = WorkPlan(
            plan=plan,
            column_map=column_map,
            strict=strict,
            contexts_separator=contexts_separator,
            write=parsed.output is not None,
            keep=parsed.keep_results,
            worst=0 if parsed.keep_results else parsed.keep_worst,
            cpu=clock.worker_cpu,
        )
        with _runner(parsed, work) as (submit, workers):
            results, tally, stats = run_sharded(jobs, total, work, parsed, submit, clock, workers)
    else:
        checked = read_samples(
            samples,
            format=format,
            column_map=column_map,
            strict=strict,
            contexts_separator=contexts_separator,
        )
        plan = resolve_plan(
            metrics, parsed, registry if registry is not None else default_registry()
        )
        began_wall, began_cpu = clock.wall(), clock.cpu()
        with _resume_executor(parsed) as executor:
            run_options = parsed if executor is None else attrs.evolve(parsed, executor=executor)
            results, tally = run_batch(checked, plan, run_options)
        stats = RunStats(
            samples=tally.size,
            wall_seconds=clock.wall() - began_wall,
            parent_cpu_seconds=clock.cpu() - began_cpu,
            workers=parsed.workers if parsed.executor is None else None,
        )
    batch = summarize_tally(
        tally,
        results,
        [step.metric_id for step in plan.steps],  # duplicates kept: one regression record each
        parsed.baseline_result,
        parsed.regression_threshold,
    )
    if not tally.worst_count:  # else the report's scores are read from it later
        tally.close()
    return attrs.evolve(batch, stats=stats)


def _distributes(options: EvaluateOptions) -> bool:
    """Whether the work goes to workers that read, validate and serialize their own rows: with
    ``workers``, ``scheduler`` or ``executor``, except to resume (which matches stored results
    with the samples, so it reads them here)."""
    wanted = options.workers > 0 or options.scheduler is not None or options.executor is not None
    return wanted and not options.resume


@contextmanager
def _resume_executor(options: EvaluateOptions) -> Iterator[Executor | None]:
    """For a resumed run with ``workers`` or ``scheduler``: an executor that takes the samples
    left to evaluate (the plan travels with each chunk); else ``None``."""
    if options.workers > 0:
        pool = orphan_safe_pool(options.workers)
        try:
            yield pool
        except BaseException:
            pool.shutdown(cancel_futures=True)
            raise
        pool.shutdown()
    elif options.scheduler is not None:
        from assay_evaluation._dask import dask_executor

        with dask_executor(options.scheduler) as executor:
            yield executor
    else:
        yield None


@contextmanager
def _runner(options: EvaluateOptions, work: WorkPlan) -> Iterator[tuple[Submit, int | None]]:
    """Where chunks run: a pool of ``options.workers`` processes, the dask cluster at
    ``options.scheduler``, or the caller's ``options.executor``; and how many workers."""
    if options.scheduler is not None:
        from assay_evaluation._dask import on_dask

        with on_dask(options.scheduler, work) as (submit, workers):
            yield submit, workers
    elif options.workers > 0:
        with on_processes(options.workers, work) as submit:
            yield submit, options.workers
    else:
        assert options.executor is not None
        with on_executor(options.executor, work) as submit:
            yield submit, None


@attrs.frozen
class Evaluator:
    """A pre-configured evaluator (rag-eval-node-ts 0.3 ``Evaluator``): per-call options take
    precedence over ``config``; per-call ``metrics`` replace ``metrics``.

    Attributes:
        config: the configured options.
        metrics: the configured metrics (ids or Metric objects), or ``None`` for the default
            set.
        registry: where metrics and judges are looked up, or ``None`` for the process registry.
    """

    config: EvaluateOptions
    metrics: tuple[MetricLike, ...] | None = None
    registry: Registry | None = None

    def evaluate(
        self,
        sample: SampleLike,
        metrics: Sequence[MetricLike] | None = None,
        options: OptionsLike = None,
    ) -> EvalResult:
        """:func:`evaluate` with this evaluator's configuration."""
        return evaluate(
            sample,
            self.metrics if metrics is None else metrics,
            self.config.merged(options),
            registry=self.registry,
        )

    def evaluate_batch(
        self,
        samples: SampleSource,
        metrics: Sequence[MetricLike] | None = None,
        options: OptionsLike = None,
        **reading: Any,
    ) -> BatchEvalResult:
        """:func:`evaluate_batch` with this evaluator's configuration; ``reading`` takes its
        ``column_map``, ``strict``, ``format`` and ``contexts_separator``."""
        return evaluate_batch(
            samples,
            self.metrics if metrics is None else metrics,
            self.config.merged(options),
            registry=self.registry,
            **reading,
        )


def create_evaluator(
    config: Mapping[str, Any] | None = None, *, registry: Registry | None = None
) -> Evaluator:
    """An :class:`Evaluator` from a configuration mapping: any option of :class:`EvaluateOptions`
    plus ``metrics`` (rag-eval-node-ts 0.3 ``EvaluatorConfig``).

    The configuration is validated now, including metric ids and thresholds when a registry is
    available, so a bad config fails at creation, not at the first sample.

    :raises AssayError: as :func:`evaluate` for the options and metrics; ``INVALID_OPTION`` when
        ``metrics`` is not a list or the config is not a mapping.
    """
    if config is not None and not isinstance(config, Mapping):
        raise AssayError(
            Code.INVALID_OPTION,
            f"an evaluator config must be an object, got {type(config).__name__}",
            "config",
        )
    config = dict(config or {})
    metrics = config.pop("metrics", None)
    if metrics is not None and (isinstance(metrics, str) or not isinstance(metrics, Sequence)):
        raise AssayError(
            Code.INVALID_OPTION, "metrics must be a list of ids or Metric objects", "config.metrics"
        )
    options = parse_options(config)
    resolve_plan(metrics, options, registry if registry is not None else default_registry())
    return Evaluator(options, None if metrics is None else tuple(metrics), registry)
