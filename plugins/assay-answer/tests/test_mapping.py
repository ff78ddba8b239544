"""The mapping from text evidence to the scorecard's signals and to what people are shown,
on hand-built evidence records (the detector itself is assay-faithfulness's to test)."""

from __future__ import annotations

from typing import Any

import pytest

import assay_scorecard
from assay_answer import (
    HIGH_SUPPORT,
    MEDIUM_SUPPORT,
    display_evidence,
    reading_from_evidence,
    signals_from_evidence,
    support_level,
)
from assay_faithfulness import (
    AnswerEvidence,
    ClaimEvidence,
    SupportSpan,
    UnsupportedItem,
)
from assay_scorecard import AnswerRecord, compute_confidence, create_answer_scorer

CONTEXT = "Arthur's Magazine (1844-1846) was a literary periodical. First for Women began in 1989."
SUPPORTED = ClaimEvidence(
    "Arthur's Magazine was a literary periodical.",
    0,
    44,
    0.95,
    True,
    SupportSpan(0, 0, 55, CONTEXT[:55]),
)
WRONG_YEAR = ClaimEvidence(
    "It began in 1990.",
    45,
    62,
    0.3,
    False,
    SupportSpan(1, 0, 32, "First for Women began in 1989."),
    (UnsupportedItem("number", "1990", "The passage gives 1989 for when it began, not 1990."),),
)
NEGATED = ClaimEvidence(
    "It was not a periodical.",
    63,
    87,
    0.2,
    False,
    None,
    (UnsupportedItem("negation", "not", "The passage states it was a periodical."),),
)


def evidence(*claims: ClaimEvidence, score: float | None = 0.4, **kwargs: Any) -> AnswerEvidence:
    return AnswerEvidence(score, "The answer's year is not the passage's.", claims, **kwargs)


def record(contexts: Any = None) -> AnswerRecord:
    return assay_scorecard.read_answer_record(
        {
            "question": "When did it begin?",
            "answer": "...",
            "contexts": [
                {"id": "wiki-arthur", "text": CONTEXT},
                {"title": "First for Women", "text": "First for Women began in 1989."},
            ]
            if contexts is None
            else contexts,
        }
    )


def test_claims_become_claim_support_with_contradictions_counted() -> None:
    signals = signals_from_evidence(evidence(SUPPORTED, WRONG_YEAR, NEGATED), 2)
    assert signals == {
        "supportLevel": "low",  # answer support 0.4 < 0.5
        "faithfulnessScore": 1 / 3,  # the share of supported claims
        "claimSupport": {
            "totalClaims": 3,
            "supportedClaims": 1,
            "unsupportedClaims": 1,
            "contradictedClaims": 1,
        },
        "hasConflict": False,
    }


@pytest.mark.parametrize(
    ("score", "claims", "level"),
    [
        (0.95, (SUPPORTED,), "high"),
        (HIGH_SUPPORT, (SUPPORTED,), "high"),
        (0.69, (SUPPORTED,), "medium"),
        (MEDIUM_SUPPORT, (SUPPORTED,), "medium"),
        (0.49, (SUPPORTED,), "low"),
        (0.95, (SUPPORTED, WRONG_YEAR), "medium"),  # a claim unsupported: not high
        (0.95, (WRONG_YEAR,), "low"),  # no claim supported
        (None, (SUPPORTED,), "low"),  # undetermined
        (None, (), "low"),
    ],
)
def test_support_level_needs_every_claim_and_the_answer_support(
    score: float | None, claims: tuple[ClaimEvidence, ...], level: str
) -> None:
    found = evidence(*claims, score=score)
    assert support_level(found) == level
    assert signals_from_evidence(found, 1)["supportLevel"] == level


def test_missing_signals_are_left_out_not_made_up() -> None:
    signals = signals_from_evidence(evidence(score=None), 0)
    assert signals == {"supportLevel": "low", "hasConflict": False, "documentsSilent": True}


def test_conflicts_between_contexts_set_has_conflict() -> None:
    found = evidence(SUPPORTED, score=0.95, conflicts=("One says 1989, the other 1991.",))
    assert signals_from_evidence(found, 2)["hasConflict"] is True


