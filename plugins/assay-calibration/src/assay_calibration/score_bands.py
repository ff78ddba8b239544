"""Score-band calibration: how often answers in each score band turned out right.

Implements the specification's ``analyzeCalibration``
with a snake_case API. It reads historical records ``{total, outcome, recommendedAction?}`` — the
0–100 total a scorecard gave an answer, what happened to the answer, and the action the scorecard
recommended — and reports:

* per score band (default ``[0,40) [40,65) [65,85) [85,101)``; a total belongs to the band with
  ``min <= total < max``, totals in a gap between bands count in none): count, positive count,
  positive rate and average total (all 0 for an empty band);
* per recommended action (answer / review / abstain), over the records that carry one: count
  and positive rate;
* a recommended action policy:

  - ``answer_at``: going from the highest band down, the ``min`` of the first band with
    records and a positive rate >= ``target_precision_for_answer`` (default 0.85); 85 when
    no band qualifies;
  - ``abstain_below`` = ``review_at``: 40 when ``target_recall_for_abstain`` is not set or no
    record is negative; otherwise, going through the bands with ``max <= answer_at`` in
    ascending order, the ``max`` of the first band for which the share of all negative records
    with a total below that ``max`` reaches the target; 40 when none does;

* a ``low-calibration-sample-size`` warning (path ``bands``) when ``min_samples_per_band > 0``
  and some band holds fewer records.

Outcomes are ``correct``, ``incorrect``, ``accepted``, ``rejected`` and ``escalated``; the ones
listed in ``positive_outcomes`` (default ``correct`` and ``accepted``) are positive, every other
value — including unknown ones — is negative, as in the reference.

The analysis is offline: it changes no scorer and no threshold by itself.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

import assay
import assay_scorecard

__all__ = [
    "ACTIONS",
    "DEFAULT_BANDS",
    "OUTCOMES",
    "ActionStats",
    "ActionSummary",
    "BandStats",
    "CalibrationConfig",
    "CalibrationReport",
    "CalibrationSample",
    "RecommendedPolicy",
    "ScoreBand",
    "analyze_calibration",
    "check_targets",
    "outcome_case_mismatches",
    "parse_samples",
]

OUTCOMES = ("correct", "incorrect", "accepted", "rejected", "escalated")
"""The outcomes the specification names; others are accepted and count as negative."""
ACTIONS = ("answer", "review", "abstain")
DEFAULT_POSITIVE_OUTCOMES = ("correct", "accepted")
DEFAULT_ANSWER_AT = 85.0
DEFAULT_ABSTAIN_BELOW = 40.0
LOW_SAMPLE_WARNING = "low-calibration-sample-size"


def _number(value: float) -> float | int:
    """Integral floats as ints, so JSON shows ``85`` rather than ``85.0`` (as the reference
    does)."""
    return int(value) if float(value).is_integer() else value


@attrs.frozen
class ScoreBand:
    """A half-open range of totals ``min <= total < max``.

    Attributes:
        min: inclusive lower edge, ``0 <= min``.
        max: exclusive upper edge, ``min < max <= 101`` (101 lets a total of 100 in).
    """

    min: float
    max: float


DEFAULT_BANDS = (ScoreBand(0, 40), ScoreBand(40, 65), ScoreBand(65, 85), ScoreBand(85, 101))


@attrs.frozen
class CalibrationSample:
    """One historical record.

    Attributes:
        total: the scorecard total, a finite number in ``[0, 100]``.
        outcome: what happened: ``correct`` / ``incorrect`` / ``accepted`` / ``rejected`` /
            ``escalated`` (or any other string, counted as negative unless configured positive).
        recommended_action: ``answer`` / ``review`` / ``abstain`` or ``None`` when not recorded.
    """

    total: float
    outcome: str
    recommended_action: str | None = None


@attrs.frozen
class CalibrationConfig:
    """Options of :func:`analyze_calibration` (wire keys in camelCase).

    Attributes:
        bands: score bands (any order; sorted by ``min``); default :data:`DEFAULT_BANDS`.
        positive_outcomes: outcomes counted as positive; default ``("correct", "accepted")``.
        min_samples_per_band: warn when a band holds fewer records (0 disables the warning).
        target_precision_for_answer: positive rate a band needs to set ``answer_at``.
        target_recall_for_abstain: share of negatives ``abstain_below`` must sit above;
            ``None`` keeps the default 40.
    """

    bands: tuple[ScoreBand, ...] = DEFAULT_BANDS
    positive_outcomes: tuple[str, ...] = DEFAULT_POSITIVE_OUTCOMES
    min_samples_per_band: float = 0
    target_precision_for_answer: float = 0.85
    target_recall_for_abstain: float | None = None

    @classmethod
    def from_wire(cls, data: Mapping[str, Any] | None) -> CalibrationConfig:
        """Parse the ``CalibrationConfig`` JSON object (the JSON input format).

        :raises AssayError: ``INVALID_CONFIG`` with the key's path for an unknown key, a value of
            the wrong type, a band outside ``0 <= min < max <= 101`` (path ``bands[i]``, in the
            order given) or overlapping bands (path ``bands``).
        """
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise assay.AssayError("INVALID_CONFIG", "must be an object", "config")
        unknown = sorted(set(data) - set(_CONFIG_KEYS))
        if unknown:
            raise assay.AssayError(
                "INVALID_CONFIG",
                f"unknown key(s) {', '.join(unknown)}; known: {', '.join(_CONFIG_KEYS)}",
                unknown[0],
            )
        values: dict[str, Any] = {}
        if "bands" in data:
            values["bands"] = _parse_bands(data["bands"])
        if "positiveOutcomes" in data:
            values["positive_outcomes"] = _parse_outcomes(data["positiveOutcomes"])
        if "minSamplesPerBand" in data:
            values["min_samples_per_band"] = _config_number(
                data["minSamplesPerBand"], "minSamplesPerBand", non_negative=True
            )
        if "targetPrecisionForAnswer" in data:
            values["target_precision_for_answer"] = _config_number(
                data["targetPrecisionForAnswer"], "targetPrecisionForAnswer"
            )
        if data.get("targetRecallForAbstain") is not None:
            values["target_recall_for_abstain"] = _config_number(
                data["targetRecallForAbstain"], "targetRecallForAbstain"
            )
        return cls(**values)

    def validated(self) -> CalibrationConfig:
        """This config after the checks of :meth:`from_wire`, with bands sorted by ``min``.

        :raises AssayError: ``INVALID_CONFIG`` as in :meth:`from_wire`.
        """
        return CalibrationConfig.from_wire(self.to_wire())

    def to_wire(self) -> dict[str, Any]:
        """The camelCase JSON object (``targetRecallForAbstain`` omitted when ``None``)."""
        data: dict[str, Any] = {
            "bands": [{"min": _number(b.min), "max": _number(b.max)} for b in self.bands],
            "positiveOutcomes": list(self.positive_outcomes),
            "minSamplesPerBand": _number(self.min_samples_per_band),
            "targetPrecisionForAnswer": self.target_precision_for_answer,
        }
        if self.target_recall_for_abstain is not None:
            data["targetRecallForAbstain"] = self.target_recall_for_abstain
        return data


_CONFIG_KEYS = (
    "bands",
    "positiveOutcomes",
    "minSamplesPerBand",
    "targetPrecisionForAnswer",
    "targetRecallForAbstain",
)


def _is_number(value: Any) -> bool:
    """A finite int or float, not a bool (plain types checked first: this runs per record)."""
    kind = type(value)
    if kind is float:
        return math.isfinite(value)
    if kind is int:
        return bool(abs(value) <= 2**1023)  # beyond float range it is not a usable number
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int subclass beyond float range
        return False


def _config_number(value: Any, path: str, *, non_negative: bool = False) -> float:
    if not _is_number(value) or (non_negative and value < 0):
        wanted = "a finite number >= 0" if non_negative else "a finite number"
        raise assay.AssayError("INVALID_CONFIG", f"must be {wanted}, got {value!r}", path)
    return float(value)


TARGET_FIELDS = ("targetPrecisionForAnswer", "targetRecallForAbstain")


def check_targets(config: Mapping[str, Any], names: Mapping[str, str] | None = None) -> None:
    """Refuse a target outside [0, 1]: both are shares of records, so 2 or -1 is a typo.

    :func:`analyze_calibration` takes any finite number, as transparent-confidence 0.3 does (a
    target above 1 is unreachable: no band qualifies and the defaults apply); ``assay calibrate``
    calls this first. ``names`` maps a field to the name the user typed (an option).

    :raises AssayError: ``INVALID_CONFIG`` naming the field (or its option) and the range.
    """
    for field in TARGET_FIELDS:
        value = config.get(field)
        if value is not None and _is_number(value) and not 0 <= value <= 1:
            raise assay.AssayError(
                "INVALID_CONFIG",
                f"must be a number from 0 to 1 (a share of records), got {value:g}",
                (names or {}).get(field, field),
            )


def outcome_case_mismatches(
    outcomes: Iterable[str], positive_outcomes: Iterable[str]
) -> dict[str, str]:
    """Outcomes that differ from a positive or known outcome only in case (``"Correct"``), each
    with the outcome it likely meant. Outcomes are compared exactly, so these count as negative.
    """
    known = (*OUTCOMES, *positive_outcomes)
    meant = {o.lower(): o for o in known}
    return {
        outcome: meant[outcome.lower()]
        for outcome in sorted(set(outcomes))
        if outcome not in known and outcome.lower() in meant
    }


def _parse_outcomes(value: Any) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise assay.AssayError("INVALID_CONFIG", "must be a list of strings", "positiveOutcomes")
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise assay.AssayError(
                "INVALID_CONFIG", f"must be a string, got {item!r}", f"positiveOutcomes[{i}]"
            )
    return tuple(value)


def _parse_bands(value: Any) -> tuple[ScoreBand, ...]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise assay.AssayError("INVALID_CONFIG", "must be a list of {min, max}", "bands")
    bands = []
    for i, item in enumerate(value):
        low: Any = item.get("min") if isinstance(item, Mapping) else None
        high: Any = item.get("max") if isinstance(item, Mapping) else None
        if not (_is_number(low) and _is_number(high) and 0 <= low < high <= 101):
            raise assay.AssayError(
                "INVALID_CONFIG", "must satisfy 0 <= min < max <= 101", f"bands[{i}]"
            )
        bands.append(ScoreBand(low, high))
    bands.sort(key=lambda band: band.min)
    for previous, band in itertools.pairwise(bands):
        if band.min < previous.max:
            raise assay.AssayError(
                "INVALID_CONFIG",
                f"bands cannot overlap: [{previous.min}, {previous.max}) and "
                f"[{band.min}, {band.max})",
                "bands",
            )
    return tuple(bands)


# ----------------------------------------------------------------------------------------- output


@attrs.frozen
class BandStats:
    """What happened to the records in one band.

    Attributes:
        min: the band's inclusive lower edge.
        max: the band's exclusive upper edge.
        count: records with ``min <= total < max``.
        positive_count: of those, records with a positive outcome.
        positive_rate: ``positive_count / count`` (0 when empty).
        average_score: mean total of the records in the band (0 when empty).
    """

    min: float
    max: float
    count: int
    positive_count: int
    positive_rate: float
    average_score: float

    def to_wire(self) -> dict[str, Any]:
        """``{min, max, count, positiveCount, positiveRate, averageScore}``."""
        return {
            "min": _number(self.min),
            "max": _number(self.max),
            "count": self.count,
            "positiveCount": self.positive_count,
            "positiveRate": _number(self.positive_rate),
            "averageScore": _number(self.average_score),
        }


@attrs.frozen
class ActionStats:
    """Records that carried one recommended action.

    Attributes:
        count: how many.
        positive_rate: share with a positive outcome (0 when none).
    """

    count: int
    positive_rate: float

    def to_wire(self) -> dict[str, Any]:
        """``{count, positiveRate}``."""
        return {"count": self.count, "positiveRate": _number(self.positive_rate)}


@attrs.frozen
class ActionSummary:
    """Outcomes grouped by the action the scorecard recommended.

    Attributes:
        answer: records recommended ``answer``.
        review: records recommended ``review``.
        abstain: records recommended ``abstain``.
    """

    answer: ActionStats
    review: ActionStats
    abstain: ActionStats

    def to_wire(self) -> dict[str, Any]:
        """``{answer, review, abstain}``, each ``{count, positiveRate}``."""
        return {action: getattr(self, action).to_wire() for action in ACTIONS}


@attrs.frozen
class RecommendedPolicy:
    """Thresholds on the 0–100 total suggested by the history.

    Attributes:
        answer_at: answer when ``total >= answer_at``.
        review_at: review when ``review_at <= total < answer_at`` (equal to ``abstain_below``).
        abstain_below: abstain when ``total < abstain_below``.
    """

    answer_at: float
    review_at: float
    abstain_below: float

    def to_wire(self) -> dict[str, Any]:
        """``{answerAt, reviewAt, abstainBelow}``."""
        return {
            "answerAt": _number(self.answer_at),
            "reviewAt": _number(self.review_at),
            "abstainBelow": _number(self.abstain_below),
        }

    def to_action_policy(self) -> assay_scorecard.ActionPolicyConfig:
        """The thresholds as the core's :class:`assay_scorecard.ActionPolicyConfig` (other fields
        unset), ready for ``ScoringConfig(action_policy=...)``."""
        return assay_scorecard.ActionPolicyConfig(
            answer_at=self.answer_at, review_at=self.review_at, abstain_below=self.abstain_below
        )


@attrs.frozen
class CalibrationReport:
    """The result of :func:`analyze_calibration`.

    Attributes:
        sample_count: number of records.
        positive_count: records with a positive outcome.
        positive_rate: ``positive_count / sample_count``.
        bands: per-band statistics, sorted by ``min``.
        action_summary: outcomes per recommended action.
        recommended_policy: suggested thresholds.
        warnings: ``low-calibration-sample-size`` when a band is below ``min_samples_per_band``.
        config: the configuration used (bands sorted).
    """

    sample_count: int
    positive_count: int
    positive_rate: float
    bands: tuple[BandStats, ...]
    action_summary: ActionSummary
    recommended_policy: RecommendedPolicy
    warnings: tuple[assay.ScoreWarning, ...]
    config: CalibrationConfig

    def to_wire(self) -> dict[str, Any]:
        """The specification's ``CalibrationReport`` JSON shape (camelCase, reference key order)."""
        return {
            "sampleCount": self.sample_count,
            "positiveCount": self.positive_count,
            "positiveRate": _number(self.positive_rate),
            "bands": [band.to_wire() for band in self.bands],
            "actionSummary": self.action_summary.to_wire(),
            "recommendedPolicy": self.recommended_policy.to_wire(),
            "warnings": [
                {"code": w.code, "severity": w.severity, "message": w.message, "path": w.path}
                for w in self.warnings
            ],
        }


