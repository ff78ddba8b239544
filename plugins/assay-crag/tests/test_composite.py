"""The weighted composite and the specification's warnings."""

from __future__ import annotations

import pytest

import assay
from assay_crag import AssembledContext, QualityConfig, QualityInput, QualityScorer, RankedChunk
from assay_crag.composite import DEFAULT_WEIGHTS, score_context_quality
from assay_crag.dimensions import context_dimensions


def test_overall_is_the_specification_weighted_sum(france: QualityInput) -> None:
    result = QualityScorer().score(france)
    subs = {d.name: d.score_input(france).raw for d in context_dimensions()}
    expected = (
        subs["retrievalConfidence"] * 0.3
        + subs["contextSufficiency"] * 0.3
        + subs["diversityScore"] * 0.15
        + subs["estimatedFaithfulness"] * 0.25
    )
    assert result.overall == pytest.approx(expected, abs=1e-15)
    assert result.retrieval_confidence == subs["retrievalConfidence"]
    assert result.to_wire()["overall"] == result.overall
    assert dict(result.weights) == pytest.approx(DEFAULT_WEIGHTS)


def test_custom_weights_are_normalised(france: QualityInput) -> None:
    result = QualityScorer(
        QualityConfig(
            weights={
                "retrievalConfidence": 1.0,
                "contextSufficiency": 0,
                "diversityScore": 0,
                "estimatedFaithfulness": 0,
            }
        )
    )
    assert result.score(france).overall == pytest.approx(
        QualityScorer().score(france).retrieval_confidence
    )
    doubled = QualityConfig(weights={k: 2 * v for k, v in DEFAULT_WEIGHTS.items()})
    assert score_context_quality(france, doubled).overall == pytest.approx(
        score_context_quality(france).overall, abs=1e-15
    )


@pytest.mark.parametrize(
    ("weights", "path"),
    [
        ({"bogus": 1.0}, "weights.bogus"),
        ({"diversityScore": -1}, "weights.diversityScore"),
        ({"diversityScore": float("nan")}, "weights.diversityScore"),
        ({k: 0 for k in DEFAULT_WEIGHTS}, "weights"),
    ],
)
def test_bad_weights_are_refused(weights: dict[str, float], path: str) -> None:
    with pytest.raises(assay.AssayError) as caught:
        QualityConfig(weights=weights)
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", path)


def _empty(query: str = "capital") -> QualityInput:
    return QualityInput(query, [], AssembledContext("", 0))


def test_very_low_warning() -> None:
    result = QualityScorer().score(_empty())
    assert result.overall == 0.0
    assert result.warnings[0].code == "very-low-context-quality"
    assert result.warning and result.warning.startswith("Very low retrieval confidence")


def test_warning_thresholds_are_strict_and_configurable(france: QualityInput) -> None:
    overall = QualityScorer().score(france).overall
    at = QualityScorer(QualityConfig(very_low_below=overall, moderate_below=overall)).score(france)
    assert at.warning is None  # overall is not below either threshold
    above = QualityScorer(QualityConfig(moderate_below=min(1.0, overall + 1e-9))).score(france)
    assert above.warnings[0].code == "moderate-context-quality"


def test_low_diversity_warning_only_when_quality_is_otherwise_fine() -> None:
    text = "Paris is the capital of France since 987. " * 20
    chunks = [RankedChunk(text, "one-doc", 0.95) for _ in range(6)]
    qi = QualityInput("capital of France", chunks, AssembledContext(text, 400))
    result = QualityScorer().score(qi)
    assert result.overall >= 0.5 and result.diversity_score < 0.2
    assert [w.code for w in result.warnings] == ["low-source-diversity"]
    assert "Low source diversity" in result.to_wire()["warning"]


def test_dimension_warnings_follow_the_composite_warning() -> None:
    qi = QualityInput("capital", [RankedChunk("x", "d", 7.0)], AssembledContext("", 0))
    codes = [w.code for w in QualityScorer().score(qi).warnings]
    assert codes == ["moderate-context-quality", "score-out-of-range"]


def test_composite_is_deterministic(france: QualityInput) -> None:
    assert QualityScorer().score(france) == QualityScorer().score(france.to_wire())
