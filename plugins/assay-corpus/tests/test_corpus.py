"""Hand-computed cases for every rule of the corpus completeness dimension (RULES.md section 8)."""

from __future__ import annotations

import math
from typing import Any

import pytest

import assay
from assay.testing import check_dimension
from assay_corpus import CorpusDimension, coverage_points

DIM = CorpusDimension()
TYPES = ["CC&Rs", "Bylaws", "Rules", "Amendments", "Budget"]


def score(section: dict[str, Any], **inputs: Any) -> assay.DimensionScore:
    return DIM.score({"candidates": [], **inputs}, {"corpus": section})


def test_registers_through_its_entry_point() -> None:
    assert isinstance(assay.build_registry().get("dimension", "corpus"), CorpusDimension)


def test_contract_attributes_and_activation() -> None:
    assert (DIM.name, DIM.tier, DIM.max_points, DIM.default_weight) == ("corpus", 2, 15, 15)
    assert DIM.extension is True and DIM.check_order == 20
    assert DIM.is_active({}, {"corpus": {}}) and not DIM.is_active({}, {})
    check_dimension(
        DIM, {"candidates": [], "corpusTypeCount": 3}, {"corpus": {"expectedTypeCount": 5}}
    )


@pytest.mark.parametrize(
    ("count", "points"),
    # a step table over min(count, expected) / 5: 0, .2, .4, .6, .8, 1, capped at 1
    [(0, 0), (1, 2), (2, 5), (3, 9), (4, 12), (5, 15), (7, 15), (2.5, 5), (-1, 0)],
)
def test_count_mode_step_table(count: float, points: int) -> None:
    result = score({"expectedTypeCount": 5}, corpusTypeCount=count)
    assert result.raw == points
    assert result.breakdown.components == {"base": points}
    assert result.breakdown.diagnostics == {
        "corpusTypeCount": count,
        "expectedTypeCount": 5,
        "ratio": round(min(count, 5) / 5, 2),
        "namedTypes": False,
    }


@pytest.mark.parametrize(
    ("ratio", "points"), [(1, 15), (0.8, 12), (0.79, 9), (0.6, 9), (0.4, 5), (0.2, 2), (0.19, 0)]
)
def test_coverage_points(ratio: float, points: int) -> None:
    assert coverage_points(ratio) == points
    assert coverage_points(math.nan) == 0


def test_ratio_is_rounded_to_two_decimals_in_diagnostics() -> None:
    result = score({"expectedTypeCount": 3}, corpusTypeCount=2)
    assert result.breakdown.diagnostics["ratio"] == 0.67 and result.raw == 9


def test_named_mode_counts_present_types_and_lists_the_missing_ones() -> None:
    result = score({"expectedTypes": TYPES}, presentTypes=["CC&Rs", "Bylaws", "Rules"])
    assert result.raw == 9
    assert result.breakdown.diagnostics == {
        "corpusTypeCount": 3,
        "expectedTypeCount": 5,
        "ratio": 0.6,
        "namedTypes": True,
        "missingTypes": "Amendments, Budget",
    }
    assert result.explanation.endswith("Missing types: Amendments, Budget.")


def test_named_mode_counts_duplicates_and_unexpected_names_and_is_case_sensitive() -> None:
    result = score(
        {"expectedTypes": TYPES[:4]}, presentTypes=["CC&Rs", "CC&Rs", "Insurance", "cc&rs"]
    )
    assert result.raw == 15  # four names for four expected types
    assert result.breakdown.diagnostics["missingTypes"] == "Bylaws, Rules, Amendments"


def test_named_mode_wins_over_a_given_count() -> None:
    result = score(
        {"expectedTypes": TYPES}, corpusTypeCount=5, presentTypes=["CC&Rs"], missingTypes=["x"]
    )
    assert result.raw == 2
    assert result.breakdown.diagnostics["corpusTypeCount"] == 1


def test_present_types_without_expected_types_is_count_mode() -> None:
    result = score({"expectedTypeCount": 4}, corpusTypeCount=1, presentTypes=["a", "b", "c"])
    assert result.breakdown.diagnostics["namedTypes"] is False
    assert result.breakdown.diagnostics["corpusTypeCount"] == 1
    assert result.raw == 2  # 1 / 4 = 0.25 >= 0.2