def test_display_names_each_span_by_its_context_and_the_verdict_agrees() -> None:
    shown = display_evidence(evidence(SUPPORTED, WRONG_YEAR, NEGATED), record(), "answer-support")
    assert [(c.supported, c.source) for c in shown.claims] == [
        (True, "wiki-arthur"),
        (False, "First for Women"),  # no id: the title names it
        (False, None),  # no span
    ]
    assert shown.claims[1].unsupported == (
        assay_scorecard.UnsupportedFinding(
            "number", "1990", "The passage gives 1989 for when it began, not 1990."
        ),
    )
    assert shown.summary == (
        "Not supported by the contexts: The answer's year is not the passage's."
    )
    assert shown.score == 0.4 and shown.reader == "answer-support"
    plain = display_evidence(evidence(SUPPORTED), record(["a", CONTEXT]), "x")
    assert plain.claims[0].source == "context 1"


class Canned:
    """A reader giving hand-built evidence, to score through the real dimensions."""

    name = "canned"

    def __init__(self, found: AnswerEvidence) -> None:
        self.found = found

    def read(self, answer: AnswerRecord) -> assay_scorecard.SignalReading:
        return reading_from_evidence(self.found, answer, self.name)


SCORED_CONTEXTS = [
    {"id": f"doc-{i}", "text": CONTEXT, "retrievalScores": {"dense": 0.88, "bm25": 0.72}}
    for i in (1, 2, 3)
]


def test_an_unsupported_answer_is_not_answered_and_the_report_says_why() -> None:
    scorer = create_answer_scorer(reader=Canned(evidence(SUPPORTED, WRONG_YEAR, NEGATED)))
    result = scorer.score({"question": "q", "answer": "a", "contexts": SCORED_CONTEXTS})
    card = result.scorecard
    assert (card.recommended_action, card.action_rule) == ("abstain", "abstain-on-warning")
    grounding = card.dimensions["grounding"].explanation
    assert grounding.startswith("Source support is low")  # agrees with the failing support
    assert "Contradicted claims (-5)." in grounding
    text = result.render_text()
    assert "Text evidence (canned): 1 of 3 claims supported; answer score 0.4" in text
    assert '  UNSUPPORTED: "It began in 1990."' in text
    assert '      number: "1990" - The passage gives 1989 for when it began, not 1990.' in text
    assert '      closest span (doc-2): "First for Women began in 1989."' in text


def test_a_supported_answer_is_answered() -> None:
    scorer = create_answer_scorer(reader=Canned(evidence(SUPPORTED, score=0.95)))
    result = scorer.score({"question": "q", "answer": "a", "contexts": SCORED_CONTEXTS})
    assert result.scorecard.recommended_action == "answer"
    assert result.scorecard.dimensions["grounding"].explanation.startswith(
        "Source text directly and unambiguously answers the question."
    )


EVALUATOR_ZERO = {
    "supportLevel": "high",
    "hasConflict": False,
    "faithfulnessScore": 0.0,
    "answerRelevanceScore": 0.95,
    "citationCount": 3,
    "candidates": [
        {
            "retrievalScores": {"semantic": 0.88, "keyword": 0.72},
            "combinedScore": 0.88,
            "documentId": f"doc-{i}",
        }
        for i in (1, 2, 3)
    ],
}


def test_faithfulness_zero_is_answered_by_default_but_never_under_grounded() -> None:
    balanced = compute_confidence(EVALUATOR_ZERO)
    assert (balanced.total, balanced.label, balanced.recommended_action) == (88, "Strong", "answer")
    grounded = compute_confidence(EVALUATOR_ZERO, {"preset": "grounded-v1"})
    assert grounded.total == 88
    assert (grounded.recommended_action, grounded.action_rule) == ("abstain", "abstain-on-warning")
    assert (
        grounded.action_reason == "Warning 'unsupported-answer' matched abstainOnWarnings policy."
    )


def test_every_claim_passing_with_a_doubt_reads_supported_with_a_doubt() -> None:
    doubted = ClaimEvidence(
        "Badr Hari",
        0,
        9,
        0.95,
        False,  # reaches the claim threshold, but a rival name fits the question as well
        SupportSpan(0, 0, 55, CONTEXT[:55]),
        (UnsupportedItem("name", "Badr Hari", "Another name fits the question as well."),),
    )
    found = evidence(doubted, score=0.95)
    assert signals_from_evidence(found, 1)["supportLevel"] == "medium"
    shown = display_evidence(found, record(), "answer-support")
    assert shown.summary.startswith("Supported, with a doubt: ")
    # a claim that does not pass beside one that does: partly supported
    partly = display_evidence(evidence(SUPPORTED, WRONG_YEAR, score=0.6), record(), "x")
    assert partly.summary.startswith("Partly supported by the contexts: ")