# ----------------------------------------------------------------------------------------- input


def _parse_sample(item: Any, i: int) -> CalibrationSample:
    total: Any
    outcome: Any
    action: Any
    if isinstance(item, CalibrationSample):
        total, outcome, action = item.total, item.outcome, item.recommended_action
    elif isinstance(item, dict) or isinstance(item, Mapping):  # noqa: SIM101 - dict is fast
        total, outcome = item.get("total"), item.get("outcome")
        action = item.get("recommendedAction", item.get("recommended_action"))
    else:
        raise assay.AssayError("MALFORMED_INPUT", "must be an object", f"samples[{i}]")
    if not _is_number(total) or not 0 <= total <= 100:
        raise assay.AssayError(
            "INVALID_INPUT",
            f"must be a finite number from 0 to 100, got {total!r}",
            f"samples[{i}].total",
        )
    if not isinstance(outcome, str):
        raise assay.AssayError(
            "MALFORMED_INPUT", f"must be a string, got {outcome!r}", f"samples[{i}].outcome"
        )
    if action is not None and action not in ACTIONS:
        raise assay.AssayError(
            "MALFORMED_INPUT",
            f"must be one of {', '.join(ACTIONS)}, got {action!r}",
            f"samples[{i}].recommendedAction",
        )
    return CalibrationSample(total, outcome, action)


