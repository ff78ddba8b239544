"""Answer relevance bands and activation (RULES.md section 6)."""

from __future__ import annotations

import pytest

import assay
from assay_grounding import AnswerRelevance

R = AnswerRelevance()


@pytest.mark.parametrize(
    ("value", "points"),
    [(0.95, 15), (0.9, 15), (0.8, 12), (0.6, 8), (0.4, 4), (0.39, 0), (1.2, 15), (-0.3, 0)],
)
def test_bands(value: float, points: int) -> None:
    result = R.score({"answerRelevanceScore": value}, {})
    assert result.raw == points
    assert result.breakdown.components == {"relevanceScore": points}


def test_custom_bands_and_activation() -> None:
    config = {"relevance": {"scoreBands": {"full": 0.95}}}
    assert R.score({"answerRelevanceScore": 0.92}, config).raw == 12
    assert R.is_active({"answerRelevanceScore": 0.1}, {})
    assert not R.is_active({}, {})
    assert R.is_active({}, {"relevance": {"required": True}})


def test_required_but_missing() -> None:
    config = {"relevance": {"required": True}}
    assert [w.code for w in R.check_inputs({}, config)] == ["missing-answer-relevance"]
    result = R.score({}, config)
    assert result.raw == 0
    assert result.breakdown.adjustments == {"missingRequired": -15}


def test_bad_bands_are_config_errors() -> None:
    with pytest.raises(assay.AssayError) as caught:
        R.validate_config({"relevance": {"scoreBands": {"low": 0.95}}})
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", "relevance.scoreBands")


def test_registered_through_entry_point() -> None:
    registry = assay.build_registry()
    assert isinstance(registry.dimension("grounding/relevance"), AnswerRelevance)
