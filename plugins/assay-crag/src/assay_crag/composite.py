"""The composite context-quality score: four Dimensions, weighted, with warnings.

``overall = sum(weight_d * score_d) / sum(weight_d)`` over the four dimensions of
:mod:`assay_crag.dimensions`. With the specification's weights (0.3, 0.3, 0.15, 0.25, summing to 1)
this is the specification's weighted sum exactly; custom weights are normalised so ``overall`` stays
in [0, 1].

Warnings (first match wins for the specification's single ``warning`` string):

* ``overall < 0.3``: ``very-low-context-quality``
* else ``overall < 0.5``: ``moderate-context-quality``
* else ``diversityScore < 0.2``: ``low-source-diversity``

The three thresholds are configurable through :class:`QualityConfig`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import attrs

import assay
from assay_crag.checks import config_number
from assay_crag.dimensions import context_dimensions
from assay_crag.inputs import QualityInput, parse_quality_input

__all__ = [
    "DEFAULT_WEIGHTS",
    "ContextQualityScore",
    "QualityConfig",
    "QualityScorer",
    "score_context_quality",
]

DEFAULT_WEIGHTS: Mapping[str, float] = {
    "retrievalConfidence": 0.3,
    "contextSufficiency": 0.3,
    "diversityScore": 0.15,
    "estimatedFaithfulness": 0.25,
}
"""The specification's weights, by dimension name."""

_MESSAGES = {
    "very-low-context-quality": (
        "Very low retrieval confidence. Consider rephrasing your query or adding more documents."
    ),
    "moderate-context-quality": "Moderate retrieval confidence. Results may be incomplete.",
    "low-source-diversity": (
        "Low source diversity. Results are heavily concentrated in a single document."
    ),
}


def _check_weights(weights: Mapping[str, Any]) -> Mapping[str, float]:
    unknown = sorted(set(weights) - set(DEFAULT_WEIGHTS))
    if unknown:
        raise assay.AssayError(
            assay.ErrorCode.INVALID_CONFIG,
            f"unknown dimension {unknown[0]!r}; known: {', '.join(DEFAULT_WEIGHTS)}",
            f"weights.{unknown[0]}",
        )
    merged = {**DEFAULT_WEIGHTS, **weights}
    for name, value in merged.items():
        merged[name] = config_number(value, f"weights.{name}", 0.0, math.inf)
    if sum(merged.values()) <= 0:
        raise assay.AssayError(assay.ErrorCode.INVALID_CONFIG, "the weights sum to 0", "weights")
    return merged


def _very_low_below(value: Any) -> float:
    return config_number(value, "veryLowBelow")


def _moderate_below(value: Any) -> float:
    return config_number(value, "moderateBelow")


def _low_diversity_below(value: Any) -> float:
    return config_number(value, "lowDiversityBelow")


@attrs.frozen
class QualityConfig:
    """Weights and warning thresholds of the composite.

    Attributes:
        weights: weight per dimension name; missing names take the specification's weight.
            Non-negative, not all zero; normalised by their sum.
        very_low_below: ``overall`` under this raises ``very-low-context-quality`` (0.3).
        moderate_below: ``overall`` under this raises ``moderate-context-quality`` (0.5).
        low_diversity_below: ``diversityScore`` under this raises ``low-source-diversity``
            (0.2).

    Invalid values raise ``INVALID_CONFIG`` with the field path when the config is built.
    """

    weights: Mapping[str, float] = attrs.field(factory=dict, converter=_check_weights)
    very_low_below: float = attrs.field(default=0.3, converter=_very_low_below)
    moderate_below: float = attrs.field(default=0.5, converter=_moderate_below)
    low_diversity_below: float = attrs.field(default=0.2, converter=_low_diversity_below)


@attrs.frozen
class ContextQualityScore:
    """The specification's ``ContextQualityScore`` with the dimensions behind it.

    Attributes:
        overall: weighted composite in [0, 1].
        retrieval_confidence: sub-score in [0, 1].
        context_sufficiency: sub-score in [0, 1].
        diversity_score: sub-score in [0, 1].
        estimated_faithfulness: sub-score in [0, 1].
        warning: the specification's single warning message (first match), or ``None``.
        warnings: the composite's warning (at most one, as a structured record) followed by the
            dimensions' own input warnings.
        dimensions: each dimension's full :class:`assay.DimensionScore`, by name.
        weights: the normalised weights that were applied.
    """

    overall: float
    retrieval_confidence: float
    context_sufficiency: float
    diversity_score: float
    estimated_faithfulness: float
    warning: str | None
    warnings: tuple[assay.ScoreWarning, ...]
    dimensions: Mapping[str, assay.DimensionScore]
    weights: Mapping[str, float]

    def to_wire(self) -> dict[str, Any]:
        """The specification's JSON shape (``warning`` omitted when there is none) plus ``warnings``
        as ``{code, severity, message, path}`` records."""
        wire: dict[str, Any] = {
            "overall": self.overall,
            "retrievalConfidence": self.retrieval_confidence,
            "contextSufficiency": self.context_sufficiency,
            "diversityScore": self.diversity_score,
            "estimatedFaithfulness": self.estimated_faithfulness,
        }
        if self.warning is not None:
            wire["warning"] = self.warning
        wire["warnings"] = [attrs.asdict(w) for w in self.warnings]
        return wire


class QualityScorer:
    """Scores retrievals with the four dimensions under one :class:`QualityConfig`.

    Create once, call :meth:`score` per retrieval: deterministic, no I/O, no clock.
    """

    def __init__(self, config: QualityConfig | None = None) -> None:
        self.config = config or QualityConfig()
        total = sum(self.config.weights.values())
        self._weights = {name: w / total for name, w in self.config.weights.items()}
        self._dimensions = context_dimensions()

    def score(self, quality_input: QualityInput | Mapping[str, Any]) -> ContextQualityScore:
        """The composite score of one retrieval (wire mapping or :class:`QualityInput`).

        :raises assay.AssayError: ``MALFORMED_INPUT`` for a broken input (see
            :func:`~assay_crag.inputs.parse_quality_input`).
        """
        parsed = parse_quality_input(quality_input)
        scores = {d.name: d.score_input(parsed) for d in self._dimensions}
        overall = min(1.0, sum(self._weights[n] * s.raw for n, s in scores.items()))
        diversity = scores["diversityScore"].raw
        code = None
        if overall < self.config.very_low_below:
            code = "very-low-context-quality"
        elif overall < self.config.moderate_below:
            code = "moderate-context-quality"
        elif diversity < self.config.low_diversity_below:
            code = "low-source-diversity"
        warnings = (
            []
            if code is None
            else [
                assay.ScoreWarning(
                    code=code, severity="warn", message=_MESSAGES[code], path="overall"
                )
            ]
        )
        for dimension_score in scores.values():
            warnings.extend(dimension_score.warnings or ())
        return ContextQualityScore(
            overall=overall,
            retrieval_confidence=scores["retrievalConfidence"].raw,
            context_sufficiency=scores["contextSufficiency"].raw,
            diversity_score=diversity,
            estimated_faithfulness=scores["estimatedFaithfulness"].raw,
            warning=None if code is None else _MESSAGES[code],
            warnings=tuple(warnings),
            dimensions=scores,
            weights=self._weights,
        )


def score_context_quality(
    quality_input: QualityInput | Mapping[str, Any], config: QualityConfig | None = None
) -> ContextQualityScore:
    """One-shot :meth:`QualityScorer.score` (builds a scorer each call; keep a
    :class:`QualityScorer` for repeated use)."""
    return QualityScorer(config).score(quality_input)
