"""assay.jsmath: JavaScript's number behaviour, including the edges where Python's differs."""

from __future__ import annotations

import math

import pytest

from assay.jsmath import js_number, js_round, js_to_number, round_to, to_fixed


@pytest.mark.parametrize(
    ("value", "expected"),
    [(2.5, 3.0), (-2.5, -2.0), (0.49999999999999994, 0.0), (-0.5, -0.0), (7.0, 7.0)],
)
def test_js_round_halves_go_up(value: float, expected: float) -> None:
    assert js_round(value) == expected


def test_js_round_passes_non_finite_through() -> None:
    assert math.isnan(js_round(math.nan)) and js_round(math.inf) == math.inf


@pytest.mark.parametrize(
    ("value", "digits", "expected"),
    [
        (0.03125, 4, 0.0313),
        (1.005, 2, 1.0),
        (2.5, 0, 3.0),
        (-0.03125, 4, -0.0313),
        (0.1234, 3, 0.123),
    ],
)
def test_to_fixed_rounds_the_exact_binary_value_half_away_from_zero(
    value: float, digits: int, expected: float
) -> None:
    assert to_fixed(value, digits) == expected


@pytest.mark.parametrize("value", [1e21, 1e305, -1e300, 1.7976931348623157e308])
def test_to_fixed_leaves_huge_numbers_as_they_are(value: float) -> None:
    """toFixed writes numbers of 1e21 and beyond as String(x) (Python's floor would overflow)."""
    assert to_fixed(value, 4) == value


def test_round_to_and_js_number() -> None:
    assert round_to(0.12345, 4) == 0.1235
    assert math.isinf(round_to(math.inf, 4))
    assert [js_number(v) for v in (70.0, 65.5, 3, math.nan, -math.inf, True)] == [
        "70",
        "65.5",
        "3",
        "NaN",
        "-Infinity",
        "true",
    ]


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, 0.0), (False, 0.0), (True, 1.0), ("  ", 0.0), (" 12 ", 12.0), (4, 4.0)],
)
def test_js_to_number(value: object, expected: float) -> None:
    assert js_to_number(value) == expected


def test_js_to_number_of_text_that_is_no_number_is_nan() -> None:
    assert math.isnan(js_to_number("abc")) and math.isnan(js_to_number([1]))
