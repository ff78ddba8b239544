"""Resolving metric ids, modes, thresholds and weights into a picklable evaluation plan."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from assay import AssayError, ErrorCode, Registry
from assay_evaluation._codes import EvaluationErrorCode as Code
from assay_evaluation._judge_config import judge_from_config
from assay_evaluation._objects import refuse_class
from assay_evaluation._options import EvaluateOptions, check_threshold, snake_case, suggest
from assay_evaluation._profiles import DEFAULT_METRICS, PROFILES, QUESTION_METRICS

__all__ = [
    "LLM_METRIC_KIND",
    "METRIC_SET_KIND",
    "EvaluationPlan",
    "MetricStep",
    "profile_metrics",
    "resolve_plan",
]

LLM_METRIC_KIND = "llm-metric"
"""Registry kind of judge-backed metrics; they share ids with the heuristic ``"metric"`` kind."""
METRIC_SET_KIND = "metric-set"
"""Registry kind of named metric-id lists; ``"default"`` is used when ``metrics`` is omitted."""


@attrs.frozen
class MetricStep:
    """One metric as the runner will run it.

    Attributes:
        metric_id: the registered id (results are keyed by it).
        metric: the metric object (heuristic or judge-backed).
        mode: ``"heuristic"`` or ``"llm"``.
        threshold: the pass threshold in [0, 1].
        weight: the weight in the composite.
        higher_is_better: the metric's direction.
        needs_question: the metric compares the question with something (it declares
            ``"question"`` in ``requires``, or its id is in
            :data:`~assay_evaluation._profiles.QUESTION_METRICS`).
    """

    metric_id: str
    metric: Any
    mode: str
    threshold: float
    weight: float
    higher_is_better: bool
    needs_question: bool = False


@attrs.frozen
class EvaluationPlan:
    """Everything a worker needs to evaluate samples; picklable when the metrics and the judge
    are (registries are not shipped to workers).

    Attributes:
        steps: metric steps in run order, duplicates kept.
        composite_threshold: minimum composite for a sample to pass.
        judge: the judge, or ``None``.
        context_options: what metrics see as ``context.options``: ``heuristic``,
            ``prompt_overrides``, ``repeats``, ``judge_cache``.
        timestamp: the caller's ISO-8601 stamp for every result, or ``None``.
    """

    steps: tuple[MetricStep, ...]
    composite_threshold: float
    judge: Any
    context_options: Mapping[str, Any]
    timestamp: str | None = None
    order: tuple[str, ...] = attrs.field(init=False, eq=False, repr=False)
    """The steps' metric ids, duplicates kept (every result's ``metric_order``)."""
    directions: Mapping[str, bool] = attrs.field(init=False, eq=False, repr=False)
    """Metric id -> higher is better, the last step of an id winning (copied per result)."""
    weights: Mapping[str, float] = attrs.field(init=False, eq=False, repr=False)
    """Metric id -> composite weight, the last step of an id winning."""
    metrics: tuple[Any, ...] = attrs.field(init=False, eq=False, repr=False)
    """The steps' metric objects."""

    def __attrs_post_init__(self) -> None:
        # what every sample's result repeats, worked out once per plan
        object.__setattr__(self, "order", tuple(step.metric_id for step in self.steps))
        directions = {step.metric_id: step.higher_is_better for step in self.steps}
        object.__setattr__(self, "directions", directions)
        object.__setattr__(self, "weights", {step.metric_id: step.weight for step in self.steps})
        object.__setattr__(self, "metrics", tuple(step.metric for step in self.steps))

    @property
    def metric_ids(self) -> list[str]:
        """Distinct metric ids in run order."""
        return list(dict.fromkeys(step.metric_id for step in self.steps))


_METRIC_MEMBERS = ("id", "default_threshold", "higher_is_better", "requires")