def parse_samples(samples: Iterable[Any]) -> list[CalibrationSample]:
    """Check records (wire dicts with camelCase keys, or :class:`CalibrationSample`).

    :raises AssayError: ``INVALID_INPUT`` (path ``samples``) when there are none, or (path
        ``samples[i].total``) for a total that is not a finite number in ``[0, 100]``;
        ``MALFORMED_INPUT`` for a record that is not an object (``samples[i]``), an outcome
        that is not a string (``samples[i].outcome``) or a
        recommended action other than answer / review / abstain
        (``samples[i].recommendedAction``).
    """
    if isinstance(samples, str | bytes | Mapping) or not isinstance(samples, Iterable):
        raise assay.AssayError(
            "MALFORMED_INPUT",
            f"expected an array of records, got {type(samples).__name__}",
            "samples",
        )
    parsed = [_parse_sample(item, i) for i, item in enumerate(samples)]
    if not parsed:
        raise assay.AssayError("INVALID_INPUT", "needs at least one sample", "samples")
    return parsed


# ----------------------------------------------------------------------------------------- analysis


def _band_stats(
    band: ScoreBand, members: list[CalibrationSample], positives: set[str]
) -> BandStats:
    count = len(members)
    positive = sum(1 for s in members if s.outcome in positives)
    total = 0.0
    for sample in members:
        total += sample.total
    return BandStats(
        band.min,
        band.max,
        count,
        positive,
        positive / count if count else 0.0,
        total / count if count else 0.0,
    )


