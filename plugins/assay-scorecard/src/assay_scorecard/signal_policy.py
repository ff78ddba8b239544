"""Signal policy: which signals are required, and what their absence does."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from assay import AssayError, ErrorCode, ScoreWarning
from assay.jsmath import js_number
from assay_scorecard.presets import Preset
from assay_scorecard.signals import timestamp_ms

__all__ = ["NO_OUTCOME", "SignalPolicy", "SignalPolicyOutcome", "is_signal_missing"]


def _absent(key: str) -> Callable[[Mapping[str, Any]], bool]:
    return lambda inputs: key not in inputs


def _no_candidate_with(*keys: str) -> Callable[[Mapping[str, Any]], bool]:
    def check(inputs: Mapping[str, Any]) -> bool:
        return not any(
            key in candidate for candidate in inputs.get("candidates") or () for key in keys
        )

    return check


def _nothing_dated(inputs: Mapping[str, Any]) -> bool:
    for candidate in inputs.get("candidates") or ():
        stamp = timestamp_ms(candidate.get("lastUpdated"))
        if stamp is not None and stamp == stamp:  # a valid (non-NaN) date
            return False
    return True


_MISSING: dict[str, Callable[[Mapping[str, Any]], bool]] = {
    "answerRelevanceScore": _absent("answerRelevanceScore"),
    "faithfulnessScore": _absent("faithfulnessScore"),
    "claimSupport": _absent("claimSupport"),
    "citationCoverageScore": _absent("citationCoverageScore"),
    "invalidCitationCount": _absent("invalidCitationCount"),
    "citationCount": _absent("citationCount"),
    "conflictSignal": lambda i: "hasConflict" not in i and "conflictingCandidateCount" not in i,
    "freshnessDates": _nothing_dated,
    "corpusTypes": lambda i: "corpusTypeCount" not in i and "presentTypes" not in i,
    "authorityRanks": _no_candidate_with("authorityRank", "documentType"),
    "contentHashes": _no_candidate_with("contentHash"),
    "candidateRanks": _no_candidate_with("rank"),
}


def is_signal_missing(name: str, inputs: Mapping[str, Any]) -> bool:
    """Whether the named signal is missing from ``inputs``; an unrecognised name (and
    ``indexIntegrity``) counts as missing when ``inputs.indexIntegrity`` is absent, as in the
    reference."""
    check = _MISSING.get(name)
    return check(inputs) if check else "indexIntegrity" not in inputs


def _merge(first: Sequence[str], second: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys([*first, *second]))


def _names(caller: Mapping[str, Any], key: str) -> Sequence[str]:
    """``caller[key]``, an array of signal names (absent or null: none). A string would be read
    letter by letter and a non-string name would break every renderer, so both are refused
    (``INVALID_CONFIG`` at ``signalPolicy``, the section, like the section's other errors)."""
    value = caller.get(key)
    if value is None:
        return ()
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise AssayError(
            ErrorCode.INVALID_CONFIG,
            f"{key} must be an array of signal names, not {type(value).__name__}",
            "signalPolicy",
        )
    for index, name in enumerate(value):
        if not isinstance(name, str):
            raise AssayError(
                ErrorCode.INVALID_CONFIG,
                f"the signal names in {key} must be strings; item {index} is a "
                f"{type(name).__name__}",
                "signalPolicy",
            )
    return value


@attrs.frozen
class SignalPolicyOutcome:
    """Warnings and action lists produced by the signal policy for one input."""

    warnings: tuple[ScoreWarning, ...]
    review_missing: tuple[str, ...]
    abstain_missing: tuple[str, ...]


NO_OUTCOME = SignalPolicyOutcome((), (), ())
"""The outcome of an empty policy (nothing required, no citation limits)."""


@attrs.frozen
class SignalPolicy:
    """A preset's signal policy merged with the caller's (preset entries first; callers add,
    never remove; citation limits come from the caller only)."""

    require: tuple[str, ...] = ()
    review_when_missing: tuple[str, ...] = ()
    abstain_when_missing: tuple[str, ...] = ()
    require_support_evaluator: bool = False
    min_citation_coverage_score: float | None = None
    max_invalid_citation_count: float | None = None

    @classmethod
    def merged(cls, preset: Preset, caller: Mapping[str, Any] | None) -> SignalPolicy:
        """Merge ``caller`` (the wire ``signalPolicy`` object) into ``preset``'s policy."""
        caller = caller or {}
        return cls(
            require=_merge(preset.require, _names(caller, "require")),
            review_when_missing=_merge(
                preset.review_when_missing, _names(caller, "reviewWhenMissing")
            ),
            abstain_when_missing=_merge(
                preset.abstain_when_missing, _names(caller, "abstainWhenMissing")
            ),
            require_support_evaluator=preset.require_support_evaluator,
            min_citation_coverage_score=caller.get("minCitationCoverageScore"),
            max_invalid_citation_count=caller.get("maxInvalidCitationCount"),
        )

    @property
    def is_empty(self) -> bool:
        """Nothing to check (the fast path for the default presets)."""
        return not (
            self.require
            or self.require_support_evaluator
            or self.min_citation_coverage_score is not None
            or self.max_invalid_citation_count is not None
        )

    def evaluate(self, inputs: Mapping[str, Any]) -> SignalPolicyOutcome:
        """Check ``inputs`` against the policy."""
        if self.is_empty:
            return NO_OUTCOME
        warnings: list[ScoreWarning] = []
        review: list[str] = []
        abstain: list[str] = []
        for name in self.require:
            if not is_signal_missing(name, inputs):
                continue
            warnings.append(
                ScoreWarning(
                    "required-signal-missing",
                    "warn",
                    f"Required signal '{name}' was not provided.",
                    name,
                )
            )
            if name in self.review_when_missing:
                review.append(name)
            if name in self.abstain_when_missing:
                abstain.append(name)
        if (
            self.require_support_evaluator
            and "faithfulnessScore" not in inputs
            and "claimSupport" not in inputs
        ):
            warnings.append(
                ScoreWarning(
                    "required-signal-missing",
                    "warn",
                    "Production preset requires faithfulnessScore or claimSupport.",
                    "faithfulnessScore",
                )
            )
            review.append("faithfulnessScore")
        floor = self.min_citation_coverage_score
        coverage = inputs.get("citationCoverageScore")
        if floor is not None and "citationCoverageScore" in inputs and _lt(coverage, floor):
            warnings.append(
                ScoreWarning(
                    "citation-quality-floor",
                    "warn",
                    f"citationCoverageScore is below the configured floor ({js_number(floor)}).",
                    "citationCoverageScore",
                )
            )
        limit = self.max_invalid_citation_count
        if limit is not None and _gt(inputs.get("invalidCitationCount", 0), limit):
            warnings.append(
                ScoreWarning(
                    "citation-quality-floor",
                    "warn",
                    f"invalidCitationCount exceeds the configured maximum ({js_number(limit)}).",
                    "invalidCitationCount",
                )
            )
        return SignalPolicyOutcome(
            tuple(warnings), tuple(dict.fromkeys(review)), tuple(dict.fromkeys(abstain))
        )


def _num(value: Any) -> float:
    return 0.0 if value is None else float(value)


def _lt(a: Any, b: Any) -> bool:
    try:
        return _num(a) < _num(b)
    except (TypeError, ValueError):
        return False


def _gt(a: Any, b: Any) -> bool:
    try:
        return _num(a) > _num(b)
    except (TypeError, ValueError):
        return False
