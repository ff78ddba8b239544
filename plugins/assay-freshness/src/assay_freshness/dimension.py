"""The document freshness dimension ("Document Freshness", max 15 points, Tier 2).

How recent are the retrieved documents? One age is selected from the dated candidates (median,
oldest or newest), then scored: full points inside the window, a continuous monthly decay after
it, zero at the hard cutoff. The rules are those of transparent-confidence 0.3.

There is no hidden clock: the reference time is ``config.freshness.now`` or, when a caller wants
one, a clock passed explicitly to :class:`FreshnessDimension`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from types import MappingProxyType
from typing import Any

import assay
from assay.jsmath import js_number, js_round, round_to, to_fixed
from assay_scorecard.signals import is_number, timestamp_ms

__all__ = ["DEFAULTS", "FreshnessDimension", "select_age"]

MAX_POINTS = 15.0
#: Defaults of ``config.freshness``: full-score window and hard cutoff in days, points lost per
#: 30 days beyond the window, and which age is scored.
DEFAULTS: Mapping[str, Any] = {
    "maxAgeForFullScore": 90,
    "penaltyPerMonth": 1.5,
    "hardCutoffAge": 730,
    "aggregation": "median",
}
_DAYS_PER_MONTH = 30
MS_PER_DAY = 86_400_000
_MISSING_DATES_PATH = "candidates[].lastUpdated"
MISSING_DATES = "missing-freshness-dates"
_NO_DATES = (
    "No lastUpdated dates provided on candidates. Supply Candidate.lastUpdated to enable "
    "freshness scoring."
)


def select_age(ages: Sequence[float], aggregation: str) -> float:
    """The scored age among ``ages`` (days, sorted ascending, at least one): ``"oldest"`` the
    largest, ``"newest"`` the smallest, anything else the median (mean of the two middle ages
    for an even count)."""
    if aggregation == "oldest":
        return ages[-1]
    if aggregation == "newest":
        return ages[0]
    middle = len(ages) // 2
    if len(ages) % 2:
        return ages[middle]
    return (ages[middle - 1] + ages[middle]) / 2


def _setting(section: Mapping[str, Any], key: str) -> Any:
    value = section.get(key)
    return DEFAULTS[key] if value is None else value


class FreshnessDimension(assay.Dimension):
    """Document freshness, 0-15 points, active when ``config["freshness"]`` is present.

    Input: ``candidates[].lastUpdated`` (ISO-8601 string or timezone-aware ``datetime``; ``None``
    and numbers are "not dated"; an unparsable string is an invalid date whose NaN propagates).
    Config section ``freshness``: ``now`` (required unless a clock was injected),
    ``maxAgeForFullScore`` (90), ``penaltyPerMonth`` (1.5), ``hardCutoffAge`` (730),
    ``aggregation`` (``median`` | ``oldest`` | ``newest``).

    In the decay branch ``raw`` is the rounded exact score, ``uncappedRaw`` the exact score and
    ``normalized`` is computed from the exact score (so 14.5 points is raw 15, normalized 97).

    :param clock: optional zero-argument callable returning the reference time, used only when a
        config has no ``now``. Without it such a config is rejected by :meth:`validate_config`.
    """

    name = "freshness"
    tier = 2
    max_points = MAX_POINTS
    default_weight = MAX_POINTS
    extension = True
    check_order = 10
    reads = frozenset({"candidates", "candidates[].lastUpdated"})
    missing_signals = MappingProxyType({MISSING_DATES: "freshnessDates"})

    def __init__(self, clock: Callable[[], datetime] | None = None) -> None:
        self._clock = clock

    config_activated = True  # is_active reads the config only: asked once per scorer

    def is_active(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> bool:
        """Active when the ``freshness`` config key is present (``{}`` suffices)."""
        return self.name in config

    def validate_config(self, config: Mapping[str, Any]) -> None:
        """Config checks for ``freshness``: ``hardCutoffAge`` > ``maxAgeForFullScore`` and
        ``penaltyPerMonth`` >= 0 (NaN passes both, as in the reference); plus numbers must be
        numbers and ``now`` must be a readable instant (or a clock injected).

        :raises assay.AssayError: ``INVALID_CONFIG`` with the field path.
        """
        section = config.get(self.name)
        if section is None:
            return
        if not isinstance(section, Mapping):
            raise assay.AssayError("INVALID_CONFIG", "freshness must be an object.", "freshness")
        for key in ("maxAgeForFullScore", "penaltyPerMonth", "hardCutoffAge"):
            if not is_number(_setting(section, key)):
                raise assay.AssayError(
                    "INVALID_CONFIG", f"freshness.{key} must be a number.", f"freshness.{key}"
                )
        if _setting(section, "hardCutoffAge") <= _setting(section, "maxAgeForFullScore"):
            raise assay.AssayError(
                "INVALID_CONFIG",
                "freshness.hardCutoffAge must be greater than freshness.maxAgeForFullScore.",
                "freshness.hardCutoffAge",
            )
        if _setting(section, "penaltyPerMonth") < 0:
            raise assay.AssayError(
                "INVALID_CONFIG",
                "freshness.penaltyPerMonth must be >= 0.",
                "freshness.penaltyPerMonth",
            )
        self._now_ms(section)

    def check_inputs(
        self, inputs: Mapping[str, Any], config: Mapping[str, Any]
    ) -> list[assay.ScoreWarning]:
        """``missing-freshness-dates`` when no candidate carries a date;
        in strict validation, ``invalid-freshness-date`` (raised as ``INVALID_INPUT``) for a
        ``lastUpdated`` string that is not a readable date (it makes the age, and the total,
        NaN). In warn mode the reference gives no warning (conformance vector
        c-b-f-invalid-date-string), so none is added there."""
        candidates = _candidates(inputs)
        if any(isinstance(c.get("lastUpdated"), datetime | str) for c in candidates):
            problems: list[assay.ScoreWarning] = []
            if config.get("validation") != "strict":
                return problems
            for index, candidate in enumerate(candidates):
                value = candidate.get("lastUpdated")
                stamp = timestamp_ms(value) if isinstance(value, str) else None
                if stamp is not None and not math.isfinite(stamp):
                    problems.append(
                        assay.ScoreWarning(
                            "invalid-freshness-date",
                            "warn",
                            "lastUpdated is not a readable ISO-8601 date; the freshness age "
                            "cannot be computed.",
                            f"candidates[{index}].lastUpdated",
                        )
                    )
            return problems
        return [_missing_dates("Freshness scoring is active, but no candidate has lastUpdated.")]

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        """Score the selected document age."""
        section = config.get(self.name) or {}
        aggregation = _setting(section, "aggregation")
        dated = _dated(inputs)
        diagnostics: dict[str, Any] = {
            "aggregation": aggregation,
            "datedCandidateCount": len(dated),
        }
        if not dated:
            return assay.dimension_score(
                raw=0.0,
                max_points=self.max_points,
                explanation=_NO_DATES,
                components={"selectedAge": 0},
                diagnostics=diagnostics,
                warnings=[_missing_dates(_NO_DATES)],
            )
        now_ms = self._now_ms(section)
        ages = sorted((now_ms - stamp) / MS_PER_DAY for stamp in dated)
        age = select_age(ages, aggregation)
        selected = js_round(age)
        diagnostics["selectedAgeDays"] = selected
        window = _setting(section, "maxAgeForFullScore")
        cutoff = _setting(section, "hardCutoffAge")
        lead = f"{str(aggregation).capitalize()} document age: {js_number(selected)} days."
        if age >= cutoff:
            diagnostics["hardCutoffAge"] = cutoff
            return assay.dimension_score(
                raw=0.0,
                max_points=self.max_points,
                explanation=(
                    f"{lead} Documents exceed the {js_number(cutoff)}-day cutoff — freshness "
                    "score is 0."
                ),
                components={"selectedAge": selected},
                adjustments={"hardCutoff": -MAX_POINTS},
                diagnostics=diagnostics,
                warnings=[],
            )
        if age <= window:
            diagnostics["maxAgeForFullScore"] = window
            return assay.dimension_score(
                raw=MAX_POINTS,
                max_points=self.max_points,
                explanation=f"{lead} Within the {js_number(window)}-day full-score window.",
                components={"selectedAge": selected},
                diagnostics=diagnostics,
                warnings=[],
            )
        per_month = _setting(section, "penaltyPerMonth")
        over = age - window
        penalty = over / _DAYS_PER_MONTH * per_month
        exact = MAX_POINTS - penalty
        if exact < 0:  # max(0, exact), letting NaN through as Math.max does
            exact = 0.0
        diagnostics["daysOverWindow"] = js_round(over)
        diagnostics["penaltyPerMonth"] = per_month
        return assay.dimension_score(
            raw=js_round(exact),
            max_points=self.max_points,
            explanation=(
                f"{lead} {js_number(js_round(over))} days beyond the {js_number(window)}-day "
                f"window — penalty: {_fixed_1(penalty)} pts."
            ),
            components={"selectedAge": selected},
            # + 0.0 turns the -0 of a zero penalty into 0
            adjustments={"decayPenalty": -round_to(penalty, 1) + 0.0},
            diagnostics=diagnostics,
            uncapped_raw=exact,
            normalized=js_round(exact / MAX_POINTS * 100),
            warnings=[],
        )

    def _now_ms(self, section: Mapping[str, Any]) -> float:
        now = section.get("now")
        if now is None:
            if self._clock is None:
                raise assay.AssayError(
                    "INVALID_CONFIG",
                    "freshness.now is required: assay never reads the system clock, so pass the "
                    "reference time as an ISO-8601 string or a timezone-aware datetime.",
                    "freshness.now",
                )
            now = self._clock()
        ms = timestamp_ms(now)
        if ms is None or math.isnan(ms):
            raise assay.AssayError(
                "INVALID_CONFIG",
                f"freshness.now must be an ISO-8601 instant or a datetime, not {now!r}.",
                "freshness.now",
            )
        return ms


def _dated(inputs: Mapping[str, Any]) -> list[float]:
    """Timestamps (ms) of the candidates whose ``lastUpdated`` is a date: a datetime or a
    string, NaN for an unparsable one. ``None``, numbers and absent keys are not dates."""
    stamps = [timestamp_ms(c.get("lastUpdated")) for c in _candidates(inputs)]
    return [stamp for stamp in stamps if stamp is not None]


def _candidates(inputs: Mapping[str, Any]) -> Sequence[Mapping[str, Any]]:
    candidates = inputs.get("candidates")
    if type(candidates) is list:
        return candidates
    if not isinstance(candidates, Sequence) or isinstance(candidates, str):
        raise assay.AssayError(
            "MALFORMED_INPUT", "candidates must be a list of candidates.", "candidates"
        )
    return candidates


def _missing_dates(message: str) -> assay.ScoreWarning:
    return assay.ScoreWarning(
        code=MISSING_DATES, severity="warn", message=message, path=_MISSING_DATES_PATH
    )


def _fixed_1(value: float) -> str:
    """JavaScript ``value.toFixed(1)`` as text (``NaN`` stays ``NaN``)."""
    return "NaN" if math.isnan(value) else f"{to_fixed(value, 1):.1f}"
