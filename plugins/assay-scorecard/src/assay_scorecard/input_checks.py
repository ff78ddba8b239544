"""The input checks every scorecard runs on the common ScoringInputs fields.

Dimension-specific checks (freshness dates, corpus counts, required relevance, index integrity)
come from each active dimension's ``check_inputs``; these are the ones on fields the core's
input type owns: documentsSilent, candidates, claimSupport, faithfulnessScore,
citationCoverageScore.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from assay import AssayError, ErrorCode, ScoreWarning
from assay_scorecard.signals import (
    DOCUMENTS_SILENT,
    MISSING_CANDIDATES,
    claim_support_problem,
    is_finite_number,
)

__all__ = ["MISSING_SIGNALS", "check_common_inputs"]

MISSING_SIGNALS = {MISSING_CANDIDATES.code: "candidates"}
"""Which missing input signal each warning code of these checks means (for
``meta.missingSignals``; dimensions declare theirs as ``missing_signals``)."""

_COMBINED = "Candidate combinedScore should be a finite number in the 0-1 range."
_METHOD = "Retrieval method scores should be finite numbers in the 0-1 range."


def _in_unit_range(value: Any) -> bool:
    kind = type(value)
    if kind is float or kind is int:  # fast path; NaN and infinities fail the comparison
        return bool(0 <= value <= 1)
    return is_finite_number(value) and 0 <= value <= 1


def _malformed(message: str, path: str | None = None) -> AssayError:
    return AssayError(ErrorCode.MALFORMED_INPUT, message, path)


def _method_warnings(scores: Mapping[str, Any], index: int, warnings: list[ScoreWarning]) -> None:
    for method, score in scores.items():
        if not _in_unit_range(score):
            warnings.append(
                ScoreWarning(
                    "input-out-of-range",
                    "warn",
                    _METHOD,
                    f"candidates[{index}].retrievalScores.{method}",
                )
            )


def _check_candidates(candidates: Any, warnings: list[ScoreWarning]) -> None:
    """Structure and range checks of every candidate, in order (see check_common_inputs)."""
    for index, candidate in enumerate(candidates):
        if type(candidate) is not dict and not isinstance(candidate, Mapping):
            raise _malformed("a candidate must be an object", f"candidates[{index}]")
        scores = candidate.get("retrievalScores")
        if type(scores) is not dict and not isinstance(scores, Mapping):
            raise _malformed(
                "retrievalScores must be an object of method -> score",
                f"candidates[{index}].retrievalScores",
            )
        combined = candidate.get("combinedScore")
        if not (type(combined) is float and 0 <= combined <= 1) and not _in_unit_range(combined):
            warnings.append(
                ScoreWarning(
                    "input-out-of-range", "warn", _COMBINED, f"candidates[{index}].combinedScore"
                )
            )
        for score in scores.values():
            if not (type(score) is float and 0 <= score <= 1) and not _in_unit_range(score):
                _method_warnings(scores, index, warnings)
                break


def check_common_inputs(inputs: Any) -> list[ScoreWarning]:
    """The common part of V, in the reference's order, and the structure check.

    :raises AssayError: ``MALFORMED_INPUT`` for input the scorer cannot read at all: not an
        object, no ``candidates`` array, a candidate that is not an object or has no
        ``retrievalScores`` object (the reference crashes with a TypeError on these).
    """
    if type(inputs) is not dict and not isinstance(inputs, Mapping):
        raise _malformed(f"scoring inputs must be a JSON object, not {type(inputs).__name__}")
    candidates = inputs.get("candidates")
    if type(candidates) is not list and not isinstance(candidates, list | tuple):
        raise _malformed("candidates must be an array of candidates", "candidates")
    warnings: list[ScoreWarning] = []
    if inputs.get("documentsSilent") is True:
        warnings.append(DOCUMENTS_SILENT)
    if not candidates:
        warnings.append(MISSING_CANDIDATES)
    # the common case first: dict candidates whose scores are all floats in 0-1 (nothing to
    # report); at the first other one, the full check below runs over every candidate
    for candidate in candidates:
        if type(candidate) is dict:
            scores = candidate.get("retrievalScores")
            combined = candidate.get("combinedScore")
            if type(scores) is dict and type(combined) is float and 0 <= combined <= 1:
                for score in scores.values():
                    if not (type(score) is float and 0 <= score <= 1):
                        break
                else:
                    continue
        _check_candidates(candidates, warnings)
        break
    if "claimSupport" in inputs:
        problem = claim_support_problem(inputs["claimSupport"])
        if problem:
            warnings.append(ScoreWarning("input-out-of-range", "warn", problem, "claimSupport"))
    for key in ("faithfulnessScore", "citationCoverageScore"):
        if key in inputs and not _in_unit_range(inputs[key]):
            warnings.append(
                ScoreWarning(
                    "input-out-of-range",
                    "warn",
                    f"{key} should be a finite number in the 0-1 range.",
                    key,
                )
            )
    return warnings
