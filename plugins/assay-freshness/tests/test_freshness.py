"""Hand-computed cases for every rule of the document freshness dimension (RULES.md section 9)."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

import assay
from assay.testing import check_dimension
from assay_freshness import DEFAULTS, FreshnessDimension, select_age

NOW = datetime(2026, 6, 1, tzinfo=UTC)
DIM = FreshnessDimension()


def aged(*days: float) -> dict[str, Any]:
    """Inputs whose candidates were last updated ``days`` before NOW."""
    return {
        "candidates": [
            {"retrievalScores": {"a": 0.8}, "combinedScore": 0.8, "lastUpdated": NOW - timedelta(d)}
            for d in days
        ]
    }


def score(inputs: dict[str, Any], **section: Any) -> assay.DimensionScore:
    return DIM.score(inputs, {"freshness": {"now": NOW, **section}})


def test_registers_through_its_entry_point() -> None:
    assert isinstance(assay.build_registry().get("dimension", "freshness"), FreshnessDimension)


def test_contract_attributes_and_activation() -> None:
    assert (DIM.name, DIM.tier, DIM.max_points, DIM.default_weight) == ("freshness", 2, 15, 15)
    assert DIM.extension is True and DIM.check_order == 10
    assert DIM.is_active({}, {"freshness": {}}) and not DIM.is_active({}, {})
    check_dimension(DIM, aged(100), {"freshness": {"now": "2026-06-01T00:00:00Z"}})


def test_defaults() -> None:
    assert dict(DEFAULTS) == {
        "maxAgeForFullScore": 90,
        "penaltyPerMonth": 1.5,
        "hardCutoffAge": 730,
        "aggregation": "median",
    }


@pytest.mark.parametrize("days", [0, 45, 90, -3])
def test_inside_the_window_scores_full_points(days: float) -> None:
    result = score(aged(days))
    assert (result.raw, result.normalized) == (15, 100)
    assert result.breakdown.components == {"selectedAge": days}
    assert result.breakdown.diagnostics["maxAgeForFullScore"] == 90
    assert result.breakdown.adjustments == {}


@pytest.mark.parametrize(
    ("days", "exact", "raw", "normalized", "penalty"),
    [
        # penalty = (age - 90) / 30 * 1.5, continuous; raw rounds the exact score
        (100, 14.5, 15, 97, -0.5),
        (120, 13.5, 14, 90, -1.5),
        (140, 12.5, 13, 83, -2.5),
        (365, 1.25, 1, 8, -13.8),
    ],
)
def test_monthly_penalty_beyond_the_window(
    days: float, exact: float, raw: float, normalized: float, penalty: float
) -> None:
    result = score(aged(days))
    assert (result.raw, result.normalized, result.breakdown.uncapped_raw) == (
        raw,
        normalized,
        exact,
    )
    assert result.breakdown.adjustments == {"decayPenalty": penalty}
    assert result.breakdown.diagnostics["daysOverWindow"] == days - 90
    assert result.breakdown.diagnostics["penaltyPerMonth"] == 1.5


def test_penalty_floors_at_zero_and_a_zero_penalty_is_not_negative_zero() -> None:
    floored = score(aged(700), penaltyPerMonth=4)
    assert floored.raw == 0 and floored.breakdown.uncapped_raw == 0
    assert floored.breakdown.adjustments == {"decayPenalty": -81.3}
    free = score(aged(400), penaltyPerMonth=0)
    assert free.raw == 15
    assert math.copysign(1, free.breakdown.adjustments["decayPenalty"]) == 1


@pytest.mark.parametrize("days", [730, 731, 2000])
def test_hard_cutoff(days: float) -> None:
    result = score(aged(days))
    assert result.raw == 0
    assert result.breakdown.adjustments == {"hardCutoff": -15}
    assert result.breakdown.diagnostics["hardCutoffAge"] == 730


def test_just_under_the_cutoff_decays_instead() -> None:
    result = score(aged(729.99))
    assert result.raw == 0 and "hardCutoff" not in result.breakdown.adjustments


def test_custom_window_and_cutoff() -> None:
    result = score(aged(75), maxAgeForFullScore=60, penaltyPerMonth=2, hardCutoffAge=365)
    assert result.raw == 14  # 15 - 15 / 30 * 2
    assert score(aged(366), maxAgeForFullScore=60, hardCutoffAge=365).raw == 0


@pytest.mark.parametrize(
    ("aggregation", "selected"),
    [("median", 148), ("oldest", 500), ("newest", 10), ("anything-else", 148)],
)
def test_aggregation_selects_median_oldest_or_newest(aggregation: str, selected: float) -> None:
    # ages 10, 96, 200, 500: the median of an even count is the mean of 96 and 200
    result = score(aged(10, 200, 500, 96), aggregation=aggregation)
    assert result.breakdown.components["selectedAge"] == selected
    assert result.breakdown.diagnostics["aggregation"] == aggregation


def test_select_age() -> None:
    assert select_age([1.0, 2.0, 9.0], "median") == 2.0
    assert select_age([1.0, 2.0], "median") == 1.5
    assert select_age([1.0, 2.0], "oldest") == 2.0
    assert select_age([1.0, 2.0], "newest") == 1.0


def test_undated_candidates_are_ignored() -> None:
    inputs = aged(20, 290)
    inputs["candidates"] += [
        {"retrievalScores": {}, "combinedScore": 0.5},
        {"retrievalScores": {}, "combinedScore": 0.5, "lastUpdated": None},
        {"retrievalScores": {}, "combinedScore": 0.5, "lastUpdated": 1_700_000_000_000},
    ]
    result = score(inputs)
    assert result.breakdown.diagnostics["datedCandidateCount"] == 2
    assert result.breakdown.components["selectedAge"] == 155


def test_no_dated_candidate_scores_zero_with_a_warning_and_an_input_check() -> None:
    inputs = {"candidates": [{"retrievalScores": {}, "combinedScore": 0.5}]}
    result = score(inputs)
    assert result.raw == 0
    assert result.breakdown.components == {"selectedAge": 0}
    assert result.breakdown.diagnostics == {"aggregation": "median", "datedCandidateCount": 0}
    (warning,) = result.warnings or ()
    (check,) = DIM.check_inputs(inputs, {"freshness": {"now": NOW}})
    assert warning.code == check.code == "missing-freshness-dates"
    assert warning.path == check.path == "candidates[].lastUpdated"
    assert warning.message != check.message  # both survive de-duplication in meta.warnings
    assert DIM.check_inputs(aged(3), {"freshness": {"now": NOW}}) == []


def test_iso_strings_with_offsets_and_datetimes_agree() -> None:
    as_string = {"candidates": [{"lastUpdated": "2026-02-21T05:30:00.000+05:30"}]}
    as_datetime = {
        "candidates": [
            {
                "lastUpdated": datetime(
                    2026, 2, 21, 5, 30, tzinfo=timezone(timedelta(hours=5, minutes=30))
                )
            }
        ]
    }
    config = {"freshness": {"now": "2026-06-01T00:00:00Z"}}
    assert DIM.score(as_string, config) == DIM.score(as_datetime, config)
    assert DIM.score(as_string, config).breakdown.components == {"selectedAge": 100}


def test_an_unparsable_date_propagates_nan() -> None:
    result = score({"candidates": [{"lastUpdated": "not a date"}]})
    assert math.isnan(result.raw) and math.isnan(result.normalized)
    assert math.isnan(result.breakdown.adjustments["decayPenalty"])


def test_injected_clock_is_used_only_without_now() -> None:
    clocked = FreshnessDimension(clock=lambda: NOW + timedelta(days=100))
    clocked.validate_config({"freshness": {}})
    assert clocked.score(aged(0), {"freshness": {}}).breakdown.components == {"selectedAge": 100}
    assert clocked.score(aged(0), {"freshness": {"now": NOW}}).breakdown.components == {
        "selectedAge": 0
    }


def test_without_now_or_clock_the_config_is_rejected() -> None:
    with pytest.raises(assay.AssayError) as raised:
        DIM.validate_config({"freshness": {}})
    assert (raised.value.code, raised.value.path) == ("INVALID_CONFIG", "freshness.now")


@pytest.mark.parametrize(
    ("section", "path"),
    [
        ({"maxAgeForFullScore": 100, "hardCutoffAge": 100}, "freshness.hardCutoffAge"),
        ({"hardCutoffAge": 90}, "freshness.hardCutoffAge"),
        ({"penaltyPerMonth": -1}, "freshness.penaltyPerMonth"),
        ({"penaltyPerMonth": "1"}, "freshness.penaltyPerMonth"),
        ({"now": "yesterday"}, "freshness.now"),
        ({"now": 1_780_000_000_000}, "freshness.now"),
    ],
)
def test_invalid_config(section: dict[str, Any], path: str) -> None:
    with pytest.raises(assay.AssayError) as raised:
        DIM.validate_config({"freshness": {"now": NOW, **section}})
    assert (raised.value.code, raised.value.path) == ("INVALID_CONFIG", path)


def test_nan_window_passes_validation_as_in_the_reference() -> None:
    DIM.validate_config({"freshness": {"now": NOW, "maxAgeForFullScore": math.nan}})
