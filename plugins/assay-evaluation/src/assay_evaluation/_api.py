"""The public entry points: :func:`evaluate`, :func:`evaluate_batch`, :func:`create_evaluator`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from assay import AssayError, EvalSample, Metric, Registry, default_registry
from assay_evaluation._batch import run_batch, summarize_tally
from assay_evaluation._batch_result import BatchEvalResult
from assay_evaluation._codes import EvaluationErrorCode as Code
from assay_evaluation._columns import ColumnMapper
from assay_evaluation._options import EvaluateOptions, parse_options
from assay_evaluation._plan import resolve_plan
from assay_evaluation._readers import SampleSource, read_samples
from assay_evaluation._samples import coerce_sample
from assay_evaluation._single import evaluate_with_plan
from assay_evaluation._types import EvalResult

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
        protocol; ``INVALID_METRIC_RESULT`` when a metric breaks its contract.
    """
    parsed = parse_options(options)
    checked = coerce_sample(ColumnMapper(column_map, strict=strict).row(sample, "sample"))
    plan = resolve_plan(metrics, parsed, registry or default_registry())
    return evaluate_with_plan(checked, plan)


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

    Every sample is validated before any work starts. Results come back in input order whatever
    the executor. With ``options.executor`` the work runs there in chunks of
    ``options.chunk_size`` with at most ``options.concurrency`` chunks in flight; results are
    identical to the in-process run. With ``options.output`` each finished chunk is appended to
    a JSON Lines file (flushed and fsynced); with ``options.resume`` samples already in that file
    (by id, or by position when they have none) are not evaluated again; the file is read one
    line at a time. With ``options.keep_results=False`` no per-sample result is kept in memory:
    ``results`` is empty and everything else (aggregates, pass, cost, regressions,
    ``counts``) is as with them.

    :return: results, per-metric aggregates, composite aggregate, overall pass, total cost and,
        with ``options.baseline_result``, regressions.
    :raises AssayError: as :func:`evaluate` and :func:`~assay_evaluation.read_samples` (a bad
        sample is reported as ``samples[i].field``, ``line N.field`` or ``row N.field``);
        ``INVALID_BASELINE`` for a baseline without aggregates; ``MALFORMED_INPUT`` when the
        file to resume from is not a results stream.
    """
    parsed = parse_options(options)
    checked = read_samples(
        samples,
        format=format,
        column_map=column_map,
        strict=strict,
        contexts_separator=contexts_separator,
    )
    plan = resolve_plan(metrics, parsed, registry or default_registry())
    results, tally = run_batch(checked, plan, parsed)
    return summarize_tally(
        tally,
        results,
        [step.metric_id for step in plan.steps],  # duplicates kept: one regression record each
        parsed.baseline_result,
        parsed.regression_threshold,
    )


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
    resolve_plan(metrics, options, registry or default_registry())
    return Evaluator(options, None if metrics is None else tuple(metrics), registry)
