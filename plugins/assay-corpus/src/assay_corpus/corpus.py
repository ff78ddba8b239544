"""The corpus completeness dimension ("Corpus Completeness", max 15 points, Tier 2).

Does the corpus hold the document types a complete answer needs? The share of expected types
present maps onto a step table (not a linear scale), and a known-missing relevant type costs 3
points. The rules are those of transparent-confidence 0.3.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import assay
from assay.jsmath import js_number, round_to
from assay_corpus.numbers import is_integer, js_min
from assay_corpus.readiness import ReadinessDimension
from assay_scorecard.signals import is_number

__all__ = ["CorpusDimension", "coverage_points"]

MISSING_RELEVANT_TYPE_PENALTY = 3
#: (minimum coverage ratio, points), first match wins; below 0.2 (and NaN) scores 0.
COVERAGE_STEPS: tuple[tuple[float, int], ...] = ((1, 15), (0.8, 12), (0.6, 9), (0.4, 5), (0.2, 2))
_COUNT_PATH = "corpusTypeCount"
MISSING_COUNT = "missing-corpus-count"


def coverage_points(ratio: float) -> int:
    """Points of a coverage ratio: >= 1: 15, >= 0.8: 12, >= 0.6: 9, >= 0.4: 5, >= 0.2: 2, else
    (NaN too) 0."""
    for minimum, points in COVERAGE_STEPS:
        if ratio >= minimum:
            return points
    return 0


def _is_string_list(value: Any) -> bool:
    return (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and all(isinstance(item, str) for item in value)
    )


def _ratio(count: float, expected: float) -> float:
    """``Math.min(count, expected) / expected`` with JavaScript division (x / 0 is NaN or inf)."""
    numerator = js_min(count, expected)
    if expected == 0:
        if numerator == 0 or math.isnan(numerator):
            return math.nan
        return math.copysign(math.inf, numerator)
    return numerator / expected


class CorpusDimension(ReadinessDimension):
    """Corpus completeness, 0-15 points, active when ``config["corpus"]`` is present.

    *Named mode* when both ``config.corpus.expectedTypes`` and ``inputs.presentTypes`` are given:
    the count is the length of ``presentTypes`` and missing types are computed (case-sensitive).
    Otherwise *count mode*: ``inputs.corpusTypeCount`` against ``expectedTypeCount`` (or the
    length of ``expectedTypes``), missing types taken from ``inputs.missingTypes``.

    Output: components ``{base}``, adjustment ``missingRelevantTypePenalty`` (-3, floor 0),
    diagnostics ``{corpusTypeCount, expectedTypeCount, ratio, namedTypes, missingTypes?}``; without
    a count: raw 0 and a ``missing-corpus-count`` warning.
    """

    name = "corpus"
    check_order = 20
    reads = frozenset({"corpusTypeCount", "presentTypes", "missingTypes", "missingRelevantType"})
    missing_signals = MappingProxyType({MISSING_COUNT: "corpusTypes"})

    def validate_config(self, config: Mapping[str, Any]) -> None:
        """Config checks for ``corpus``: ``expectedTypeCount`` or ``expectedTypes`` given,
        equal when both are, the count an integer >= 1 (``expectedTypes: []`` passes); plus
        ``expectedTypes`` must be a list of strings.

        :raises assay.AssayError: ``INVALID_CONFIG`` with the field path.
        """
        if self.name not in config:
            return
        section = config[self.name]
        if not isinstance(section, Mapping):
            raise assay.AssayError("INVALID_CONFIG", "corpus must be an object.", "corpus")
        count = section.get("expectedTypeCount")
        types = section.get("expectedTypes")
        if count is None and types is None:
            raise assay.AssayError(
                "INVALID_CONFIG", "corpus requires expectedTypeCount or expectedTypes.", "corpus"
            )
        if types is not None and not _is_string_list(types):
            raise assay.AssayError(
                "INVALID_CONFIG",
                "corpus.expectedTypes must be a list of strings.",
                "corpus.expectedTypes",
            )
        if count is None:
            return
        if types is not None and count != len(types):
            raise assay.AssayError(
                "INVALID_CONFIG",
                "corpus.expectedTypeCount must match corpus.expectedTypes.length.",
                "corpus.expectedTypeCount",
            )
        if not is_integer(count) or count < 1:
            raise assay.AssayError(
                "INVALID_CONFIG",
                "corpus.expectedTypeCount must be an integer >= 1.",
                "corpus.expectedTypeCount",
            )

    def check_inputs(
        self, inputs: Mapping[str, Any], config: Mapping[str, Any]
    ) -> list[assay.ScoreWarning]:
        """``missing-corpus-count`` when neither ``corpusTypeCount`` nor ``presentTypes`` is
        given."""
        if "corpusTypeCount" in inputs or "presentTypes" in inputs:
            return []
        return [
            _missing_count(
                "Corpus scoring is active, but no corpus type count or presentTypes were provided."
            )
        ]

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        """Score corpus coverage."""
        section = config.get(self.name) or {}
        expected_types: Sequence[str] | None = section.get("expectedTypes")
        present_types: Sequence[str] | None = inputs.get("presentTypes")
        named = False
        count: Any
        expected: Any
        if expected_types is not None and present_types is not None:
            named = True
            present = set(present_types)
            count = len(present_types)
            expected = len(expected_types)
            missing = [name for name in expected_types if name not in present]
        else:
            count = inputs.get("corpusTypeCount")
            expected = section.get("expectedTypeCount")
            if expected is None:
                expected = len(expected_types or ())
            missing = list(inputs.get("missingTypes") or ())
        if not named and "corpusTypeCount" not in inputs:
            return assay.dimension_score(
                raw=0.0,
                max_points=self.max_points,
                explanation=(
                    "corpusTypeCount not provided. Supply the number of loaded document types to "
                    "enable corpus scoring."
                ),
                components={"base": 0},
                diagnostics={"effectiveExpectedTypeCount": expected},
                warnings=[
                    _missing_count(
                        "corpusTypeCount not provided. Supply corpusTypeCount or presentTypes + "
                        "config.corpus.expectedTypes to enable corpus scoring."
                    )
                ],
            )
        amount = 0.0 if count is None else (float(count) if is_number(count) else math.nan)
        ratio = _ratio(amount, expected)
        base = coverage_points(ratio)
        raw = float(base)
        adjustments = {}
        notes = [_coverage_sentence(base, count, expected)]
        if missing:
            notes.append(f"Missing types: {', '.join(missing)}.")
        if inputs.get("missingRelevantType") is True:
            raw = max(0.0, base - MISSING_RELEVANT_TYPE_PENALTY)
            adjustments["missingRelevantTypePenalty"] = -MISSING_RELEVANT_TYPE_PENALTY
            notes.append(
                "A document type directly relevant to this question appears to be missing — "
                "answer may be incomplete (−3)."
            )
        diagnostics: dict[str, Any] = {
            "corpusTypeCount": count,
            "expectedTypeCount": expected,
            "ratio": round_to(ratio, 2),
            "namedTypes": named,
        }
        if missing:
            diagnostics["missingTypes"] = ", ".join(missing)
        return assay.dimension_score(
            raw=raw,
            max_points=self.max_points,
            explanation=" ".join(notes),
            components={"base": base},
            adjustments=adjustments,
            diagnostics=diagnostics,
            warnings=[],
        )


def _coverage_sentence(base: int, count: Any, expected: int) -> str:
    shown = "null" if count is None else js_number(count)
    if base == 15:
        return f"All {expected} expected document types present."
    if base == 0:
        return f"Corpus is empty or nearly empty ({shown} of {expected} types)."
    if base == 2:
        return f"Only {shown} of {expected} expected document types present."
    return f"{shown} of {expected} expected document types present."


def _missing_count(message: str) -> assay.ScoreWarning:
    return assay.ScoreWarning(
        code=MISSING_COUNT, severity="warn", message=message, path=_COUNT_PATH
    )