def test_count_mode_takes_missing_types_from_the_inputs() -> None:
    result = score({"expectedTypes": TYPES[:4]}, corpusTypeCount=2, missingTypes=["Budget"])
    assert result.breakdown.diagnostics["expectedTypeCount"] == 4
    assert result.breakdown.diagnostics["missingTypes"] == "Budget"
    assert (
        "missingTypes"
        not in score(
            {"expectedTypeCount": 4}, corpusTypeCount=3, missingTypes=[]
        ).breakdown.diagnostics
    )


@pytest.mark.parametrize(("count", "raw"), [(5, 12), (1, 0)])
def test_missing_relevant_type_costs_three_points_floored_at_zero(count: int, raw: int) -> None:
    result = score({"expectedTypeCount": 5}, corpusTypeCount=count, missingRelevantType=True)
    assert result.raw == raw == result.breakdown.uncapped_raw
    assert result.breakdown.adjustments == {"missingRelevantTypePenalty": -3}
    assert score({"expectedTypeCount": 5}, corpusTypeCount=5, missingRelevantType=False).raw == 15


def test_missing_count_scores_zero_with_warning_and_input_check() -> None:
    inputs = {"candidates": [], "missingRelevantType": True}
    config = {"corpus": {"expectedTypeCount": 4}}
    result = DIM.score(inputs, config)
    assert result.raw == 0 and result.breakdown.adjustments == {}
    assert result.breakdown.diagnostics == {"effectiveExpectedTypeCount": 4}
    (warning,) = result.warnings or ()
    (check,) = DIM.check_inputs(inputs, config)
    assert warning.code == check.code == "missing-corpus-count"
    assert warning.path == check.path == "corpusTypeCount"
    assert warning.message != check.message


def test_input_check_is_satisfied_by_present_types_alone() -> None:
    # count mode still lacks a count, so the dimension warns, but V does not
    inputs = {"candidates": [], "presentTypes": ["a"]}
    config = {"corpus": {"expectedTypeCount": 4}}
    assert DIM.check_inputs(inputs, config) == []
    assert [w.code for w in DIM.score(inputs, config).warnings or ()] == ["missing-corpus-count"]


def test_empty_expected_types_gives_a_nan_ratio_and_zero_points() -> None:
    result = score({"expectedTypes": []}, presentTypes=["a", "b"])
    assert result.raw == 0 and math.isnan(result.breakdown.diagnostics["ratio"])


def test_nan_count_gives_a_nan_ratio() -> None:
    result = score({"expectedTypeCount": 3}, corpusTypeCount=math.nan)
    assert result.raw == 0 and math.isnan(result.breakdown.diagnostics["ratio"])


@pytest.mark.parametrize(
    ("section", "path", "message"),
    [
        ({}, "corpus", "corpus requires expectedTypeCount or expectedTypes."),
        (
            {"expectedTypeCount": 2, "expectedTypes": ["a"]},
            "corpus.expectedTypeCount",
            "corpus.expectedTypeCount must match corpus.expectedTypes.length.",
        ),
        ({"expectedTypeCount": 0}, "corpus.expectedTypeCount", None),
        ({"expectedTypeCount": 2.5}, "corpus.expectedTypeCount", None),
        ({"expectedTypeCount": True}, "corpus.expectedTypeCount", None),
        ({"expectedTypes": "Bylaws"}, "corpus.expectedTypes", None),
        ({"expectedTypes": [1, 2]}, "corpus.expectedTypes", None),
    ],
)
def test_invalid_config(section: dict[str, Any], path: str, message: str | None) -> None:
    with pytest.raises(assay.AssayError) as raised:
        DIM.validate_config({"corpus": section})
    assert (raised.value.code, raised.value.path) == ("INVALID_CONFIG", path)
    if message:
        assert raised.value.message == message


def test_valid_configs() -> None:
    DIM.validate_config({"corpus": {"expectedTypeCount": 2.0}})
    DIM.validate_config({"corpus": {"expectedTypes": []}})
    DIM.validate_config({"corpus": {"expectedTypeCount": 2, "expectedTypes": ["a", "b"]}})
    DIM.validate_config({})
