"""Each formula of the specification on hand-computed cases, and [0, 1] on edge cases."""

from __future__ import annotations

import pytest

import assay
from assay_crag import AssembledContext, QualityInput, RankedChunk
from assay_crag.dimensions import (
    ContextSufficiency,
    DiversityScore,
    EstimatedFaithfulness,
    RetrievalConfidence,
    context_dimensions,
)


def chunk(content: str, doc: str, score: float, **kwargs: object) -> RankedChunk:
    return RankedChunk(content=content, document_id=doc, score=score, **kwargs)  # type: ignore[arg-type]


def _input(chunks=(), text="", tokens=0, query="q") -> QualityInput:
    return QualityInput(query, list(chunks), AssembledContext(text, tokens))


def test_retrieval_confidence_formula(france: QualityInput) -> None:
    score = RetrievalConfidence().score_input(france)
    # mean(0.8, 0.4) = 0.6; spread 0.4 / 0.8 = 0.5 -> 0.7 * 0.6 + 0.3 * 0.5
    assert score.raw == pytest.approx(0.7 * 0.6 + 0.3 * 0.5, abs=1e-15)
    assert score.breakdown.components == pytest.approx({"meanScore": 0.42, "scoreSpread": 0.15})
    assert score.breakdown.raw == score.raw and score.max == 1.0 and score.normalized == 57.0


def test_retrieval_confidence_prefers_rerank_score() -> None:
    qi = _input([chunk("a", "d", 0.2, rerank_score=0.9), chunk("b", "e", 0.9, rerank_score=0.45)])
    # scores used: 0.9, 0.45 -> mean 0.675, spread 0.5
    assert RetrievalConfidence().score_input(qi).raw == pytest.approx(0.7 * 0.675 + 0.3 * 0.5)


def test_retrieval_confidence_clamps_out_of_range_scores_with_a_warning() -> None:
    qi = _input([chunk("a", "d", 3.5), chunk("b", "e", -1.0)])
    score = RetrievalConfidence().score_input(qi)
    assert score.raw == pytest.approx(0.7 * 0.5)  # scores 1.0 and 0.0, spread 0
    assert [w.path for w in score.warnings] == ["chunks[0].score", "chunks[1].score"]
    assert {w.code for w in score.warnings} == {"score-out-of-range"}


def test_retrieval_confidence_unsorted_scores_cap_the_spread_at_one() -> None:
    qi = _input([chunk("a", "d", 0.2), chunk("b", "e", 0.8)])
    assert RetrievalConfidence().score_input(qi).raw == pytest.approx(0.7 * 0.5 + 0.3)


def test_context_sufficiency_formula(france: QualityInput) -> None:
    score = ContextSufficiency().score_input(france)
    # terms: capital, france, its, population ("its" is not a specification stop word); the context
    # contains "capital" and "france" only; 60 tokens for 4 terms -> density 60 / 200
    lowered = france.context.text.lower()
    terms = ["capital", "france", "its", "population"]
    covered = [t for t in terms if t in lowered]
    assert covered == ["capital", "france"]
    assert score.raw == pytest.approx(0.6 * 2 / 4 + 0.4 * min(60 / (4 * 50), 1))
    assert score.breakdown.diagnostics["missingTerms"] == ["its", "population"]


def test_context_sufficiency_edge_cases() -> None:
    assert ContextSufficiency().score_input(_input(text="", query="capital city")).raw == 0.0
    # only stop words / short words -> neutral 0.5
    assert ContextSufficiency().score_input(_input(text="x", query="what is it")).raw == 0.5
    long = ContextSufficiency().score_input(_input(text="capital", tokens=10_000, query="capital"))
    assert long.raw == 1.0


def test_context_sufficiency_strips_punctuation_from_query_words() -> None:
    qi = _input(text="The capital is Paris.", tokens=50, query="Paris?")
    assert ContextSufficiency().score_input(qi).raw == pytest.approx(0.6 + 0.4)


def test_diversity_formula() -> None:
    chunks = [
        chunk("a", "d1", 0.5, metadata={"sectionTitle": "Intro"}),
        chunk("b", "d1", 0.5, metadata={"sectionTitle": "Methods"}),
        chunk("c", "d2", 0.5),
        chunk("d", "d2", 0.5, metadata={"sectionTitle": None}),
    ]
    score = DiversityScore().score_input(_input(chunks))
    # documents {d1, d2} = 2/4; sections {Intro, Methods, d2} = 3/4
    assert score.raw == pytest.approx(0.6 * 0.5 + 0.4 * 0.75)
    assert DiversityScore().score_input(_input([chunks[0]])).raw == 0.0
    assert DiversityScore().score_input(_input([])).raw == 0.0


