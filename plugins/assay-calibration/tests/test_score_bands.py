"""analyze_calibration beyond the conformance vectors: typed inputs, config checks, policy."""

from __future__ import annotations

import pytest

import assay
import assay_scorecard
from assay_calibration.score_bands import (
    CalibrationConfig,
    CalibrationSample,
    ScoreBand,
    analyze_calibration,
)

HISTORY = [
    {"total": 92, "recommendedAction": "answer", "outcome": "correct"},
    {"total": 88, "recommendedAction": "answer", "outcome": "accepted"},
    {"total": 76, "recommendedAction": "review", "outcome": "escalated"},
    {"total": 68, "recommendedAction": "review", "outcome": "correct"},
    {"total": 52, "recommendedAction": "review", "outcome": "rejected"},
    {"total": 31, "recommendedAction": "abstain", "outcome": "incorrect"},
]


def test_typed_samples_and_config_give_the_same_report_as_wire_dicts() -> None:
    typed = [CalibrationSample(s["total"], s["outcome"], s["recommendedAction"]) for s in HISTORY]
    config = CalibrationConfig(
        bands=(ScoreBand(50, 101), ScoreBand(0, 50)), target_recall_for_abstain=0.5
    )
    wire = {
        "bands": [{"min": 50, "max": 101}, {"min": 0, "max": 50}],
        "targetRecallForAbstain": 0.5,
    }
    assert (
        analyze_calibration(typed, config).to_wire() == analyze_calibration(HISTORY, wire).to_wire()
    )


def test_hand_computed_report() -> None:
    report = analyze_calibration(HISTORY, {"targetRecallForAbstain": 0.6, "minSamplesPerBand": 2})
    # positives: correct / accepted -> 92, 88, 68
    assert (report.sample_count, report.positive_count, report.positive_rate) == (6, 3, 0.5)
    top = report.bands[-1]
    assert (top.min, top.count, top.positive_rate, top.average_score) == (85, 2, 1.0, 90.0)
    # negatives 76, 52, 31: below 40 -> 1/3, below 65 -> 2/3 >= 0.6
    assert report.recommended_policy.to_wire() == {
        "answerAt": 85,
        "reviewAt": 65,
        "abstainBelow": 65,
    }
    assert [w.code for w in report.warnings] == ["low-calibration-sample-size"]
    assert report.action_summary.review.count == 3


def test_positive_outcomes_are_configurable() -> None:
    report = analyze_calibration(
        HISTORY, {"positiveOutcomes": ["correct", "accepted", "escalated"]}
    )
    assert report.positive_count == 4
    assert report.bands[2].positive_rate == 1.0  # 68 correct, 76 escalated


def test_recommended_policy_plugs_into_the_scoring_config() -> None:
    policy = analyze_calibration(HISTORY).recommended_policy.to_action_policy()
    assert policy == assay_scorecard.ActionPolicyConfig(
        answer_at=85, review_at=40, abstain_below=40
    )


def test_config_is_reported_with_sorted_bands() -> None:
    report = analyze_calibration(
        HISTORY, {"bands": [{"min": 50, "max": 101}, {"min": 0, "max": 50}]}
    )
    assert [band.min for band in report.config.bands] == [0, 50]


@pytest.mark.parametrize(
    ("config", "path"),
    [
        ({"targetPrecision": 0.9}, "targetPrecision"),
        ({"minSamplesPerBand": -1}, "minSamplesPerBand"),
        ({"targetPrecisionForAnswer": "high"}, "targetPrecisionForAnswer"),
        ({"positiveOutcomes": "correct"}, "positiveOutcomes"),
        ({"positiveOutcomes": ["correct", 1]}, "positiveOutcomes[1]"),
        ({"bands": [{"min": 0}]}, "bands[0]"),
        ({"bands": [{"min": 0, "max": 50}, {"min": 49, "max": 60}]}, "bands"),
        ([1, 2], "config"),
    ],
)
def test_bad_config_raises_invalid_config(config: object, path: str) -> None:
    with pytest.raises(assay.AssayError) as caught:
        analyze_calibration(HISTORY, config)  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", path)


def test_typed_config_is_checked_too() -> None:
    with pytest.raises(assay.AssayError) as caught:
        analyze_calibration(HISTORY, CalibrationConfig(bands=(ScoreBand(10, 5),)))
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", "bands[0]")


@pytest.mark.parametrize(
    ("sample", "code", "path"),
    [
        ("not a record", "MALFORMED_INPUT", "samples[1]"),
        ({"total": 50}, "MALFORMED_INPUT", "samples[1].outcome"),
        ({"total": True, "outcome": "correct"}, "INVALID_INPUT", "samples[1].total"),
        ({"total": "50", "outcome": "correct"}, "INVALID_INPUT", "samples[1].total"),
    ],
)
def test_bad_samples_raise_with_their_index(sample: object, code: str, path: str) -> None:
    with pytest.raises(assay.AssayError) as caught:
        analyze_calibration([HISTORY[0], sample])
    assert (caught.value.code, caught.value.path) == (code, path)
