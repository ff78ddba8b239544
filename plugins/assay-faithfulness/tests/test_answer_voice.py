"""answer_support: an answer that restates a context sentence in the other voice ("X wrote Y"
for "Y ... written by X", "Y was discovered by X" for "X discovered Y") keeps its word order
support, and a wrong agent or patient does not gain it."""

from __future__ import annotations

import pytest

import assay_faithfulness as af

SHELLEY = "Frankenstein is an 1818 novel written by English author Mary Shelley."
JAWS = "Jaws is a 1975 American thriller film directed by Steven Spielberg."
PARTHENON = (
    "The Parthenon is a former temple on the Athenian Acropolis, built by the Athenians in the "
    "fifth century BC."
)
MONA_LISA = "The Mona Lisa is a half-length portrait painted by Italian artist Leonardo da Vinci."
FLEMING = "Alexander Fleming discovered penicillin in 1928."
BEETHOVEN = "Ludwig van Beethoven composed the Moonlight Sonata in 1801."
SHELLEY_WIFE = "Frankenstein was written by Mary Shelley, the wife of Percy Shelley."


@pytest.mark.parametrize(
    ("question", "answer", "context"),
    [
        ("Who wrote the novel Frankenstein?", "Mary Shelley wrote Frankenstein.", SHELLEY),
        ("Who directed Jaws?", "Steven Spielberg directed Jaws.", JAWS),
        ("Who built the Parthenon?", "The Athenians built the Parthenon.", PARTHENON),
        ("Who painted the Mona Lisa?", "Leonardo da Vinci painted the Mona Lisa.", MONA_LISA),
        ("Who discovered penicillin?", "Penicillin was discovered by Alexander Fleming.", FLEMING),
        (
            "Who composed the Moonlight Sonata?",
            "The Moonlight Sonata, composed by Ludwig van Beethoven.",
            BEETHOVEN,
        ),
        ("Who wrote Frankenstein?", "Mary Shelley wrote Frankenstein.", SHELLEY_WIFE),
    ],
)
def test_a_restatement_in_the_other_voice_is_supported(
    question: str, answer: str, context: str
) -> None:
    evidence = af.analyze_answer(question, answer, [context])
    assert evidence.score is not None and evidence.score >= 0.9, evidence.reason
    assert evidence.claims[0].supported, evidence.reason


def test_the_active_answer_to_a_passive_passage_scored_before_and_after() -> None:
    # the passage gives one of the answer's three word pairs in order ("Mary Shelley"); the
    # other two are its "written by ... Mary Shelley" turned around
    evidence = af.analyze_answer(
        "Who wrote the novel Frankenstein?",
        "Mary Shelley wrote Frankenstein.",
        [SHELLEY, "The weather in Geneva is often rainy in June."],
    )
    assert evidence.score is not None and evidence.score > 0.99
    assert evidence.claims[0].span is not None and evidence.claims[0].span.text == SHELLEY


@pytest.mark.parametrize(
    ("question", "answer", "context"),
    [
        # a wrong name: the passage has no "Percy"
        ("Who wrote the novel Frankenstein?", "Percy Shelley wrote Frankenstein.", SHELLEY),
        # the passage has "Percy Shelley", but not at the head of the "by" phrase
        ("Who wrote Frankenstein?", "Percy Shelley wrote Frankenstein.", SHELLEY_WIFE),
        # a wrong work
        ("Who wrote the novel Frankenstein?", "Mary Shelley wrote Dracula.", SHELLEY),
        ("Who directed Jaws?", "Steven Soderbergh directed Jaws.", JAWS),
        ("Who discovered penicillin?", "Penicillin was discovered by Howard Florey.", FLEMING),
        # a name of the sentence that does not head the "by" phrase of the verb
        (
            "Who wrote the episode?",
            "Fred Savage wrote the episode.",
            "The episode was written by Ben Karlin and directed by Fred Savage.",
        ),
        (
            "Who directed the film?",
            "Louis Koo directed the film.",
            "Throw Down is a 2004 Hong Kong martial arts film directed by Johnnie To and starring "
            "Louis Koo.",
        ),
    ],
)
def test_a_wrong_agent_or_patient_still_fails(question: str, answer: str, context: str) -> None:
    evidence = af.analyze_answer(question, answer, [context])
    assert evidence.score is not None and evidence.score < 0.9, evidence.reason
    assert not evidence.claims[0].supported
