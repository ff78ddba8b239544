"""Composition: active Dimensions -> a normalized Scorecard -> a Policy's action.

A :class:`Scorer` is built once from a config (validated then) and a composition (dimension
objects in order, weights, a policy); :meth:`Scorer.compute` then scores one input with plain
function calls, no registry or hook lookups.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from assay import AssayError, Dimension, ErrorCode, Policy, Registry, default_registry
from assay.jsmath import js_round
from assay_scorecard.input_checks import check_common_inputs
from assay_scorecard.policy import ScorecardEvidence
from assay_scorecard.presets import DEFAULT_PRESET, Preset
from assay_scorecard.signal_policy import SignalPolicy
from assay_scorecard.signals import is_finite_number
from assay_scorecard.types import (
    Scorecard,
    ScorecardMeta,
    ScoreWarning,
    ScoringConfig,
    ScoringInputs,
    TierResult,
)
from assay_scorecard.wire import scoring_config_to_wire, scoring_inputs_to_wire

__all__ = [
    "ALGORITHM_VERSION",
    "SCHEMA_VERSION",
    "Scorer",
    "compute_confidence",
    "create_scorer",
    "label_for",
    "tier2_label_for",
]

ALGORITHM_VERSION = "0.3.0"
SCHEMA_VERSION = "0.3"

_TIER2_LABELS = ((85, "Complete", "green"), (65, "Good", "amber"), (40, "Partial", "orange"))
_NOT_ADDRESSED = TierResult(0, "Not Addressed", "gray")

_MISSING_SIGNAL_OF = {
    "missing-candidates": "candidates",
    "missing-answer-relevance": "answerRelevanceScore",
    "missing-faithfulness": "faithfulnessScore",
    "missing-conflict-signal": "conflictSignal",
    "missing-freshness-dates": "freshnessDates",
    "missing-corpus-count": "corpusTypes",
    "authority-unclassified": "authorityRanks",
    "index-integrity-incomplete": "indexIntegrity",
}


def label_for(score: float) -> tuple[str, str]:
    """Composite / Tier 1 label and colour: Strong >= 85, Moderate >= 65, Limited >= 40."""
    if score >= 85:
        return "Strong", "green"
    if score >= 65:
        return "Moderate", "amber"
    if score >= 40:
        return "Limited", "orange"
    return "Insufficient", "red"


def tier2_label_for(score: float) -> tuple[str, str]:
    """Tier 2 label and colour: Complete >= 85, Good >= 65, Partial >= 40, else Thin."""
    for floor, label, color in _TIER2_LABELS:
        if score >= floor:
            return label, color
    return "Thin", "red"


def _clamp_percent(value: float) -> float:
    if math.isnan(value):
        return value
    return min(100.0, max(0.0, value))


def _tier(scaled: float, weight: float, labeller: Any) -> TierResult:
    score = js_round(scaled / weight * 100)
    label, color = labeller(score)
    return TierResult(score, label, color)


class Scorer:
    """A configured composition of Dimensions and a Policy.

    Build one with :func:`create_scorer` (or directly) and call :meth:`compute` per answer.
    Thread-safe: holds no per-call state.

    :param config: wire-shape config (camelCase keys) or a :class:`ScoringConfig`.
    :param dimensions: Dimension objects in composition order (output, weights and totals follow
        this order).
    :param policy: decides the action from :class:`ScorecardEvidence`; it is configured with the
        config's ``actionPolicy`` when it has a ``configure`` method.
    :param preset: the preset whose signal policy applies.
    :raises AssayError: ``INVALID_CONFIG`` (with the field path) for an invalid config.
    """

    def __init__(
        self,
        config: ScoringConfig | Mapping[str, Any] | None,
        dimensions: Sequence[Dimension],
        policy: Policy,
        preset: Preset,
    ) -> None:
        wire = scoring_config_to_wire(config)
        for key, value in preset.config.items():
            # the caller's keys win; a section both give is merged one level deep
            mine = wire.get(key)
            if isinstance(mine, Mapping) and isinstance(value, Mapping):
                wire[key] = {**value, **mine}
            else:
                wire.setdefault(key, value)
        self.config: Mapping[str, Any] = wire
        self.preset = preset
        self.dimensions: tuple[Dimension, ...] = tuple(dimensions)
        if not self.dimensions:
            raise AssayError(
                ErrorCode.INVALID_CONFIG,
                f"no dimension to score with: none of preset {preset.name!r}'s dimensions "
                f"({', '.join(preset.dimensions)}) is provided by an installed plugin",
            )
        names = [d.name for d in self.dimensions]
        if len(set(names)) != len(names):
            raise AssayError(
                ErrorCode.INVALID_CONFIG, f"a dimension appears twice in the composition: {names}"
            )
        for dimension in self.dimensions:
            dimension.validate_config(wire)
        self.weights = self._resolve_weights(wire.get("weights"))
        configure = getattr(policy, "configure", None)
        self.policy: Policy = configure(wire.get("actionPolicy")) if configure else policy
        self.signal_policy = SignalPolicy.merged(preset, wire.get("signalPolicy"))
        self._signal_policy_empty = self.signal_policy.is_empty
        self.strict = wire.get("validation") == "strict"
        # dimensions with input checks of their own, in check order (the seed's V order)
        self._checkers = sorted(
            (d for d in self.dimensions if _has_own_checks(d)),
            key=lambda d: getattr(d, "check_order", 1_000),
        )
        # per dimension that may take part: (object, name, weight, counts in tier 1, is an
        # extension, always active); a config-activated one is asked now, once
        plan = []
        for d in self.dimensions:
            always = not _overrides(d, "is_active")
            if not always and getattr(d, "config_activated", False):
                if not d.is_active({}, wire):
                    continue
                always = True
            plan.append(
                (
                    d,
                    d.name,
                    self.weights[d.name],
                    d.tier == 1,
                    getattr(d, "extension", True),
                    always,
                )
            )
        self._plan = tuple(plan)

    def _resolve_weights(self, weights: Any) -> dict[str, float]:
        weights = weights or {}
        if not isinstance(weights, Mapping):
            raise AssayError(ErrorCode.INVALID_CONFIG, "weights must be an object", "weights")
        for name, value in weights.items():
            if not is_finite_number(value) or value <= 0:
                raise AssayError(
                    ErrorCode.INVALID_CONFIG,
                    f"weight must be a finite number greater than 0, got {value!r}",
                    f"weights.{name}",
                )
        return {d.name: weights.get(d.name, d.default_weight) for d in self.dimensions}

    # ------------------------------------------------------------------ scoring
    def compute(self, inputs: ScoringInputs | Mapping[str, Any]) -> Scorecard:
        """Score one answer.

        :param inputs: wire-shape dict (camelCase) or :class:`ScoringInputs`.
        :return: the :class:`Scorecard`.
        :raises AssayError: ``MALFORMED_INPUT`` for structurally broken input;
            ``INVALID_INPUT`` (path and message of the first input problem) in strict mode.
        """
        data = inputs if type(inputs) is dict else scoring_inputs_to_wire(inputs)
        problems = check_common_inputs(data)  # raises MALFORMED_INPUT on broken structure
        config = self.config
        active = [entry for entry in self._plan if entry[5] or entry[0].is_active(data, config)]
        if self._checkers:
            active_names = {entry[1] for entry in active}
            for dimension in self._checkers:
                if dimension.name in active_names:
                    problems.extend(dimension.check_inputs(data, config))
        if self.strict and problems:
            first = problems[0]
            raise AssayError(ErrorCode.INVALID_INPUT, first.message, first.path)

        scores: dict[str, Any] = {}
        active_weights: dict[str, float] = {}
        raw_total = max_possible = 0.0
        t1_scaled = t1_weight = t2_scaled = t2_weight = 0.0
        for dimension, name, weight, tier1_member, _, _ in active:
            score = dimension.score(data, config)
            scores[name] = score
            scaled = score.raw / score.max * weight
            raw_total += scaled
            max_possible += weight
            active_weights[name] = weight
            if tier1_member:
                t1_scaled += scaled
                t1_weight += weight
            else:
                t2_scaled += scaled
                t2_weight += weight
        total = js_round(_clamp_percent(raw_total / max_possible * 100)) if max_possible else 0.0
        outcome = self.signal_policy.evaluate(data)

        documents_silent = data.get("documentsSilent") is True
        if documents_silent:
            tier1: TierResult | None = _NOT_ADDRESSED
        elif t1_weight:
            tier1 = _tier(t1_scaled, t1_weight, label_for)
        else:
            tier1 = None
        tier2 = _tier(t2_scaled, t2_weight, tier2_label_for) if t2_weight else None

        warnings = _merge_warnings(problems, scores.values(), outcome.warnings)
        decision = self.policy.decide(
            ScorecardEvidence(
                total,
                tier1.score if tier1 else total,
                [w.code for w in warnings],
                documents_silent,
                outcome.abstain_missing,
                outcome.review_missing,
            )
        )
        label, color = label_for(total)
        return Scorecard(
            total,
            label,
            color,
            decision.action,
            decision.reason,
            tier1,
            tier2,
            scores,
            ScorecardMeta(
                ALGORITHM_VERSION,
                SCHEMA_VERSION,
                raw_total,
                max_possible,
                tuple([entry[1] for entry in active if entry[4]]),
                tuple(scores),
                _missing_signals(warnings),
                tuple(warnings),
                active_weights,
            ),
            decision.rule,
        )

    def compute_many(
        self, rows: Iterable[ScoringInputs | Mapping[str, Any]]
    ) -> Iterator[Scorecard]:
        """Score each input in turn, lazily (constant memory over any iterable)."""
        for row in rows:
            yield self.compute(row)

    def __repr__(self) -> str:
        names = ", ".join(d.name for d in self.dimensions)
        return f"<Scorer preset={self.preset.name} dimensions=[{names}] policy={self.policy.name}>"


def _overrides(dimension: Dimension, method_name: str) -> bool:
    """Whether ``dimension`` has its own ``method_name`` rather than the protocol's default
    (an object that does not subclass Dimension always counts as having its own)."""
    method = getattr(type(dimension), method_name, None)
    return method is not None and method is not getattr(Dimension, method_name)


def _has_own_checks(dimension: Dimension) -> bool:
    return _overrides(dimension, "check_inputs")


def _merge_warnings(
    problems: list[ScoreWarning],
    scores: Iterable[Any],
    policy_warnings: Sequence[ScoreWarning],
) -> list[ScoreWarning]:
    """Input problems, then each dimension's warnings, then the signal policy's; the first of
    identical (code, path, message) is kept."""
    merged: list[ScoreWarning] = []
    seen: set[tuple[str, str, str]] = set()
    groups = [problems, *(score.warnings for score in scores if score.warnings), policy_warnings]
    for group in groups:
        for warning in group:
            key = (warning.code, warning.path, warning.message)
            if key not in seen:
                seen.add(key)
                merged.append(warning)
    return merged


def _missing_signals(warnings: Sequence[ScoreWarning]) -> tuple[str, ...]:
    signals: dict[str, None] = {}
    for warning in warnings:
        if warning.code == "required-signal-missing":
            signals.setdefault(warning.path, None)
        else:
            name = _MISSING_SIGNAL_OF.get(warning.code)
            if name:
                signals.setdefault(name, None)
    return tuple(signals)


def _resolve_preset(registry: Registry, name: Any) -> Preset:
    if isinstance(name, str) and registry.has("preset", name):
        preset: Preset = registry.get("preset", name)
        return preset
    # The reference accepts any other preset string silently and behaves as the default.
    default: Preset = registry.get("preset", DEFAULT_PRESET)
    return default


def create_scorer(
    config: ScoringConfig | Mapping[str, Any] | None = None,
    *,
    dimensions: Sequence[str | Dimension] | None = None,
    policy: str | Policy | None = None,
    registry: Registry | None = None,
) -> Scorer:
    """Build a :class:`Scorer`, validating the config once.

    :param config: wire-shape dict or :class:`ScoringConfig`; ``preset`` picks the preset
        (default ``"balanced-v0.3"``).
    :param dimensions: the composition, as registered names (``"grounding"`` or
        ``"plugin/name"``) or Dimension objects; default: the preset's dimensions that are
        installed (a dimension the config activates but no plugin provides is an error).
    :param policy: a registered policy name or a Policy object; default ``"threshold-action"``.
    :param registry: where names are looked up; default :func:`assay.default_registry`.
    :raises AssayError: ``INVALID_CONFIG`` for an invalid config, ``UNKNOWN_NAME`` for a
        dimension or policy that is not registered.
    """
    registry = registry or default_registry()
    wire = scoring_config_to_wire(config)
    preset = _resolve_preset(registry, wire.get("preset"))
    if dimensions is None:
        resolved: list[Dimension] = []
        for name in preset.dimensions:
            if registry.has("dimension", name):
                resolved.append(registry.get("dimension", name))
            elif name in wire or name in preset.config:
                raise AssayError(
                    ErrorCode.UNKNOWN_NAME,
                    f"config section {name!r} needs the {name!r} dimension, which no installed "
                    "plugin provides",
                    name,
                )
    else:
        resolved = [registry.get("dimension", d) if isinstance(d, str) else d for d in dimensions]
    if policy is None or isinstance(policy, str):
        policy_obj: Policy = registry.get("policy", policy or "threshold-action")
    else:
        policy_obj = policy
    return Scorer(wire, resolved, policy_obj, preset)


def compute_confidence(
    inputs: ScoringInputs | Mapping[str, Any],
    config: ScoringConfig | Mapping[str, Any] | None = None,
) -> Scorecard:
    """Score one RAG answer with the default composition (seed 000 ``computeConfidence``).

    Equivalent to ``create_scorer(config).compute(inputs)``; build the scorer once with
    :func:`create_scorer` when scoring many answers with one config.

    :raises AssayError: as :func:`create_scorer` and :meth:`Scorer.compute`.
    """
    return create_scorer(config).compute(inputs)
