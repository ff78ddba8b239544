"""The topical scorer and the subject reading it rests on, on passages written as encyclopaedias
open them."""

from __future__ import annotations

import pytest

from assay_crag import CragRouter, LexicalRelevanceScorer, QualityInput, TopicalRelevanceScorer
from assay_crag.scorers import OFF_TOPIC_WEIGHT, resolve_document_scorer
from assay_crag.subjects import names, names_person, opening_subject


@pytest.mark.parametrize(
    ("passage", "subject"),
    [
        ("Scott Derrickson (born July 16, 1966) is an American director.", "scott derrickson"),
        ("The 2011–12 VCU Rams men's basketball team represented VCU.", "2011 12 vcu rams"),
        ('"Shut Up, Make Love" is a song by Poison.', "shut up"),
        ("Letters to Cleo are an alternative rock band.", "letters to cleo"),
        ("A universal remote is a remote control.", "universal remote"),
        ("He lives in Los Angeles.", None),
        ("In addition to comic books, he wrote plays.", None),
        ("drifting is a driving technique.", None),
    ],
)
def test_opening_subject(passage: str, subject: str | None) -> None:
    assert opening_subject(passage) == subject


def test_a_name_inside_a_longer_name_is_not_named_standalone() -> None:
    question = "What was the population of the city in which Kirton End is located?"
    assert names(question, "kirton") and not names(question, "kirton", standalone=True)
    assert names(question, "kirton end", standalone=True)
    # a question's first word is capitalised anyway: it does not extend the name after it
    assert names("Were Scott Derrickson and Ed Wood American?", "scott derrickson", standalone=True)
    assert not names("Who is Big Scott Derrickson?", "scott derrickson", standalone=True)
    assert names("Poison released what?", "released") and not names("Poisons", "poison")
    assert names_person("Were Alfred Gell and Edmund Leach British?", "alfred antony francis gell")
    assert not names_person("Were Alfred Gell and Edmund Leach British?", "alfred gell")


COMPARISON = "Who is older, Annie Morton or Terry Richardson?"
GOLD = (
    "Annie Morton (born October 8, 1970) is an American model born in Pennsylvania.",
    'Terrence "Uncle Terry" Richardson (born August 14, 1965) is an American photographer.',
)
DISTRACTORS = (
    "Lady Gaga x Terry Richardson is a photo-book by Lady Gaga and Terry Richardson.",
    "Kenton Terry Richardson (born 26 July 1999) is an English professional footballer.",
)


def test_documents_about_named_entities_score_what_they_cover_together() -> None:
    lexical = LexicalRelevanceScorer()
    together = lexical.score_documents(COMPARISON, [" ".join(GOLD)])[0]
    scores = TopicalRelevanceScorer().score_documents(COMPARISON, GOLD)
    # Annie Morton is named, so her passage is on topic and scores the pair's joint coverage
    assert scores[0] == together > lexical.score_documents(COMPARISON, GOLD[:1])[0]
    assert scores[1] == lexical.score_documents(COMPARISON, GOLD[1:])[0]


def test_documents_about_other_subjects_are_weighted_down_when_none_is_on_topic() -> None:
    lexical = LexicalRelevanceScorer().score_documents(COMPARISON, DISTRACTORS)
    scores = TopicalRelevanceScorer().score_documents(COMPARISON, DISTRACTORS)
    assert scores == tuple(s * OFF_TOPIC_WEIGHT for s in lexical)
    router = CragRouter(scorer="topical")
    assert router.classify(QualityInput.from_texts(COMPARISON, GOLD)).classification == "correct"
    wrong = router.classify(QualityInput.from_texts(COMPARISON, DISTRACTORS))
    assert wrong.classification == "incorrect"
    assert CragRouter().classify(QualityInput.from_texts(COMPARISON, DISTRACTORS)).score > 0.37


def test_a_bridge_passage_is_on_topic_through_the_passage_naming_it() -> None:
    question = 'The director of the romantic comedy "Big Stone Gap" is based in what New York city?'
    documents = (
        "Big Stone Gap is a 2014 American drama romantic comedy film directed by Adriana Trigiani.",
        "Adriana Trigiani is an Italian American author based in Greenwich Village, New York City.",
    )
    scores = TopicalRelevanceScorer().score_documents(question, documents)
    assert scores[0] == scores[1] > LexicalRelevanceScorer().score_documents(question, documents)[1]


def test_one_document_is_scored_lexically_and_the_known_cost() -> None:
    question = "What is the capital of France and what is its population?"
    paris = "Paris is the capital of France. It has 2.1 million people in 2023."
    topical, lexical = TopicalRelevanceScorer(), LexicalRelevanceScorer()
    assert topical.score_documents(question, [paris]) == lexical.score_documents(question, [paris])
    # the answer passage is about an entity the question does not name: with another passage
    # and nothing named, it is weighted down (why this scorer is not the default)
    pair = topical.score_documents(question, [paris, "Berlin is in Germany."])
    assert pair == (0.75 * OFF_TOPIC_WEIGHT, 0.0)
    assert resolve_document_scorer("topical").name == "topical"