def _answer_at(bands: Sequence[BandStats], target: float) -> float:
    for band in reversed(bands):
        if band.count > 0 and band.positive_rate >= target:
            return band.min
    return DEFAULT_ANSWER_AT


def _abstain_below(
    bands: Sequence[BandStats],
    samples: Sequence[CalibrationSample],
    positives: set[str],
    answer_at: float,
    target: float | None,
) -> float:
    negatives = [s.total for s in samples if s.outcome not in positives]
    if target is None or not negatives:
        return DEFAULT_ABSTAIN_BELOW
    for band in bands:
        if band.max > answer_at:
            continue
        caught = sum(1 for total in negatives if total < band.max)
        if caught / len(negatives) >= target:
            return band.max
    return DEFAULT_ABSTAIN_BELOW


def analyze_calibration(
    samples: Iterable[Mapping[str, Any] | CalibrationSample],
    config: CalibrationConfig | Mapping[str, Any] | None = None,
) -> CalibrationReport:
    """Band statistics, action summary and recommended policy for historical records.

    :param samples: records ``{total, outcome, recommendedAction?}`` (wire dicts) or
        :class:`CalibrationSample` objects; at least one.
    :param config: a :class:`CalibrationConfig`, the camelCase config object of the JSON input
        format, or ``None`` for the defaults.
    :return: a :class:`CalibrationReport`; ``report.to_wire()`` is the specification's JSON shape.
    :raises AssayError: ``INVALID_CONFIG`` for the config (checked first), then
        ``INVALID_INPUT`` / ``MALFORMED_INPUT`` for the records (see :func:`parse_samples`).
    """
    if isinstance(config, CalibrationConfig):
        settings = config.validated()
    else:
        settings = CalibrationConfig.from_wire(config)
    records = parse_samples(samples)
    positives = set(settings.positive_outcomes)

    members: list[list[CalibrationSample]] = [[] for _ in settings.bands]
    for sample in records:
        for j, band in enumerate(settings.bands):
            if band.min <= sample.total < band.max:
                members[j].append(sample)
                break
    bands = tuple(
        _band_stats(b, m, positives) for b, m in zip(settings.bands, members, strict=True)
    )

    by_action = {action: [0, 0] for action in ACTIONS}
    for sample in records:
        if sample.recommended_action is not None:
            tally = by_action[sample.recommended_action]
            tally[0] += 1
            tally[1] += sample.outcome in positives
    summary = ActionSummary(
        *(ActionStats(n, hits / n if n else 0.0) for n, hits in by_action.values())
    )

    answer_at = _answer_at(bands, settings.target_precision_for_answer)
    abstain_below = _abstain_below(
        bands, records, positives, answer_at, settings.target_recall_for_abstain
    )
    warnings: tuple[assay.ScoreWarning, ...] = ()
    floor = settings.min_samples_per_band
    if floor > 0 and any(band.count < floor for band in bands):
        warnings = (
            assay.ScoreWarning(
                LOW_SAMPLE_WARNING,
                "warn",
                f"At least one calibration band has fewer than {_number(floor)} sample(s).",
                "bands",
            ),
        )
    positive_count = sum(1 for s in records if s.outcome in positives)
    return CalibrationReport(
        sample_count=len(records),
        positive_count=positive_count,
        positive_rate=positive_count / len(records),
        bands=bands,
        action_summary=summary,
        recommended_policy=RecommendedPolicy(answer_at, abstain_below, abstain_below),
        warnings=warnings,
        config=settings,
    )
