"""Scorecard presets: a named composition (dimensions), signal policy and default settings.

Presets are registry objects of kind ``"preset"``; this plugin registers the three of
transparent-confidence 0.3 and ``grounded-v1`` (an answer the sources do not support is never
answered), and a plugin can register its own (e.g. a domain's authority tiers, corpus types and
weights).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

__all__ = [
    "DEFAULT_DIMENSIONS",
    "DEFAULT_PRESET",
    "GROUNDED_PRESET",
    "Preset",
    "builtin_presets",
    "grounded_preset",
]

DEFAULT_PRESET = "balanced-v0.3"
GROUNDED_PRESET = "grounded-v1"
"""The preset where an unsupported answer is never answered; the default of answer records."""

GROUNDED_REVIEW_BELOW = 0.9
"""grounded-v1 reviews below this effective support: the grounding dimension's band where the
support signal costs no points (>= 0.9), so anything it penalises is not answered unread."""
GROUNDED_ABSTAIN_BELOW = 0.5
"""grounded-v1 abstains below this effective support: fewer than half of the claims (or a
faithfulness under one half) are supported, the grounding dimension's lowest band."""
GROUNDED_SCORE_FLOOR = 20
"""grounded-v1's ``abstainBelow`` and ``reviewAt``: abstention is decided by the evidence (the
support rules above), not by a total that absent retrieval scores pull down. Contexts given as
plain text leave the retrieval and consistency dimensions at 0 of 35 points, so a supported
answer totals 20-46 there; it is reviewed, not refused."""

DEFAULT_DIMENSIONS: tuple[str, ...] = (
    "grounding",
    "retrieval",
    "consistency",
    "relevance",
    "authority",
    "corpus",
    "freshness",
    "indexIntegrity",
)
"""The scorecard's dimensions in canonical order (weights, totals and output follow this order)."""


def _tuple(value: Any) -> tuple[str, ...]:
    return tuple(value)


@attrs.frozen
class Preset:
    """A named scorer configuration.

    Attributes:
        name: registry name, e.g. ``"production-v0.3"``.
        description: one line for listings.
        dimensions: dimension names in composition order; a name whose plugin is not installed
            is skipped unless the config activates it.
        require: signals that must be present (signal policy ``require``).
        review_when_missing: required signals whose absence forces review.
        abstain_when_missing: required signals whose absence forces abstain.
        require_support_evaluator: also require ``faithfulnessScore`` or ``claimSupport``
            (the production preset's evaluator check).
        warn_on_conflict: warn ``conflicting-sources`` when the sources contradict each other
            (``hasConflict`` true, ``conflictingCandidateCount`` above 0); the preset's action
            policy decides what the warning does.
        config: default wire-shape config merged under the caller's (sections, weights,
            actionPolicy); the caller's keys win.
    """

    name: str
    description: str = ""
    dimensions: tuple[str, ...] = attrs.field(default=DEFAULT_DIMENSIONS, converter=_tuple)
    require: tuple[str, ...] = attrs.field(default=(), converter=_tuple)
    review_when_missing: tuple[str, ...] = attrs.field(default=(), converter=_tuple)
    abstain_when_missing: tuple[str, ...] = attrs.field(default=(), converter=_tuple)
    require_support_evaluator: bool = False
    config: Mapping[str, Any] = attrs.field(factory=dict)
    warn_on_conflict: bool = False


def grounded_preset() -> Preset:
    """``grounded-v1``: the default composition, but an answer is only answered when its sources
    support it.

    * A support signal (``faithfulnessScore`` or ``claimSupport``) is required; without one the
      answer is reviewed (rule ``review-when-missing``).
    * Effective support (the lower of the two) below 0.5: ``unsupported-answer`` warning, and
      abstain (rule ``abstain-on-warning``); below 0.9: ``low-support`` warning, and review
      (rule ``review-on-warning``).
    * An input outside its range (``input-out-of-range``: a retrieval score above 1, such as a
      raw BM25 score, a support score above 1) reviews (rule ``review-on-warning``): the total
      was computed from a value the scorecard reads as 0..1, so it is not trusted outright.
    * Sources that contradict each other (``conflicting-sources``: ``hasConflict`` true,
      ``conflictingCandidateCount`` above 0) review (rule ``review-on-warning``): a supported
      answer may follow the wrong source.
    * A total below 20 (not 40) abstains and from 20 reviews (:data:`GROUNDED_SCORE_FLOOR`);
      otherwise the thresholds and warning rules of the default action policy apply.
    """
    return Preset(
        GROUNDED_PRESET,
        "an answer its sources do not support is never answered: below 0.9 support reviews, "
        "below 0.5 abstains, no support signal or conflicting sources review",
        require_support_evaluator=True,
        warn_on_conflict=True,
        config={
            "signalPolicy": {
                "minSupportScore": GROUNDED_REVIEW_BELOW,
                "unsupportedBelow": GROUNDED_ABSTAIN_BELOW,
            },
            "actionPolicy": {
                "abstainBelow": GROUNDED_SCORE_FLOOR,
                "reviewAt": GROUNDED_SCORE_FLOOR,
                "reviewOnWarnings": [
                    "missing-answer-relevance",
                    "missing-conflict-signal",
                    "low-support",
                    "input-out-of-range",
                    "conflicting-sources",
                ],
                "abstainOnWarnings": ["documents-silent", "unsupported-answer"],
            },
        },
    )


def builtin_presets() -> tuple[Preset, ...]:
    """The presets of transparent-confidence 0.3 (legacy-v0.2, balanced-v0.3, the default, and
    production-v0.3) and grounded-v1."""
    return (
        Preset("legacy-v0.2", "closest to v0.2 action behaviour (no signal requirements)"),
        Preset("balanced-v0.3", "the default: no signal requirements"),
        Preset(
            "production-v0.3",
            "requires answer relevance, a conflict signal and a support evaluator",
            require=("answerRelevanceScore", "conflictSignal"),
            review_when_missing=("answerRelevanceScore", "conflictSignal"),
            require_support_evaluator=True,
        ),
        grounded_preset(),
    )
