"""Scorecard presets: a named composition (dimensions), signal policy and default settings.

Presets are registry objects of kind ``"preset"``; this plugin registers the three of
transparent-confidence 0.3, and a plugin can register its own (e.g. a domain's authority tiers,
corpus types and weights).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

__all__ = ["DEFAULT_DIMENSIONS", "DEFAULT_PRESET", "Preset", "builtin_presets"]

DEFAULT_PRESET = "balanced-v0.3"

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


def builtin_presets() -> tuple[Preset, ...]:
    """The presets of transparent-confidence 0.3: legacy-v0.2, balanced-v0.3 (default) and production-v0.3."""
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
    )
