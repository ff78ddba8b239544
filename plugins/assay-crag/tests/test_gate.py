"""The context-quality CI gate: the specification's two checks, kept as it words them (the mean
must be above 0.65; no score may be below 0.3), and the messages that name the worst queries."""

from __future__ import annotations

import pytest

import assay
from assay_crag import QualityInput, QualityScorer, assert_context_quality, check_context_quality
from assay_crag.gate import GATE_FLOOR, GATE_MEAN


def test_the_specification_bars() -> None:
    assert (GATE_MEAN, GATE_FLOOR) == (0.65, 0.3)
    assert check_context_quality([0.65, 0.65]).passed is False  # not above 0.65
    assert check_context_quality([0.6500002, 0.65]).mean_passed is True
    assert check_context_quality([0.66, 0.66]).passed is True
    at_floor = check_context_quality([0.3, 1.0, 1.0])  # 0.3 is not below the floor
    assert at_floor.passed and not at_floor.below_floor
    assert check_context_quality([0.2999, 1.0, 1.0]).passed is False


def test_assert_names_the_worst_queries() -> None:
    results = {"capital": 0.9, "eiffel": 0.25, "tides": 0.8, "mars": 0.1}
    with pytest.raises(AssertionError) as caught:
        assert_context_quality(results, worst=2)
    assert str(caught.value) == (
        "context-quality gate failed on 4 queries: mean 0.512 is not above 0.65; 2 below the "
        "floor 0.3: mars (0.100), eiffel (0.250). Worst: mars (0.100), eiffel (0.250)."
    )
    assert assert_context_quality({"capital": 0.9, "tides": 0.8}).mean == pytest.approx(0.85)


def test_retrievals_are_scored_with_the_composite(france: QualityInput) -> None:
    expected = QualityScorer().score(france).overall
    wire = france.to_wire()
    benchmark_item = {
        "query": wire["query"],
        "expectedChunks": wire["chunks"],
        "expectedContext": wire["context"],
    }
    result = check_context_quality([france, wire, benchmark_item, QualityScorer().score(france)])
    assert [item.score for item in result.items] == [expected] * 4
    assert result.items[0].name == france.query


def test_retrievals_without_retriever_scores_are_pointed_out() -> None:
    retrieval = QualityInput.from_texts(
        "Where is the head office of the Oberoi Group?",
        ["The Oberoi Group is a hotel company with its head office in Delhi."],
    )
    result = check_context_quality([retrieval, 0.9])
    assert result.items[0].unscored and not result.items[1].unscored
    assert "1 of 2 retrievals have no retriever scores" in result.message()


@pytest.mark.parametrize(
    ("results", "code", "path"),
    [
        ([], "INVALID_INPUT", "results"),
        ([0.5, 1.5], "INVALID_INPUT", "[1]"),
        ([0.5, {"id": "x"}], "INVALID_INPUT", "[1]"),
        ({"q1": {"overall": "high"}}, "INVALID_INPUT", "[q1].overall"),
        (
            [{"query": "q", "chunks": [{"content": "c"}]}],
            "MALFORMED_INPUT",
            "[0].chunks[0].documentId",
        ),
        ([True], "INVALID_INPUT", "[0]"),
    ],
)
def test_bad_results_are_refused_with_their_position(results: object, code: str, path: str) -> None:
    with pytest.raises(assay.AssayError) as caught:
        check_context_quality(results)  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.path) == (code, path)


def test_bad_bars_are_refused() -> None:
    with pytest.raises(assay.AssayError) as caught:
        check_context_quality([0.5], threshold=1.5)
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", "threshold")
