"""The plan :func:`~assay_evaluation.evaluate` resolved last, reused while everything it was
resolved from is unchanged, so that evaluating sample after sample does not look every metric
up in the registry again (most of the runner's own cost per sample)."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

from assay import Registry
from assay_evaluation._options import EvaluateOptions
from assay_evaluation._plan import LLM_METRIC_KIND, METRIC_SET_KIND, EvaluationPlan, resolve_plan

__all__ = ["PlanMemo"]

_KINDS = ("metric", LLM_METRIC_KIND)
"""What a plan of given metrics without a judge reads from a registry."""

_DEFAULT_KINDS = (*_KINDS, METRIC_SET_KIND)
"""What a plan of the default metrics or of a profile reads."""

_MEMBERS = operator.attrgetter("id", "default_threshold", "higher_is_better", "requires")
"""What a plan reads from a metric object."""


def _same_metrics(
    given: Sequence[Any] | None, kept: tuple[Any, ...] | None, kept_ids: bool
) -> bool:
    """Equal ids, and the very same Metric objects (another object may behave otherwise);
    ``kept_ids``: ``kept`` holds ids only."""
    if given is None or kept is None:
        return given is kept
    if len(given) != len(kept):
        return False
    if kept_ids:
        return tuple(given) == kept  # an object is never equal to an id
    return all(a is b or (type(a) is str and a == b) for a, b in zip(given, kept, strict=True))


def _registrations(registry: Registry, metrics: Sequence[Any] | None) -> tuple[int, ...]:
    """How many registrations of each kind the plan of ``metrics`` reads (a registry only
    ever grows)."""
    kinds = _KINDS if metrics is not None else _DEFAULT_KINDS
    return tuple([len(registry.items(kind)) for kind in kinds])


def _metric_members(plan: EvaluationPlan) -> list[tuple[Any, ...]]:
    """What the plan read from each metric object (an object may be changed in place)."""
    return list(map(_MEMBERS, plan.metrics))


class PlanMemo:
    """:func:`~assay_evaluation._plan.resolve_plan`, remembering its last plan: it is returned
    again for equal options, the same metric ids (or the same Metric objects), the same
    registry with no registration added of the kinds a plan reads, and metric objects whose
    id, default threshold, direction and requirements are unchanged. Options with a judge
    are always resolved afresh (a judge configuration may build a new client)."""

    def __init__(self) -> None:
        self._last: tuple[Any, ...] | None = None

    def plan(
        self, metrics: Sequence[Any] | None, options: EvaluateOptions, registry: Registry
    ) -> EvaluationPlan:
        """The plan of ``metrics`` under ``options``; raises as ``resolve_plan``."""
        if options.judge is not None or not (metrics is None or isinstance(metrics, list | tuple)):
            return resolve_plan(metrics, options, registry)
        last = self._last  # one read: another thread may replace it meanwhile
        if last is not None:
            kept_metrics, kept_ids, kept_options, kept_registry, counts, members, plan = last
            if (
                kept_registry is registry
                and _same_metrics(metrics, kept_metrics, kept_ids)
                and (kept_options is options or kept_options == options)
                and _registrations(registry, metrics) == counts
                and _metric_members(plan) == members
            ):
                return plan  # type: ignore[no-any-return]
        counts = _registrations(
            registry, metrics
        )  # before: a registration meanwhile is seen next time
        plan = resolve_plan(metrics, options, registry)
        kept = None if metrics is None else tuple(metrics)
        ids = kept is not None and all(type(item) is str for item in kept)
        self._last = (kept, ids, options, registry, counts, _metric_members(plan), plan)
        return plan
