"""The answer detectors on answers written the way RAG systems write them: full sentences with
citation markers, inflected verbs, connectives. The texts are rows of
examples/evaluation/data/pipeline_outputs.csv (a RAG pipeline's outputs)."""

from __future__ import annotations

import pytest

import assay
import assay_faithfulness as af
from assay_faithfulness.citations import blank_citations, citation_spans

RAG = (
    "Retrieval-augmented generation (RAG) combines information retrieval with text generation: "
    "retrieved passages are given to the model as context."
)
EIFFEL = (
    "The Eiffel Tower was completed in March 1889 as the entrance arch to the World's Fair.",
    "Paris hosted the World's Fair in 1889.",
)
FRANKENSTEIN = (
    "Frankenstein is an 1818 novel written by English author Mary Shelley.",
    "The weather in Geneva is often rainy in June.",
)
CACHE = (
    "A CPU cache is a small, fast memory close to the processor that stores copies of data from "
    "frequently used main memory locations."
)
MARS = "Mars has two small moons, Phobos and Deimos."


def metric(name: str, question: str, answer: str, *contexts: str) -> assay.MetricResult:
    sample = assay.EvalSample(question=question, answer=answer, contexts=contexts)
    return af.score_sample(sample, [name])[name]


@pytest.mark.parametrize(
    ("text", "markers"),
    [
        ("with text generation [1].", ["[1]"]),
        ("as stated [1, 2] and [1-3] or [1–3].", ["[1, 2]", "[1-3]", "[1–3]"]),
        ("cited【1】and【4†source】.", ["【1】", "【4†source】"]),
        (
            "see [doc1], [Doc 2], [source: 3] and [^1].",
            ["[doc1]", "[Doc 2]", "[source: 3]", "[^1]"],
        ),
        ("two in a row [1][2].", ["[1]", "[2]"]),
        ("completed (1889), listed (1) and dated [1889] [sic].", []),
    ],
)
def test_citation_markers_are_found_and_years_in_brackets_are_not(
    text: str, markers: list[str]
) -> None:
    assert [text[start:end] for start, end in citation_spans(text)] == markers


def test_blanking_markers_keeps_every_other_character_in_place() -> None:
    answer = "The Eiffel Tower was completed in 1889 [1]."
    blanked = blank_citations(answer)
    assert blanked == "The Eiffel Tower was completed in 1889    ."
    assert len(blanked) == len(answer)


def test_claim_support_reads_no_number_in_a_citation_marker() -> None:
    question = "What is retrieval-augmented generation?"
    plain = "Retrieval-augmented generation combines information retrieval with text generation."
    cited = metric("claim_support", question, plain[:-1] + " [1].", RAG)
    assert cited.score == metric("claim_support", question, plain, RAG).score
    assert cited.passed is True
    assert cited.signals == ()


def test_claim_support_reads_a_connective_as_no_claim() -> None:
    with_so = metric(
        "claim_support", "Where is Mars?", "Mars has two small moons, so Phobos and Deimos.", MARS
    )
    without = metric(
        "claim_support", "Where is Mars?", "Mars has two small moons, Phobos and Deimos.", MARS
    )
    assert with_so.details["token_support"] == without.details["token_support"] == 1.0


def test_claim_support_compares_irregular_verb_forms() -> None:
    question = "Who wrote the novel Frankenstein?"
    result = metric("claim_support", question, "Mary Shelley wrote Frankenstein.", *FRANKENSTEIN)
    assert result.details["token_support"] == 1.0  # "wrote" = "written"
    assert result.passed is True


def test_answer_support_ignores_markers_and_keeps_offsets_into_the_answer() -> None:
    answer = "The Eiffel Tower was completed in 1889 [1]."
    evidence = af.analyze_answer("When was the Eiffel Tower completed?", answer, EIFFEL)
    (claim,) = evidence.claims
    assert claim.text == answer == answer[claim.start : claim.end]
    assert claim.supported and claim.unsupported == ()
    assert evidence.score == 1.0


def test_a_number_may_stand_a_word_or_a_date_part_away_from_its_neighbour() -> None:
    question = "When was the Eiffel Tower completed?"
    right = af.analyze_answer(question, "The Eiffel Tower was completed 1889.", EIFFEL[:1])
    assert right.claims[0].supported  # "completed in March 1889"
    wrong = af.analyze_answer(question, "The Eiffel Tower was completed 1900.", EIFFEL[:1])
    assert wrong.score is not None and wrong.score < 0.9


def test_the_name_heading_a_by_phrase_answers_who_did_it_not_its_nationality() -> None:
    evidence = af.analyze_answer(
        "Who wrote the novel Frankenstein?", "Mary Shelley wrote Frankenstein.", FRANKENSTEIN
    )
    assert [item.kind for claim in evidence.claims for item in claim.unsupported] == []
    english = af.analyze_answer(
        "Who wrote the novel Frankenstein?", "English wrote Frankenstein.", FRANKENSTEIN
    )
    assert english.claims[0].unsupported[0].text == "English"