def _metric_object(obj: Any, path: str) -> Any:
    """``obj`` when it is a :class:`~assay.Metric` instance with a non-empty string ``id``."""
    refuse_class(obj, "Metric", path)
    missing = [name for name in _METRIC_MEMBERS if not hasattr(obj, name)]
    if not callable(getattr(obj, "compute", None)):
        missing.append("compute")
    if missing:
        raise AssayError(
            ErrorCode.INVALID_PLUGIN_OBJECT,
            f"{obj!r} is not a Metric: it lacks {', '.join(missing)}",
            path,
        )
    if not isinstance(obj.id, str) or not obj.id:
        raise AssayError(
            ErrorCode.INVALID_PLUGIN_OBJECT,
            f"a Metric needs a non-empty string id; got {obj.id!r} on {obj!r}",
            path,
        )
    return obj


def _direct_metrics(ids: Sequence[Any]) -> dict[str, Any]:
    """The Metric objects given in ``metrics`` instead of ids, by id (checked)."""
    direct: dict[str, Any] = {}
    for index, item in enumerate(ids):
        if isinstance(item, str):
            continue
        if not isinstance(item, type) and not hasattr(item, "compute"):
            raise AssayError(
                Code.UNKNOWN_METRIC,
                f"a metric is an id string or a Metric object, got {item!r}",
                f"metrics[{index}]",
            )
        metric = _metric_object(item, f"metrics[{index}]")
        direct[metric.id] = metric
    return direct


def _find(registry: Registry, kind: str, metric_id: str) -> str | None:
    """``metric_id`` or its snake_case when ``registry.get(kind, ...)`` would find it.

    A bare name that is not registered at all is answered from :meth:`Registry.names`, without
    the failed lookup (which builds an error listing every name: most of a plan's cost when a
    kind, such as ``llm-metric`` without assay-judges, has none of the ids)."""
    names = registry.names(kind)
    if _known(registry, kind, metric_id, names):
        return metric_id
    snake = snake_case(metric_id)
    if snake != metric_id and _known(registry, kind, snake, names):
        return snake
    return None


def _known(registry: Registry, kind: str, name: str, names: list[str]) -> bool:
    return (name in names or "/" in name) and registry.has(kind, name)


def _unknown(metric_id: str, registry: Registry, path: str | None) -> AssayError:
    """Why ``metric_id`` names no one metric: the registry's ``AMBIGUOUS_NAME`` when several
    plugins register it (each by its ``plugin/name``), else ``UNKNOWN_METRIC``."""
    for kind in ("metric", LLM_METRIC_KIND):
        for name in dict.fromkeys((metric_id, snake_case(metric_id))):
            if name in registry.names(kind):
                try:
                    registry.lookup(kind, name)
                except AssayError as error:
                    return AssayError(error.code, error.message, path, error.details)
    known = sorted(set(registry.names("metric")) | set(registry.names(LLM_METRIC_KIND)))
    return AssayError(
        Code.UNKNOWN_METRIC,
        f"no metric with id {metric_id!r} is registered{suggest(snake_case(metric_id), known)} "
        f"(registered: {', '.join(known) or 'none'})",
        path,
    )


