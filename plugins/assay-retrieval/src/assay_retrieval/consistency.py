"""Evidence consistency (max 10): retrieval score stability plus the explicit conflict signal.

"Dimension 3" of transparent-confidence 0.3; the same rules, to the number.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import assay
from assay.jsmath import to_fixed
from assay_retrieval.retrieval import _combined, population_std

MAX_POINTS = 10.0

MISSING_CONFLICT = assay.ScoreWarning(
    "missing-conflict-signal",
    "warn",
    "No conflict signal was provided (hasConflict or conflictingCandidateCount). Score is "
    "conservative.",
    "hasConflict",
)


def _stability(std: float) -> tuple[int, str]:
    if std < 0.1:
        return 6, "very tight"
    if std < 0.2:
        return 5, "tight"
    if std < 0.3:
        return 3, "moderate"
    return 1, "wide"


class EvidenceConsistency(assay.Dimension):
    """Score stability (0-6) + conflict status (0-4). Always active."""

    name = "consistency"
    tier = 1
    max_points = MAX_POINTS
    default_weight = MAX_POINTS
    extension = False
    reads = frozenset(
        {"candidates", "candidates[].combinedScore", "hasConflict", "conflictingCandidateCount"}
    )
    missing_signals = MappingProxyType({MISSING_CONFLICT.code: "conflictSignal"})

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        candidates = inputs["candidates"]
        n = len(candidates)
        if n == 0:
            return assay.dimension_score(
                raw=0,
                max_points=MAX_POINTS,
                explanation="No retrieved candidates were provided.",
                components={"scoreStability": 0, "conflictStatus": 0},
                diagnostics={"candidateCount": 0},
                warnings=[],
            )
        warnings: list[assay.ScoreWarning] = []
        if n == 1:
            stability, std_text, std = (
                3,
                "Only one candidate — stability unmeasurable (neutral 3).",
                0.0,
            )
        else:
            combined = []
            for candidate in candidates:
                value = candidate.get("combinedScore")
                kind = type(value)
                combined.append(value if kind is float or kind is int else _combined(candidate))
            std = population_std(combined)
            stability, word = _stability(std)
            std_text = f"Score std dev {std:.3f} — {word} retrieval stability."

        if "conflictingCandidateCount" in inputs:
            count = inputs["conflictingCandidateCount"]
            conflict = 4 if count == 0 else 1 if count == 1 else 0
            conflict_text = f"{count} conflicting candidate(s) (+{conflict})."
        elif "hasConflict" in inputs:
            conflict = 4 if inputs["hasConflict"] is False else 0
            conflict_text = (
                "Explicit no-conflict signal provided (+4)."
                if conflict
                else "Sources conflict (+0)."
            )
        else:
            conflict = 2
            conflict_text = "No conflict signal provided (neutral +2)."
            warnings.append(MISSING_CONFLICT)
        raw = stability + conflict
        return assay.dimension_score(
            raw=raw,
            max_points=MAX_POINTS,
            explanation=f"{std_text} {conflict_text}",
            components={"scoreStability": stability, "conflictStatus": conflict},
            diagnostics={"candidateCount": n, "scoreStdDev": to_fixed(std, 4) if n > 1 else 0},
            warnings=warnings,
        )
