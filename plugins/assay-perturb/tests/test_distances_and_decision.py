import math

import pytest

from assay_perturb import enum_distance, numeric_distance, string_distance
from assay_perturb.decision import DecisionError, decision_from_output


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (30, 30, 0.0),
        (30, 90, 60 / 90),
        (0, 0.5, 0.5),
        (-2, 2, 1.0),
        (0.2, 0.4, 0.2),
        (100, 0, 1.0),
        (1000, 1001, 1 / 1001),
    ],
)
def test_numeric_distance_is_the_specification_formula(a: float, b: float, expected: float) -> None:
    assert numeric_distance(a, b) == pytest.approx(expected)
    assert numeric_distance(b, a) == pytest.approx(expected)


def test_numeric_distance_rejects_non_numbers() -> None:
    for bad in (True, "3", math.nan):
        with pytest.raises(TypeError):
            numeric_distance(bad, 1)


def test_enum_and_string_distance_are_exact_equality() -> None:
    assert enum_distance("approve", "approve") == 0.0
    assert enum_distance("approve", "Approve") == 1.0
    assert string_distance("a b", "a  b") == 1.0


def test_decision_at_dotted_path_with_array_index() -> None:
    out = '{"answer": {"choices": [{"label": "yes"}], "n": 4}}'
    assert decision_from_output(out, "answer.choices.0.label", "enum") == "yes"
    assert decision_from_output(out, "answer.n", "numeric") == 4


@pytest.mark.parametrize(
    ("out", "field", "kind", "reason", "fragment"),
    [
        ("not json", "a", "enum", "invalid-json", "not JSON"),
        ('{"a": {"b": 1}}', "a.c", "enum", "field-missing", "'c' not found in a"),
        ('{"a": [1, 2]}', "a", "enum", "not-scalar", "is an array"),
        ('{"a": {"b": 1}}', "a", "enum", "not-scalar", "is a nested object"),
        ('{"a": null}', "a", "enum", "not-scalar", "is null"),
        ('{"a": "7"}', "a", "numeric", "wrong-type", "not a finite number"),
        ('{"a": true}', "a", "numeric", "wrong-type", "not a finite number"),
    ],
)
def test_decision_errors(out: str, field: str, kind: str, reason: str, fragment: str) -> None:
    with pytest.raises(DecisionError) as info:
        decision_from_output(out, field, kind)
    assert info.value.reason == reason and fragment in info.value.message
