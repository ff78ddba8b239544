"""The scorecard's default action policy: the reference's rule cascade, first match wins."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from assay import Decision
from assay.jsmath import js_number, js_to_number

__all__ = ["ScorecardEvidence", "ThresholdActionPolicy"]


@attrs.frozen(slots=False)
class ScorecardEvidence:
    """What the action policy decides on.

    Attributes:
        total: the scorecard total (0-100, NaN for NaN inputs).
        tier1_score: the Tier 1 score.
        warning_codes: codes of ``meta.warnings`` in order.
        documents_silent: the inputs said the documents do not address the question.
        abstain_missing: required signals missing that the signal policy abstains on.
        review_missing: required signals missing that the signal policy reviews on.
    """

    total: float
    tier1_score: float
    warning_codes: Sequence[str]
    documents_silent: bool = False
    abstain_missing: Sequence[str] = ()
    review_missing: Sequence[str] = ()


def _tuple(value: Sequence[str]) -> tuple[str, ...]:
    return tuple(value)


def _threshold_text(value: Any) -> str | None:
    """How the reference writes a configured threshold into a reason: a number as JavaScript
    prints it, a string (a numeric one such as ``"80"`` compares as its number) as it is."""
    if isinstance(value, str):
        return value
    try:
        return js_number(value)
    except (TypeError, ValueError, OverflowError):
        return None


_TEXTS: dict[float, str] = {}


def _text(number: Any) -> str:
    """``js_number(number)``, remembered for the floats a scorecard total takes (0-100)."""
    if type(number) is not float:
        return js_number(number)
    text = _TEXTS.get(number)
    if text is None:
        text = js_number(number)
        if len(_TEXTS) < 4096 and number == number:
            _TEXTS[number] = text
    return text


@attrs.frozen
class ThresholdActionPolicy:
    """answer / review / abstain by thresholds and warning lists.

    Rules, first match wins: documents-silent -> abstain; abstain-when-missing -> abstain;
    abstain-on-warning -> abstain; total < abstain_below -> abstain; tier1 <
    require_tier1_at_least -> review; review-when-missing -> review; review-on-warning -> review;
    total >= answer_at -> answer; total >= review_at -> review; otherwise abstain.

    Attributes:
        answer_at: answer at or above this total (65).
        review_at: review at or above this total (40).
        abstain_below: abstain below this total (40).
        require_tier1_at_least: review when Tier 1 is below this (40).
        review_on_warnings: warning codes that force review.
        abstain_on_warnings: warning codes that force abstain.
    """

    name = "threshold-action"
    evidence_type = ScorecardEvidence

    answer_at: float = 65
    review_at: float = 40
    abstain_below: float = 40
    require_tier1_at_least: float = 40
    review_on_warnings: tuple[str, ...] = attrs.field(
        default=("missing-answer-relevance", "missing-conflict-signal"), converter=_tuple
    )
    abstain_on_warnings: tuple[str, ...] = attrs.field(
        default=("documents-silent",), converter=_tuple
    )
    # numeric thresholds (JavaScript coercion of what was configured) and warning sets, resolved
    # once per configuration instead of per decision
    _thresholds: tuple[float, float, float, float] = attrs.field(init=False, repr=False, eq=False)
    _review_codes: frozenset[str] = attrs.field(init=False, repr=False, eq=False)
    _abstain_codes: frozenset[str] = attrs.field(init=False, repr=False, eq=False)
    # the configured thresholds as text: (abstainBelow, requireTier1AtLeast, answerAt, reviewAt),
    # None where js_number cannot write one (it then raises when that rule is reached)
    _texts: tuple[str | None, ...] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        resolve = object.__setattr__
        resolve(
            self,
            "_thresholds",
            (
                js_to_number(self.abstain_below),
                js_to_number(self.require_tier1_at_least),
                js_to_number(self.answer_at),
                js_to_number(self.review_at),
            ),
        )
        resolve(
            self,
            "_texts",
            (
                _threshold_text(self.abstain_below),
                _threshold_text(self.require_tier1_at_least),
                _threshold_text(self.answer_at),
                _threshold_text(self.review_at),
            ),
        )
        resolve(self, "_review_codes", frozenset(self.review_on_warnings))
        resolve(self, "_abstain_codes", frozenset(self.abstain_on_warnings))

    def configure(self, settings: Mapping[str, Any] | None) -> ThresholdActionPolicy:
        """A copy with the wire-shape ``actionPolicy`` settings applied (camelCase keys; a given
        list replaces its default; ``null`` and unknown keys are ignored, as in the reference)."""
        if not settings:
            return self
        mapping = {
            "answerAt": "answer_at",
            "reviewAt": "review_at",
            "abstainBelow": "abstain_below",
            "requireTier1AtLeast": "require_tier1_at_least",
            "reviewOnWarnings": "review_on_warnings",
            "abstainOnWarnings": "abstain_on_warnings",
        }
        # ``null`` is "not given", as the reference's ``??`` reads it
        changes = {
            attr: settings[key] for key, attr in mapping.items() if settings.get(key) is not None
        }
        return attrs.evolve(self, **changes)

    def decide(self, evidence: ScorecardEvidence) -> Decision:
        """Apply the rule cascade; see the class docstring."""
        total, tier1 = evidence.total, evidence.tier1_score
        abstain_below, tier1_floor, answer_at, review_at = self._thresholds
        if evidence.documents_silent:
            return Decision(
                "abstain",
                "documents-silent",
                "Documents do not address this question (documentsSilent is true).",
            )
        if evidence.abstain_missing:
            names = ", ".join(evidence.abstain_missing)
            return Decision(
                "abstain",
                "abstain-when-missing",
                f"Required signal(s) missing matched abstainWhenMissing policy: {names}.",
                {"signals": list(evidence.abstain_missing)},
            )
        abstain_codes = self._abstain_codes
        for code in evidence.warning_codes:
            if code in abstain_codes:
                return Decision(
                    "abstain",
                    "abstain-on-warning",
                    f"Warning '{code}' matched abstainOnWarnings policy.",
                    {"warning": code},
                )
        if total < abstain_below:
            return Decision(
                "abstain",
                "abstain-below",
                f"Score {_text(total)} is below abstainBelow threshold "
                f"({self._texts[0] or js_number(self.abstain_below)}).",
                {"total": total, "abstainBelow": self.abstain_below},
            )
        if tier1 < tier1_floor:
            return Decision(
                "review",
                "tier1-floor",
                f"Tier 1 score {_text(tier1)} is below requireTier1AtLeast threshold "
                f"({self._texts[1] or js_number(self.require_tier1_at_least)}).",
                {"tier1": tier1, "requireTier1AtLeast": self.require_tier1_at_least},
            )
        if evidence.review_missing:
            names = ", ".join(evidence.review_missing)
            return Decision(
                "review",
                "review-when-missing",
                f"Required signal(s) missing matched reviewWhenMissing policy: {names}.",
                {"signals": list(evidence.review_missing)},
            )
        review_codes = self._review_codes
        for code in evidence.warning_codes:
            if code in review_codes:
                return Decision(
                    "review",
                    "review-on-warning",
                    f"Warning '{code}' matched reviewOnWarnings policy.",
                    {"warning": code},
                )
        if total >= answer_at:
            return Decision(
                "answer",
                "answer-at",
                f"Score {_text(total)} meets answerAt threshold "
                f"({self._texts[2] or js_number(self.answer_at)}).",
                {"total": total, "answerAt": self.answer_at},
            )
        if total >= review_at:
            return Decision(
                "review",
                "review-at",
                f"Score {_text(total)} meets reviewAt threshold "
                f"({self._texts[3] or js_number(self.review_at)}).",
                {"total": total, "reviewAt": self.review_at},
            )
        return Decision(
            "abstain",
            "below-review-at",
            f"Score {_text(total)} is below reviewAt threshold "
            f"({self._texts[3] or js_number(self.review_at)}) — abstaining.",
            {"total": total, "reviewAt": self.review_at},
        )
