"""Answer relevance (max 15): whether the answer addresses the question, independent of grounding.

"Answer Relevance" of transparent-confidence 0.3; the same rules, to the number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import assay
from assay.jsmath import js_number, round_to
from assay_scorecard.signals import resolve_score_bands

MAX_POINTS = 15.0
DEFAULT_BANDS = {"full": 0.90, "high": 0.75, "medium": 0.60, "low": 0.40}
_POINTS = (("full", 15), ("high", 12), ("medium", 8), ("low", 4))

MISSING_RELEVANCE = assay.ScoreWarning(
    "missing-answer-relevance",
    "warn",
    "Answer relevance scoring is required, but answerRelevanceScore was not provided.",
    "answerRelevanceScore",
)


_NO_SECTION: Mapping[str, Any] = MappingProxyType({})


def _section(config: Mapping[str, Any]) -> Mapping[str, Any]:
    section = config.get("relevance")
    if type(section) is dict:
        return section
    return section if section is not None and isinstance(section, Mapping) else _NO_SECTION


class AnswerRelevance(assay.Dimension):
    """Active when ``answerRelevanceScore`` is present or ``relevance.required`` is true."""

    name = "relevance"
    tier = 1
    max_points = MAX_POINTS
    default_weight = MAX_POINTS
    check_order = 30
    reads = frozenset({"answerRelevanceScore"})
    missing_signals = MappingProxyType({MISSING_RELEVANCE.code: "answerRelevanceScore"})

    def __init__(self) -> None:
        # resolved bands per configured scoreBands object (kept, so that its id stays valid)
        self._bands_cache: dict[int, tuple[Any, dict[str, float]]] = {}

    def _bands(self, overrides: Any) -> dict[str, float]:
        hit = self._bands_cache.get(id(overrides))
        if hit is not None and hit[0] is overrides:
            return hit[1]
        bands = resolve_score_bands(overrides, "relevance.scoreBands", DEFAULT_BANDS)
        cache = self._bands_cache
        if len(cache) >= 1024:
            cache.clear()  # atomic: safe beside other threads
        cache[id(overrides)] = (overrides, bands)
        return bands

    def is_active(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> bool:
        return "answerRelevanceScore" in inputs or _section(config).get("required") is True

    def validate_config(self, config: Mapping[str, Any]) -> None:
        resolve_score_bands(
            _section(config).get("scoreBands"), "relevance.scoreBands", DEFAULT_BANDS
        )

    def check_inputs(
        self, inputs: Mapping[str, Any], config: Mapping[str, Any]
    ) -> list[assay.ScoreWarning]:
        if "answerRelevanceScore" not in inputs and _section(config).get("required") is True:
            return [MISSING_RELEVANCE]
        return []

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        if "answerRelevanceScore" not in inputs:
            return assay.dimension_score(
                raw=0,
                max_points=MAX_POINTS,
                explanation="Answer relevance is required but was not provided (0 of 15).",
                components={"relevanceScore": 0},
                adjustments={"missingRequired": -15},
                diagnostics={"required": True, "scoreProvided": False},
                uncapped_raw=0,
                warnings=[MISSING_RELEVANCE],
            )
        bands = self._bands(_section(config).get("scoreBands"))
        value = inputs["answerRelevanceScore"]
        number = (
            0.0 if value is None else float(value) if isinstance(value, int | float) else math.nan
        )
        points = 0
        for key, band_points in _POINTS:
            if number >= bands[key]:
                points = band_points
                break
        return assay.dimension_score(
            raw=points,
            max_points=MAX_POINTS,
            explanation=f"Answer relevance score {js_number(round_to(number, 2))} earns "
            f"{points} of 15 points.",
            components={"relevanceScore": points},
            diagnostics={
                "answerRelevanceScore": round_to(number, 4) if value is not None else None,
                "bandFull": bands["full"],
                "bandHigh": bands["high"],
                "bandMedium": bands["medium"],
                "bandLow": bands["low"],
            },
            warnings=[],
        )