def test_estimated_faithfulness_formula() -> None:
    text = "Paris had 2 million people on March 5, 2020 and New York more"
    qi = _input([chunk(text, "d", 0.5), chunk("no facts here", "e", 0.1)])
    # joined text: 13 + 3 = 16 words; numbers: 2, 5, 2020 -> 3; dates: "March 5, 2020" -> 1;
    # proper nouns: Paris, March, New York -> 3; density min((3 + 2 + 3) / 0.16 * 0.1, 1) = 1
    score = EstimatedFaithfulness().score_input(qi)
    assert score.breakdown.diagnostics == {"numbers": 3, "dates": 1, "properNouns": 3, "words": 16}
    assert score.raw == pytest.approx(0.4 * 1 + 0.6 * 0.75)


def test_estimated_faithfulness_sparse_facts() -> None:
    words = " ".join(["word"] * 99 + ["Alice"])
    score = EstimatedFaithfulness().score_input(_input([chunk(words, "d", 0.9)]))
    # one proper noun in 100 words: 1 / 1 * 0.1 = 0.1; top score 0.9 * 1.5 capped at 1
    assert score.raw == pytest.approx(0.4 * 0.1 + 0.6 * 1.0)


EDGE_INPUTS = [
    _input(),
    _input([chunk("", "d", 0.0)]),
    _input([chunk("   ", "d", 0.0)], text=" ", tokens=0, query=""),
    _input([chunk("9" * 50, "d", 1e9), chunk("Z", "d", -1e9)], text="x", tokens=10**9),
    _input([chunk("Aa Bb Cc 1 2 3", str(i), 1.0) for i in range(30)], text="aa", tokens=1),
]


@pytest.mark.parametrize("qi", EDGE_INPUTS)
def test_every_dimension_stays_in_unit_interval(qi: QualityInput) -> None:
    for dimension in context_dimensions():
        score = dimension.score_input(qi)
        assert 0.0 <= score.raw <= 1.0
        assert score.breakdown.raw == score.raw and score.max == dimension.max_points == 1.0


def test_wire_mapping_is_accepted_and_scores_are_deterministic(france: QualityInput) -> None:
    wire = france.to_wire()
    for dimension in context_dimensions():
        assert dimension.score(wire, {}) == dimension.score_input(france)
        assert dimension.score(wire, {}) == dimension.score(wire, {})


def test_broken_input_raises_with_the_field_path(france: QualityInput) -> None:
    wire = france.to_wire()
    wire["chunks"][1]["score"] = "high"
    with pytest.raises(assay.AssayError) as caught:
        RetrievalConfidence().score(wire, {})
    assert (caught.value.code, caught.value.path) == ("MALFORMED_INPUT", "chunks[1].score")


def test_dimensions_are_registered_through_the_hook() -> None:
    registry = assay.build_registry()
    names = {r.name for r in registry.items("dimension") if r.provider.plugin == "crag"}
    assert names == {
        "retrievalConfidence",
        "contextSufficiency",
        "diversityScore",
        "estimatedFaithfulness",
    }
    assert isinstance(registry.dimension("crag/diversityScore"), DiversityScore)


def test_fast_fact_counts_agree_with_the_specification_regexes_on_real_text(
    halueval_rows: list[dict[str, str]], hotpot_items: list[dict[str, object]]
) -> None:
    import re

    from assay_crag.dimensions import _fact_counts

    spec_date = re.compile(r"\d{4}[-/]\d{2}[-/]\d{2}|\w+ \d{1,2},? \d{4}", re.ASCII)
    texts = [row["knowledge"] for row in halueval_rows]
    texts += [" ".join("".join(s) for _, s in item["context"]) for item in hotpot_items]  # type: ignore[attr-defined]
    texts += [
        "May 30, 1896December 26, 1977",
        "x 5 12345 2021",
        "é1é2 ٣4 Über Alles",
        "",
        "  ",
        "New\u00a0York  City\n",
        "Ab  Cd\tEf",
        "May\t5, 2020 and June 7,\t1999",
    ]
    for text in texts:
        assert _fact_counts(text) == (
            len(re.findall(r"\d+", text, re.ASCII)),
            len(spec_date.findall(text)),
            len(re.findall(r"[A-Z][a-z]+(?:\s[A-Z][a-z]+)*", text)),
            len(re.split(r"\s+", text)),
        ), text


def test_term_coverage_matches_str_lower_on_non_ascii_text() -> None:
    from assay_crag.dimensions import _covered_terms

    text = "Über den KELVIN-Wert: 5 \u212aelvin; \u0130stanbul liegt am Bosporus. ÉCOLE"
    terms = ["über", "kelvin", "istanbul", "école", "bosporus", "wert", "paris"]
    lowered = text.lower()
    assert _covered_terms(terms, text) == [t for t in terms if t in lowered]
    ascii_terms = ["kelvin", "bosporus", "wert", "paris", "cole"]
    assert _covered_terms(ascii_terms, "Der Bosporus, ÉCOLE") == ["bosporus", "cole"]
