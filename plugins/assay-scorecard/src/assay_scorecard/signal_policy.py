"""Signal policy: which signals are required, and what their absence does."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from assay import AssayError, ErrorCode, ScoreWarning
from assay.jsmath import js_number, round_to
from assay_scorecard.presets import Preset
from assay_scorecard.signals import claim_support_problem, is_finite_number, timestamp_ms

__all__ = [
    "CONFLICTING_SOURCES",
    "LOW_SUPPORT",
    "NO_OUTCOME",
    "UNSUPPORTED_ANSWER",
    "SignalPolicy",
    "SignalPolicyOutcome",
    "effective_support",
    "is_signal_missing",
]

LOW_SUPPORT = "low-support"
"""Warning code: the effective support score is below ``signalPolicy.minSupportScore``, or a
support signal was given that cannot be read as one."""
UNSUPPORTED_ANSWER = "unsupported-answer"
"""Warning code: the effective support score is below ``signalPolicy.unsupportedBelow``."""
CONFLICTING_SOURCES = "conflicting-sources"
"""Warning code, under a preset that asks for it (``grounded-v1``): the sources contradict each
other (``hasConflict`` is true, or ``conflictingCandidateCount`` is above 0), so the answer may
follow the wrong one however well it is supported."""


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


def _support_evaluator_message(preset: str) -> str:
    """The ``required-signal-missing`` message of a preset that requires a support evaluator:
    transparent-confidence 0.3's own text for its production preset, else naming the preset."""
    if preset == "production-v0.3":
        return "Production preset requires faithfulnessScore or claimSupport."
    return f"Preset {preset} requires faithfulnessScore or claimSupport."


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
    min_support_score: float | None = None
    unsupported_below: float | None = None
    warn_on_conflict: bool = False
    """a ``conflicting-sources`` warning when the sources contradict each other (the preset's
    :attr:`~assay_scorecard.presets.Preset.warn_on_conflict`)"""
    preset: str = "production-v0.3"
    """the name of the preset the policy comes from (named in the support-evaluator warning)"""

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
            min_support_score=_support_floor(caller, "minSupportScore"),
            unsupported_below=_support_floor(caller, "unsupportedBelow"),
            warn_on_conflict=preset.warn_on_conflict,
            preset=preset.name,
        )

    @property
    def is_empty(self) -> bool:
        """Nothing to check (the fast path for the default presets)."""
        return not (
            self.require
            or self.require_support_evaluator
            or self.min_citation_coverage_score is not None
            or self.max_invalid_citation_count is not None
            or self.min_support_score is not None
            or self.unsupported_below is not None
            or self.warn_on_conflict
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
                    _support_evaluator_message(self.preset),
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
        if self.min_support_score is not None or self.unsupported_below is not None:
            warnings.extend(self._support_warnings(inputs))
        if self.warn_on_conflict:
            conflict = _conflict_warning(inputs)
            if conflict is not None:
                warnings.append(conflict)
        return SignalPolicyOutcome(
            tuple(warnings), tuple(dict.fromkeys(review)), tuple(dict.fromkeys(abstain))
        )

    def _support_warnings(self, inputs: Mapping[str, Any]) -> list[ScoreWarning]:
        """The support floors: ``low-support`` below ``minSupportScore`` (or for a support
        signal that cannot be read), ``unsupported-answer`` below ``unsupportedBelow``."""
        support = effective_support(inputs)
        if support is None:
            return []
        score, path = support
        if score is None:
            return [
                ScoreWarning(
                    LOW_SUPPORT,
                    "warn",
                    f"{path} cannot be read as a support score (a number in the 0-1 range, or "
                    "valid claim counts); the answer's support is unknown.",
                    path,
                )
            ]
        shown = js_number(round_to(score, 2))
        found = []
        for floor, code, name, consequence in (
            (self.min_support_score, LOW_SUPPORT, "minSupportScore", ""),
            (
                self.unsupported_below,
                UNSUPPORTED_ANSWER,
                "unsupportedBelow",
                ": the sources do not support this answer",
            ),
        ):
            if floor is not None and score < floor:
                message = (
                    f"Effective support score {shown} is below {name} ({js_number(floor)})"
                    f"{consequence}."
                )
                found.append(ScoreWarning(code, "warn", message, path))
        return found


def _conflict_warning(inputs: Mapping[str, Any]) -> ScoreWarning | None:
    """``conflicting-sources`` when ``hasConflict`` is true or ``conflictingCandidateCount`` is a
    number above 0 (the signals the consistency dimension reads as a conflict), else ``None``."""
    count: Any = inputs.get("conflictingCandidateCount")
    if is_finite_number(count) and count > 0:
        return ScoreWarning(
            CONFLICTING_SOURCES,
            "warn",
            f"{js_number(count)} candidate(s) conflict with the others: the answer may follow "
            "the wrong source.",
            "conflictingCandidateCount",
        )
    if inputs.get("hasConflict") is True:
        return ScoreWarning(
            CONFLICTING_SOURCES,
            "warn",
            "The sources contradict each other (hasConflict is true): the answer may follow the "
            "wrong one.",
            "hasConflict",
        )
    return None


def effective_support(inputs: Mapping[str, Any]) -> tuple[float | None, str] | None:
    """The answer's effective support score, as the grounding dimension reads it: the lower of
    ``faithfulnessScore`` and the claim-support ratio (``supportedClaims / totalClaims``), with
    the path of the signal it came from. ``None`` when neither signal is given; ``(None, path)``
    when one is given but none can be read (not a finite number in [0, 1], invalid counts)."""
    found: list[tuple[float, str]] = []
    given: list[str] = []
    if "faithfulnessScore" in inputs:
        given.append("faithfulnessScore")
        value = inputs["faithfulnessScore"]
        if is_finite_number(value) and 0 <= value <= 1:
            found.append((float(value), "faithfulnessScore"))
    if "claimSupport" in inputs:
        given.append("claimSupport")
        claims = inputs["claimSupport"]
        if claim_support_problem(claims) is None:
            found.append((claims["supportedClaims"] / claims["totalClaims"], "claimSupport"))
    if found:
        return min(found, key=lambda item: item[0])
    return (None, given[0]) if given else None


def _support_floor(caller: Mapping[str, Any], key: str) -> float | None:
    """A support floor of the caller's ``signalPolicy``: a number in [0, 1], or absent."""
    value = caller.get(key)
    if value is None:
        return None
    if not is_finite_number(value) or not 0 <= value <= 1:
        raise AssayError(
            ErrorCode.INVALID_CONFIG,
            f"{key} must be a number in the 0-1 range, got {value!r}",
            f"signalPolicy.{key}",
        )
    return float(value)


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
