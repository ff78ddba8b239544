"""Frozen records the protocols name: dimension scores and warnings, decisions, samples and metric
results, perturbation cases and variants, judge replies.

Every class here is an ``attrs`` frozen class: immutable, hashable where its fields are, compared
by value. Serialization to and from JSON lives in one place, :mod:`assay.wire`, never here.
The records built for every scored answer (decisions, warnings, dimension scores and their
breakdowns) and for every evaluated metric (metric results and signals) are dict classes
(``slots=False``): their ``__init__`` then writes the instance dictionary directly instead of
calling ``object.__setattr__`` once per field.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import attrs

from assay._errors import AssayError, ErrorCode
from assay.jsmath import js_round

__all__ = [
    "Chunk",
    "Decision",
    "DimensionBreakdown",
    "DimensionScore",
    "EvalSample",
    "JudgeReply",
    "MetricResult",
    "MetricSignal",
    "PerturbationCase",
    "ScoreWarning",
    "Severity",
    "Variant",
    "dimension_score",
]

Severity = Literal["info", "warn", "error"]


def _strings(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


def _contexts(value: Iterable[str]) -> tuple[str, ...]:
    # a bare string would silently become a tuple of characters
    if isinstance(value, str):
        raise AssayError(
            ErrorCode.INVALID_INPUT,
            "contexts must be a list of strings, not one string",
            "contexts",
        )
    return tuple(value)


def _signals(value: Iterable[MetricSignal]) -> tuple[MetricSignal, ...]:
    return tuple(value)


def _chunks(value: Iterable[Chunk]) -> tuple[Chunk, ...]:
    return tuple(value)


def _frozen_mapping(value: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return dict(value or {})


@attrs.frozen(slots=False)
class Decision:
    """What a :class:`~assay.Policy` decided, and why.

    Attributes:
        action: the chosen action, from the policy's documented vocabulary (for instance
            ``"answer"``, ``"review"``, ``"abstain"``, or ``"pass"``, ``"fail"``,
            ``"escalate"``).
        rule: a stable identifier of the rule that decided (e.g. ``"score-below-floor"``).
        reason: a sentence naming the rule and the numbers it compared.
        details: JSON-safe facts the rule used (thresholds, scores, matched warning codes).
    """

    action: str
    rule: str
    reason: str
    details: Mapping[str, Any] = attrs.field(factory=dict, converter=_frozen_mapping)


@attrs.frozen
class EvalSample:
    """One question-answer pair to evaluate.

    Attributes:
        question: the user's question.
        answer: the generated answer.
        contexts: the retrieved passages given to the generator, in rank order.
        ground_truth: a reference answer, when one exists; metrics that need it are undetermined
            (score ``None``) without it.
        id: a stable identifier, used for resuming runs and comparing with baselines.
        metadata: free JSON-safe data carried through to results.
    """

    question: str
    answer: str
    contexts: tuple[str, ...] = attrs.field(converter=_contexts, factory=tuple)
    ground_truth: str | None = None
    id: str | None = None
    metadata: Mapping[str, Any] = attrs.field(factory=dict, converter=_frozen_mapping)


@attrs.frozen(slots=False)
class MetricSignal:
    """An explained observation a metric made.

    Attributes:
        severity: ``"info"``, ``"warn"`` or ``"error"``.
        message: what was observed, in words.
        evidence: the text or values that support it (e.g. an unsupported sentence).
        id: a stable identifier of the observation (e.g. ``"low-support-1"``), when the metric
            gives one.
    """

    severity: Severity
    message: str
    evidence: str | None = None
    id: str | None = None


@attrs.frozen(slots=False)
class MetricResult:
    """The outcome of one :class:`~assay.Metric` on one sample.

    Tri-state by design: ``score is None`` means *undetermined* (the metric could not be computed,
    e.g. no ground truth, or a judge reply could not be parsed). An undetermined result has
    ``passed is None``; it is never counted as a failure and stays out of means.

    Attributes:
        metric_id: the metric's id, e.g. ``"answer_length"``.
        score: a number in [0, 1], or ``None`` when undetermined.
        passed: ``score >= threshold``, or ``None`` when undetermined.
        threshold: the pass threshold that was applied.
        explanation: a sentence saying what drove the score.
        signals: explained observations (unsupported sentences, missing coverage, ...).
        details: JSON-safe numbers behind the score (counts, sub-scores, mode, judge calls).
    """

    metric_id: str
    score: float | None
    passed: bool | None
    threshold: float
    explanation: str
    signals: tuple[MetricSignal, ...] = attrs.field(converter=_signals, factory=tuple)
    details: Mapping[str, Any] = attrs.field(factory=dict, converter=_frozen_mapping)


@attrs.frozen
class Chunk:
    """One retrieved passage as a perturbation sees it: a stable ``id`` and its ``text``."""

    id: str
    text: str


@attrs.frozen
class PerturbationCase:
    """A robustness test case: a query, its retrieved chunks and counterfactual material.

    Attributes:
        name: the case's name (its file stem).
        query: the question given to the pipeline.
        chunks: the retrieved context, in rank order.
        key_evidence: ids of the chunks that carry the evidence the answer depends on.
        counterfactual: replacement texts for the key evidence, in the order of ``key_evidence``
            (a perturbation may put them in place of the originals).
        padding: the case's own irrelevant material, if any.
        expected_decision: the decision the baseline should produce, if the author stated one.
        source: where the case was read from (a file path), for error messages.
    """

    name: str
    query: str
    chunks: tuple[Chunk, ...] = attrs.field(converter=_chunks)
    key_evidence: tuple[str, ...] = attrs.field(converter=_strings, factory=tuple)
    counterfactual: tuple[str, ...] = attrs.field(converter=_strings, factory=tuple)
    padding: tuple[str, ...] = attrs.field(converter=_strings, factory=tuple)
    expected_decision: Any = None
    source: str | None = None


@attrs.frozen
class Variant:
    """One perturbed version of a case, as produced by a :class:`~assay.Perturbation`.

    Attributes:
        name: unique within the case, e.g. ``"shuffle-2"``.
        perturbation: the name of the perturbation that produced it.
        chunks: the context the pipeline receives for this variant.
        description: what was changed, in words, for the report.
        query: the query for this variant (usually the case's own).
    """

    name: str
    perturbation: str
    chunks: tuple[Chunk, ...] = attrs.field(converter=_chunks)
    description: str
    query: str


@attrs.frozen
class JudgeReply:
    """A judge's answer to one prompt.

    Attributes:
        text: the raw reply text; metrics parse it (JSON or a bare number).
        prompt_tokens: tokens billed for the prompt, when the backend reports them.
        completion_tokens: tokens billed for the reply, when reported.
        model: the model that answered, when reported.
    """

    text: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    model: str | None = None


@attrs.frozen(slots=False)
class ScoreWarning:
    """A structured warning about an input or a result.

    Attributes:
        code: machine-readable identifier in kebab case, e.g. ``"missing-signal"``.
        severity: ``"info"``, ``"warn"`` or ``"error"``.
        message: human-readable description.
        path: the input path that triggered it, in wire (camelCase) notation.
    """

    code: str
    severity: str
    message: str
    path: str


@attrs.frozen(slots=False)
class DimensionBreakdown:
    """Machine-readable attribution of a dimension's points.

    Invariant: ``raw`` equals the owning :class:`DimensionScore`'s ``raw``.

    Attributes:
        components: positive sub-signal contributions, by name.
        adjustments: penalties, bonuses, caps and clamps, by name (only those that changed the
            score).
        diagnostics: facts that are not points (counts, rounded scores, configured values).
        uncapped_raw: the score before the final clamp.
        raw: the final raw score.
    """

    components: Mapping[str, float]
    adjustments: Mapping[str, float]
    diagnostics: Mapping[str, Any]
    uncapped_raw: float
    raw: float


@attrs.frozen(slots=False)
class DimensionScore:
    """One dimension's contribution to a composed score.

    Attributes:
        raw: points scored, in [0, max].
        max: the dimension's native maximum points.
        normalized: ``round(raw / max * 100)`` (a dimension may document its own rounding).
        explanation: what drove the score, in words.
        breakdown: machine-readable attribution; ``breakdown.raw == raw``.
        warnings: warnings this dimension raised; ``None`` when the dimension omits an empty list
            from its wire shape.
    """

    raw: float
    max: float
    normalized: float
    explanation: str
    breakdown: DimensionBreakdown
    warnings: tuple[ScoreWarning, ...] | None = ()


def dimension_score(
    *,
    raw: float,
    max_points: float,
    explanation: str,
    components: Mapping[str, float] | None = None,
    adjustments: Mapping[str, float] | None = None,
    diagnostics: Mapping[str, Any] | None = None,
    uncapped_raw: float | None = None,
    warnings: Sequence[ScoreWarning] | None = (),
    normalized: float | None = None,
) -> DimensionScore:
    """Build a :class:`DimensionScore` whose breakdown is consistent by construction.

    :param raw: the final raw points (also written as ``breakdown.raw``).
    :param max_points: the dimension's maximum.
    :param explanation: what drove the score.
    :param components: positive contributions (default ``{}``).
    :param adjustments: penalties, bonuses, caps (default ``{}``).
    :param diagnostics: facts that are not points (default ``{}``).
    :param uncapped_raw: score before the final clamp (default ``raw``).
    :param warnings: the dimension's warnings; ``None`` omits the list from the wire shape.
    :param normalized: override of ``round(raw / max_points * 100)`` (JavaScript rounding).
    :return: the dimension score.
    """
    if normalized is None:
        normalized = js_round(raw / max_points * 100) if max_points else 0.0
    # positional construction: this runs for every dimension of every scored answer
    return DimensionScore(
        raw,
        max_points,
        normalized,
        explanation,
        DimensionBreakdown(
            components if components is not None else {},
            adjustments if adjustments is not None else {},
            diagnostics if diagnostics is not None else {},
            raw if uncapped_raw is None else uncapped_raw,
            raw,
        ),
        None if warnings is None else tuple(warnings),
    )
