"""Corrective actions on real sentences: decomposition, reformulation, knowledge refinement."""

from __future__ import annotations

import pytest

import assay
from assay_crag import LexicalRelevanceScorer, decompose_query, refine_knowledge, reformulate_query
from assay_crag.text import query_terms, split_sentences


@pytest.mark.parametrize(
    ("query", "parts"),
    [
        (
            "What is the capital of France and what is its population?",
            ("What is the capital of France?", "What is its population?"),
        ),
        (
            "Who directed Jaws? Who composed its score?",
            ("Who directed Jaws?", "Who composed its score?"),
        ),
        (
            "List the side effects of ibuprofen; additionally explain its dosage for adults",
            ("List the side effects of ibuprofen", "Explain its dosage for adults"),
        ),
        (
            "What year was the band formed, and who was its first singer?",
            ("What year was the band formed?", "Who was its first singer?"),
        ),
    ],
)
def test_compound_questions_split(query: str, parts: tuple[str, ...]) -> None:
    assert decompose_query(query) == parts


@pytest.mark.parametrize(
    "query",
    [
        "Were Scott Derrickson and Ed Wood of the same nationality?",
        "Who is older, Annie Morton or Terry Richardson?",
        "Are Local H and For Against both from the United States?",
    ],
)
def test_a_comparison_is_not_split_into_fragments(query: str) -> None:
    """HotpotQA comparison questions join two names, not two questions."""
    assert decompose_query(query) == (
        query,
        f"What information exists about: {query}",
        f"{query.rstrip('?')} details and specifics",
    )


def test_a_title_with_and_is_not_split_into_fragments() -> None:
    query = "Who wrote Romeo and Juliet?"
    assert decompose_query(query) == (
        query,
        "What information exists about: Who wrote Romeo and Juliet?",
        "Who wrote Romeo and Juliet details and specifics",
    )


def test_real_questions_yield_non_empty_unique_sub_queries(
    halueval_rows: list[dict[str, str]],
) -> None:
    for row in halueval_rows:
        parts = decompose_query(row["question"])
        assert parts and len(set(parts)) == len(parts)
        assert all(len(p) > 10 for p in parts)
    assert decompose_query("   ") == ()


@pytest.mark.parametrize(
    ("query", "keywords"),
    [
        ("What is the capital of France?", "capital France"),
        (
            "Which magazine was started first Arthur's Magazine or First for Women?",
            "magazine started Arthur's Women",
        ),
        ("Who is it?", "is it"),  # no keyword left: the specification's rewrite
    ],
)
def test_reformulation_keeps_keywords(query: str, keywords: str) -> None:
    assert reformulate_query(query) == keywords


def test_sentences_glued_without_space_are_split(halueval_rows: list[dict[str, str]]) -> None:
    knowledge = halueval_rows[0]["knowledge"]
    assert split_sentences(knowledge) == [
        "Arthur's Magazine (1844–1846) was an American literary periodical published in "
        "Philadelphia in the 19th century.",
        "First for Women is a woman's magazine published by Bauer Media Group in the USA.",
    ]
    assert split_sentences("He paid $2.50 for it. Then he left!") == [
        "He paid $2.50 for it.",
        "Then he left!",
    ]


def test_refinement_keeps_the_strip_that_answers(halueval_rows: list[dict[str, str]]) -> None:
    row = halueval_rows[1]  # Oberoi family ... head office in Delhi
    distractor = halueval_rows[5]["knowledge"]
    refined = refine_knowledge(
        row["question"], [distractor, row["knowledge"]], LexicalRelevanceScorer(), top_k=1
    )
    assert len(refined.strips) == 1
    assert refined.strips[0].document_index == 1
    assert "head office in Delhi" in refined.text
    assert refined.considered == len(split_sentences(distractor)) + 2


def test_refinement_windows_and_order(halueval_rows: list[dict[str, str]]) -> None:
    row = halueval_rows[2]
    refined = refine_knowledge(
        row["question"], [row["knowledge"]], LexicalRelevanceScorer(), window=2, top_k=5
    )
    assert [s.first_sentence for s in refined.strips] == sorted(
        s.first_sentence for s in refined.strips
    )
    assert all(s.first_sentence % 2 == 0 for s in refined.strips)
    nothing = refine_knowledge("zebra quagga", [row["knowledge"]], LexicalRelevanceScorer())
    assert nothing.text == "" and nothing.strips == ()


@pytest.mark.parametrize(("kwargs", "path"), [({"window": 0}, "window"), ({"top_k": 0}, "topK")])
def test_refinement_parameters_are_checked(kwargs: dict[str, int], path: str) -> None:
    with pytest.raises(assay.AssayError) as caught:
        refine_knowledge("q", ["a."], LexicalRelevanceScorer(), **kwargs)
    assert caught.value.path == path


def test_specification_query_terms() -> None:
    assert query_terms("What is the capital of France?") == ["capital", "france"]
