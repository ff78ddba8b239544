"""Evaluating one sample under a plan: run metrics, enforce the tri-state contract, apply
thresholds, compute the composite and the overall pass."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from assay import AssayError, EvalSample, MetricResult, MetricSignal
from assay_evaluation._codes import EvaluationErrorCode as Code
from assay_evaluation._context import SampleContext
from assay_evaluation._outcome import error_of, failed_to_compute, missing_requirement
from assay_evaluation._plan import EvaluationPlan
from assay_evaluation._samples import SampleWithoutQuestion
from assay_evaluation._types import Cost, EvalResult

__all__ = [
    "composite_score",
    "cost_of",
    "evaluate_with_plan",
    "judge_pass",
    "rejudge_with_plan",
    "sample_passed",
]

SCORE_SLACK = 1e-9
"""How far outside [0, 1] a score may stray by floating-point rounding (a cosine of identical
vectors can be 1.0000000000000002); such scores are kept as computed, so results stay
bit-identical to the reference."""

_COST_KEYS = ("llmCalls", "inputTokens", "outputTokens", "parseFailures", "cacheHits")


def judge_pass(score: float | None, threshold: float, higher_is_better: bool) -> bool | None:
    """Tri-state pass: ``None`` when ``score`` is undetermined, else ``score >= threshold``
    (``score <= threshold`` when lower is better); both comparisons are inclusive."""
    if score is None:
        return None
    return score >= threshold if higher_is_better else score <= threshold


def composite_score(
    order: Sequence[str],
    metrics: Mapping[str, MetricResult],
    weights: Mapping[str, float],
    higher_is_better: Mapping[str, bool],
) -> float | None:
    """The weighted mean of the determined scores, walking ``order`` (duplicates count twice).

    A lower-is-better metric contributes ``1 - score``. Undetermined scores and their weights
    are left out. ``None`` when the weight sum is not > 0 (no determined score, or all weights
    0). Weights are used as given (0 and negative included), as rag-eval-node-ts 0.3 does.
    """
    total = 0.0
    weight_sum = 0.0
    for metric_id in order:
        score = metrics[metric_id].score
        if score is None:
            continue
        weight = weights.get(metric_id, 1.0)
        goodness = score if higher_is_better.get(metric_id, True) else 1.0 - score
        total += goodness * weight
        weight_sum += weight
    return total / weight_sum if weight_sum > 0 else None


def sample_passed(
    metrics: Mapping[str, MetricResult], composite: float | None, composite_threshold: float
) -> bool:
    """No metric failed or could not be computed (undetermined by design is not a failure), the
    composite is determined and ``composite >= composite_threshold``."""
    if composite is None or composite < composite_threshold:
        return False
    for result in metrics.values():
        if result.passed is False or (result.passed is None and error_of(result) is not None):
            return False
    return True


def cost_of(results: Sequence[MetricResult]) -> Cost:
    """Sum of the ``details["cost"]`` records (``llmCalls``, ``inputTokens``, ``outputTokens``,
    ``parseFailures``, ``cacheHits``) that judge-backed metrics report."""
    costs = [
        cost
        for result in results
        if (cost := result.details.get("cost")) is not None and isinstance(cost, Mapping)
    ]
    if not costs:
        return _NO_COST  # heuristic metrics: no record to sum
    sums = [0] * len(_COST_KEYS)
    for cost in costs:
        for index, key in enumerate(_COST_KEYS):
            sums[index] += int(cost.get(key) or 0)
    return Cost(*sums)


_NO_COST = Cost()


def _checked(raw: Any, step_id: str, threshold: float, higher_is_better: bool) -> MetricResult:
    """``raw`` when it honours the result contract as it is (the common case, tested first),
    else a copy with its NaN made undetermined, its id, threshold and pass set by the runner.

    :raises AssayError: ``INVALID_METRIC_RESULT`` for something else than a MetricResult, or a
        score outside [0, 1].
    """
    if type(raw) is MetricResult and raw.metric_id == step_id and raw.threshold == threshold:
        score = raw.score
        if score is None:
            if raw.passed is None:
                return raw
        elif (
            type(score) is float
            and -SCORE_SLACK <= score <= 1 + SCORE_SLACK  # NaN fails this
            and raw.passed is (score >= threshold if higher_is_better else score <= threshold)
        ):
            return raw
    if not isinstance(raw, MetricResult):
        raise AssayError(
            Code.INVALID_METRIC_RESULT,
            f"metric {step_id!r} returned {type(raw).__name__}, not a MetricResult",
            f"metrics.{step_id}",
        )
    score = raw.score
    signals = raw.signals
    if isinstance(score, float) and math.isnan(score):
        score = None
        signals = (
            *signals,
            MetricSignal("warn", "the metric produced NaN; counted as undetermined"),
        )
    elif score is not None and (
        isinstance(score, bool)
        or not isinstance(score, int | float)
        or not -SCORE_SLACK <= score <= 1 + SCORE_SLACK
    ):
        raise AssayError(
            Code.INVALID_METRIC_RESULT,
            f"metric {step_id!r} returned score {score!r}; a score is in [0, 1] or None",
            f"metrics.{step_id}.score",
        )
    passed = judge_pass(score, threshold, higher_is_better)
    if (
        score is raw.score
        and (score is None or type(score) is float)
        and (raw.metric_id, raw.threshold, raw.passed) == (step_id, threshold, passed)
    ):
        return raw  # already honours the contract: no copy
    return MetricResult(
        metric_id=step_id,
        score=None if score is None else float(score),
        passed=passed,
        threshold=threshold,
        explanation=raw.explanation,
        signals=signals,
        details=raw.details,
    )


def evaluate_with_plan(sample: EvalSample, plan: EvaluationPlan) -> EvalResult:
    """Evaluate one already-validated sample under ``plan``.

    Each metric runs once per step; a duplicated id is computed again and its later result kept
    (the composite counts it once per step). Metrics share one :class:`SampleContext`. A metric
    that needs the question is not run on a sample without one (its result is undetermined).

    A metric that raises, or returns something that breaks the result contract (not a
    MetricResult, a score outside [0, 1]), gives an error result for this sample (with the code
    ``INVALID_METRIC_RESULT`` and the reason in ``details["error"]``), counted as that metric's
    error; the other metrics and samples go on.

    :raises AssayError: whatever a metric raises for bad input or configuration (any code but
        ``JUDGE_ERROR``).
    """
    context = SampleContext(plan.context_options, plan.judge)
    metrics: dict[str, MetricResult] = {}
    results: list[MetricResult] = []
    no_question = type(sample) is SampleWithoutQuestion
    for step in plan.steps:
        if no_question and step.needs_question:
            raw = missing_requirement(step.metric_id, step.threshold, "question")
        else:
            # a metric that raises (or a judge that fails) gives an error result, not a crash of
            # the run; an AssayError about the input or the configuration still propagates
            try:
                raw = step.metric.compute(sample, context, step.threshold)
            except AssayError as exc:
                if exc.code != Code.JUDGE_ERROR:
                    raise
                raw = failed_to_compute(step.metric_id, step.threshold, exc)
            except Exception as exc:
                raw = failed_to_compute(step.metric_id, step.threshold, exc)
        try:
            result = _checked(raw, step.metric_id, step.threshold, step.higher_is_better)
        except AssayError as exc:  # a bad result is this metric's error on this sample
            result = failed_to_compute(step.metric_id, step.threshold, exc)
        results.append(result)
        metrics[step.metric_id] = result
    directions = dict(plan.directions)  # each result owns its mapping
    composite = composite_score(plan.order, metrics, plan.weights, directions)
    return EvalResult(
        sample=sample,
        metrics=metrics,
        metric_order=plan.order,
        higher_is_better=directions,
        composite_score=composite,
        passed=sample_passed(metrics, composite, plan.composite_threshold),
        composite_threshold=plan.composite_threshold,
        cost=cost_of(results),
        timestamp=plan.timestamp,
    )


def rejudge_with_plan(
    result: EvalResult, sample: EvalSample, plan: EvaluationPlan
) -> EvalResult | None:
    """A stored result re-judged under ``plan``'s thresholds, weights and composite threshold
    without running any metric, or ``None`` when it cannot stand in for a fresh one: it was made
    for a different sample (same id, other content) or a different list of metrics.

    :raises AssayError: ``INVALID_METRIC_RESULT`` for a stored score outside [0, 1].
    """
    order = tuple(step.metric_id for step in plan.steps)
    if result.sample != sample or tuple(result.metric_order) != order:
        return None
    weights = {step.metric_id: step.weight for step in plan.steps}
    directions = {step.metric_id: step.higher_is_better for step in plan.steps}
    metrics: dict[str, MetricResult] = {}
    for step in plan.steps:
        # validated like a fresh metric's result: an edited file cannot smuggle in a score of
        # 1e308 (INVALID_METRIC_RESULT) or NaN (undetermined, with a warning)
        metrics[step.metric_id] = _checked(
            result.metrics[step.metric_id], step.metric_id, step.threshold, step.higher_is_better
        )
    composite = composite_score(order, metrics, weights, directions)
    return attrs.evolve(
        result,
        metrics=metrics,
        higher_is_better=directions,
        composite_score=composite,
        passed=sample_passed(metrics, composite, plan.composite_threshold),
        composite_threshold=plan.composite_threshold,
    )
