"""Reply parsing: JSON or bare numbers, clamped; anything else is unusable (None)."""

from __future__ import annotations

import pytest

from assay_judges import parse_claims, parse_score, parse_verdict, parse_verdicts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"score": 0.8}', 0.8),
        ('Sure! {"rating": 0.25} hope that helps', 0.25),
        ('```json\n{"score": 1}\n```', 1.0),
        ("0.7", 0.7),
        (" 0.7. ", 0.7),
        ("1.7", 1.0),
        ("-3", 0.0),
        ('{"score": 4}', 1.0),
        ("0.3", 0.3),
        ("high", None),
        ('{"score": "high"}', None),
        ('{"other": 1}', None),
        ('{"score": true}', None),
        ("", None),
        ("NaN", None),
    ],
)
def test_parse_score(text, expected):
    assert parse_score(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"verdict": 1}', True),
        ('{"verdict": 0}', False),
        ("yes", True),
        ("No.", False),
        ("true", True),
        ('{"relevant": "yes"}', True),
        ("maybe", None),
        ('{"verdict": 0.5}', None),
    ],
)
def test_parse_verdict(text, expected):
    assert parse_verdict(text) is expected


def test_parse_verdicts_needs_the_exact_count():
    text = '[{"claim": 1, "supported": true}, {"claim": 2, "supported": false}]'
    assert parse_verdicts(text, 2) == [True, False]
    assert parse_verdicts(text, 3) is None
    assert parse_verdicts('{"verdicts": [1, 0, "yes"]}', 3) == [True, False, True]
    assert parse_verdicts("[1, 2]", 2) is None
    assert parse_verdicts("one, zero", 2) is None


def test_parse_claims():
    assert parse_claims('["A is B.", " ", "C has 3 D."]') == ["A is B.", "C has 3 D."]
    assert parse_claims('{"claims": ["x"]}') == ["x"]
    assert parse_claims("[1, 2]") is None
    assert parse_claims("A is B. C is D.") is None