def _canonical_keys(
    mapping: Mapping[str, Any], registry: Registry, path: str, direct: Mapping[str, Any]
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in mapping.items():
        found = (
            next((k for k in dict.fromkeys((key, snake_case(key))) if k in direct), None)
            or _find(registry, "metric", key)
            or _find(registry, LLM_METRIC_KIND, key)
        )
        if found is None:
            raise _unknown(key, registry, f"{path}.{key}")
        out[found] = value
    return out


def _default_ids(registry: Registry) -> list[str]:
    """:data:`DEFAULT_METRICS` when all of them are registered; else the registry's
    ``metric-set`` named ``default``; else every registered metric."""
    names = set(registry.names("metric")) | set(registry.names(LLM_METRIC_KIND))
    if names.issuperset(DEFAULT_METRICS):
        return list(DEFAULT_METRICS)
    if registry.has(METRIC_SET_KIND, "default"):
        return list(registry.get(METRIC_SET_KIND, "default"))
    return registry.names("metric")


def profile_metrics(name: str, registry: Registry) -> list[str]:
    """The metric ids of profile ``name``: one of :data:`PROFILES`, else the registry's
    ``metric-set`` of that name.

    :raises AssayError: ``UNKNOWN_PROFILE`` when neither exists.
    """
    if name in PROFILES:
        return list(PROFILES[name])
    if registry.has(METRIC_SET_KIND, name):
        return list(registry.get(METRIC_SET_KIND, name))
    known = sorted({*PROFILES, *registry.names(METRIC_SET_KIND)})
    raise AssayError(
        Code.UNKNOWN_PROFILE,
        f"no profile named {name!r}{suggest(name, known)} (known: {', '.join(known)})",
        "options.profile",
    )


def _resolve_judge(judge: Any, registry: Registry) -> Any:
    if judge is None:
        return None
    if isinstance(judge, str | Mapping):
        return judge_from_config(judge, registry, "options.judge")
    refuse_class(judge, "Judge", "options.judge")
    if not isinstance(getattr(judge, "name", None), str) or not callable(
        getattr(judge, "complete", None)
    ):
        raise AssayError(
            Code.JUDGE_MISCONFIGURED,
            "a judge needs a string `name` and a `complete(prompt)` method; wrap a plain "
            "function with assay_judges.judge_from_callable",
            "options.judge",
        )
    return judge


def _provider(registry: Registry, name: str, mode: str) -> str:
    registration = registry.lookup(LLM_METRIC_KIND if mode == "llm" else "metric", name)
    return registration.provider.describe()


def _step(
    found: str,
    metric: Any,
    mode: str,
    thresholds: Mapping[str, Any],
    weights: Mapping[str, float],
    metric_id: str | None = None,
) -> MetricStep:
    key = metric_id or found
    threshold = thresholds.get(key, metric.default_threshold)
    return MetricStep(
        metric_id=found,
        metric=metric,
        mode=mode,
        threshold=check_threshold(threshold, f"options.thresholds.{key}"),
        weight=weights.get(key, 1.0),
        higher_is_better=bool(metric.higher_is_better),
        needs_question=found in QUESTION_METRICS or "question" in (metric.requires or ()),
    )


def resolve_plan(
    metrics: Sequence[Any] | None, options: EvaluateOptions, registry: Registry
) -> EvaluationPlan:
    """Turn metric ids and options into an :class:`EvaluationPlan`.

    ``metrics=None`` uses ``options.profile`` when given (see :func:`profile_metrics`), else
    :data:`~assay_evaluation._profiles.DEFAULT_METRICS` when they are all registered, else the
    registry's ``metric-set`` named ``default``, else every registered metric. An item of ``metrics`` may also be a :class:`~assay.Metric` object
    (any object with the protocol's members, no registration needed): it runs as given, in every
    mode, and its ``id`` keys its result, threshold and weight. Routing per registered metric:
    ``metric_modes[id]`` when given (``"llm"`` needs an ``llm-metric`` of that id); else in ``llm`` mode the ``llm-metric`` of that id when
    one is registered and the heuristic ``metric`` otherwise; in ``heuristic`` and ``hybrid``
    mode the heuristic ``metric`` (hybrid is heuristic plus the per-metric ``llm`` overrides).

    :raises AssayError: ``UNKNOWN_METRIC`` when no metric is named and none is registered, or
        for an id (in ``metrics``, ``thresholds``,
        ``composite_weights`` or ``metric_modes``) that names no registered metric of the needed
        kind; ``JUDGE_MISCONFIGURED`` when a metric runs in llm mode without a usable judge,
        or when llm or hybrid mode, with no metrics named, would run no judge-backed metric;
        ``INVALID_THRESHOLD`` for a metric whose default threshold is outside [0, 1];
        ``INVALID_PLUGIN_OBJECT`` for a metric or judge that is a class instead of an instance,
        or an object given as a metric that lacks a member of the protocol.
    """
    if metrics is not None and (
        isinstance(metrics, str | bytes | Mapping) or not isinstance(metrics, Iterable)
    ):
        raise AssayError(Code.INVALID_OPTION, "metrics must be a list of ids", "metrics")
    if metrics is not None and options.profile is not None:
        raise AssayError(
            Code.INVALID_OPTION, "give metrics or a profile, not both", "options.profile"
        )
    if metrics is not None:
        ids = list(metrics)
    elif options.profile is not None:
        ids = profile_metrics(options.profile, registry)
    else:
        ids = _default_ids(registry)
        if not ids:  # a run of no metric would read every sample and decide nothing
            raise AssayError(
                Code.UNKNOWN_METRIC,
                f"no metric is registered, so the default list ({', '.join(DEFAULT_METRICS)}) "
                "cannot run: install assay-faithfulness (pip install assay-faithfulness; with "
                "ASSAY_PLUGINS set, include faithfulness in it), or bring your own metrics "
                "(assay eval --plugin my_metrics.py --metrics ..., or metrics=[...] in Python)",
                "metrics",
            )
    direct = _direct_metrics(ids)
    thresholds = _canonical_keys(options.thresholds, registry, "options.thresholds", direct)
    weights = _canonical_keys(
        options.composite_weights, registry, "options.compositeWeights", direct
    )
    modes = _canonical_keys(options.metric_modes, registry, "options.metricModes", direct)
    judge = _resolve_judge(options.judge, registry)
    if options.mode != "heuristic" and judge is None:
        raise AssayError(
            Code.JUDGE_MISCONFIGURED,
            f"mode {options.mode!r} needs a judge; set options.judge",
            "options.judge",
        )
    steps: list[MetricStep] = []
    for index, raw_id in enumerate(ids):
        path: str | None = None  # the field at fault; none for the default list
        if metrics is not None:
            path = f"metrics[{index}]"
        elif options.profile is not None:
            path = "options.profile"
        if not isinstance(raw_id, str):  # a Metric object, checked by _direct_metrics
            steps.append(_step(raw_id.id, raw_id, "direct", thresholds, weights))
            continue
        heuristic_id = _find(registry, "metric", raw_id)
        llm_id = _find(registry, LLM_METRIC_KIND, raw_id)
        metric_id = heuristic_id or llm_id
        if metric_id is None:
            raise _unknown(raw_id, registry, path)
        mode = modes.get(metric_id) or (
            "llm" if options.mode == "llm" and llm_id is not None else "heuristic"
        )
        found = llm_id if mode == "llm" else heuristic_id
        if found is None:
            kind = LLM_METRIC_KIND if mode == "llm" else "metric"
            raise AssayError(
                Code.UNKNOWN_METRIC,
                f"metric {raw_id!r} has no {kind} implementation for {mode} mode",
                path,
            )
        metric = registry.get(LLM_METRIC_KIND if mode == "llm" else "metric", found)
        if isinstance(metric, type):
            kind = "llm-metric" if mode == "llm" else "Metric"
            refuse_class(metric, kind, path or "metrics", _provider(registry, found, mode))
        steps.append(_step(found, metric, mode, thresholds, weights, metric_id))
    if metrics is None and options.mode != "heuristic" and not any(s.mode == "llm" for s in steps):
        raise AssayError(
            Code.JUDGE_MISCONFIGURED,
            f"mode {options.mode!r} would judge nothing: no metric of the list "
            f"({', '.join(ids)}) has a judge-backed implementation; name the metrics to judge "
            "(metrics, --metrics faithfulness,answer_relevance) or a profile (--profile "
            "compatible)",
            "options.mode",
        )
    return EvaluationPlan(
        steps=tuple(steps),
        composite_threshold=options.composite_threshold,
        judge=judge,
        context_options={
            "heuristic": dict(options.heuristic),
            "prompt_overrides": _canonical_keys(
                options.prompt_overrides, registry, "options.promptOverrides", direct
            ),
            "repeats": options.repeats,
            "judge_cache": options.judge_cache,
        },
        timestamp=options.timestamp,
    )
