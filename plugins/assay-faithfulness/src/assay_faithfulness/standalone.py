"""Scoring without the evaluation runner: a plain :class:`assay.MetricContext` and
:func:`score_sample`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import assay
from assay_faithfulness.answer_metrics import (
    AnswerCorrectness,
    AnswerRelevance,
    Faithfulness,
    HallucinationRate,
)
from assay_faithfulness.answer_support import AnswerSupport
from assay_faithfulness.base import HeuristicMetric
from assay_faithfulness.claim_support import ClaimSupport
from assay_faithfulness.codes import UNKNOWN_METRIC
from assay_faithfulness.context_metrics import ContextPrecision, ContextRecall, ContextRelevance
from assay_faithfulness.wire import metric_id_from_wire

__all__ = [
    "DEFAULT_METRICS",
    "DEFAULT_METRIC_IDS",
    "SimpleMetricContext",
    "extra_metrics",
    "get_metric",
    "score_sample",
]

T = TypeVar("T")

DEFAULT_METRICS: tuple[HeuristicMetric, ...] = (
    Faithfulness(),
    AnswerRelevance(),
    ContextPrecision(),
    ContextRecall(),
    ContextRelevance(),
    AnswerCorrectness(),
    HallucinationRate(),
)
"""One instance of each of the seven metrics compatible with rag-eval-node-ts 0.3, in
its order."""

DEFAULT_METRIC_IDS: tuple[str, ...] = tuple(m.id for m in DEFAULT_METRICS)
"""The ids of the registry's ``metric-set`` named ``default``."""


EXTRA_METRICS: tuple[HeuristicMetric, ...] = (ClaimSupport(), AnswerSupport())
"""This plugin's own metrics beyond rag-eval-node-ts's (registered, not in the default set)."""


def extra_metrics() -> tuple[Any, ...]:
    """This plugin's own metrics beyond rag-eval-node-ts's (registered, not in the default set)."""
    return EXTRA_METRICS


class SimpleMetricContext:
    """A :class:`assay.MetricContext` for scoring one sample outside the runner.

    Attributes:
        options: evaluation options; metrics here read ``options["heuristic"]``.
        judge: always usable as ``None`` (heuristic metrics call no judge).

    Use one context per sample: :meth:`shared` caches per key for the context's lifetime.
    """

    def __init__(self, options: Mapping[str, Any] | None = None, judge: Any = None) -> None:
        self.options: Mapping[str, Any] = dict(options or {})
        self.judge = judge
        self._cache: dict[str, Any] = {}

    def shared(self, key: str, compute: Callable[[], T]) -> T:
        """``compute()`` the first time ``key`` is asked for, then the cached value."""
        try:
            return self._cache[key]  # type: ignore[no-any-return]
        except KeyError:
            value = self._cache[key] = compute()
            return value


def get_metric(metric_id: str) -> Any:
    """This plugin's metric with id ``metric_id`` (snake_case, or the camelCase of the JSON format).

    :raises assay.AssayError: ``UNKNOWN_METRIC`` when no metric of this plugin has that id.
    """
    wanted = metric_id_from_wire(metric_id)
    for metric in DEFAULT_METRICS:
        if metric.id == wanted:
            return metric
    for metric in extra_metrics():
        if metric.id == wanted:
            return metric
    known = ", ".join([*DEFAULT_METRIC_IDS, *(m.id for m in extra_metrics())])
    raise assay.AssayError(
        UNKNOWN_METRIC, f"no metric with id {metric_id!r} (known: {known})", "metrics"
    )


def score_sample(
    sample: assay.EvalSample,
    metric_ids: Iterable[str] | None = None,
    options: Mapping[str, Any] | None = None,
    thresholds: Mapping[str, float] | None = None,
) -> dict[str, assay.MetricResult]:
    """Score one sample with this plugin's metrics, without the evaluation runner.

    :param sample: the sample.
    :param metric_ids: which metrics, in order (snake_case or camelCase ids); default the seven
        metrics compatible with rag-eval-node-ts 0.3.
    :param options: evaluation options; ``options["heuristic"]`` tunes the metrics.
    :param thresholds: metric id -> pass threshold; others use their default.
    :return: metric id -> result, in the order asked for (tokenizing shared across metrics).
    :raises assay.AssayError: ``UNKNOWN_METRIC``, ``INVALID_THRESHOLD``, ``INVALID_OPTION``,
        ``MISSING_ANSWER``, ``INVALID_CONTEXTS`` or ``INVALID_SAMPLE``.
    """
    context = SimpleMetricContext(options)
    metrics = [get_metric(m) for m in (DEFAULT_METRIC_IDS if metric_ids is None else metric_ids)]
    wanted = {metric_id_from_wire(k): v for k, v in (thresholds or {}).items()}
    return {
        metric.id: metric.compute(sample, context, wanted.get(metric.id, metric.default_threshold))
        for metric in metrics
    }
