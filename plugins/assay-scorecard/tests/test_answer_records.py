"""Answer records: what is read from a pipeline's output, what is refused, and the candidates
the contexts' retrieval metadata gives."""

from __future__ import annotations

from typing import Any

import pytest

import assay
from assay_scorecard import (
    ANSWER_FIELD_ALIASES,
    INVALID_ANSWER_RECORD,
    INVALID_CONTEXT,
    Context,
    candidate_signals,
    is_answer_record,
    read_answer_record,
)


def record(*contexts: Any, **extra: Any) -> dict[str, Any]:
    return {"question": "Who?", "answer": "Ada.", "contexts": list(contexts), **extra}


def test_contexts_are_strings_or_objects_with_metadata() -> None:
    read = read_answer_record(
        record(
            "plain text",
            {
                "id": "doc-7",
                "text": "scored",
                "retrievalScores": {"dense": 0.8, "bm25": 0.6},
                "rank": 2,
                "date": "2025-01-01",
                "sourceType": "policy",
                "authorityRank": 1,
                "contentHash": "h1",
                "metadata": {"page": 3},
            },
            signals={"answerRelevanceScore": 0.9},
            config={"preset": "balanced-v0.3"},
            id="row-1",
        )
    )
    assert read.texts == ["plain text", "scored"]
    assert read.contexts[0] == Context("plain text")
    scored = read.contexts[1]
    assert (scored.id, scored.rank, scored.last_updated, scored.document_type) == (
        "doc-7",
        2,
        "2025-01-01",
        "policy",
    )
    assert scored.extra == {"contentHash": "h1"}
    assert read.signals == {"answerRelevanceScore": 0.9}
    assert [c.label(i) for i, c in enumerate(read.contexts)] == ["context 1", "doc-7"]


@pytest.mark.parametrize(
    ("bad", "code", "path", "words"),
    [
        ("text", INVALID_ANSWER_RECORD, None, "must be an object"),
        ({"answer": "a", "contexts": []}, INVALID_ANSWER_RECORD, "question", "question is missing"),
        (record(answer=3), INVALID_ANSWER_RECORD, "answer", "must be a string, not the number 3"),
        (
            {"question": "q", "answer": "a"},
            INVALID_ANSWER_RECORD,
            "contexts",
            "contexts is missing",
        ),
        (record(extra=1), INVALID_ANSWER_RECORD, "extra", "unknown key 'extra'"),
        (record(context=[]), INVALID_ANSWER_RECORD, "context", "did you mean 'contexts'?"),
        (record(signals=[]), INVALID_ANSWER_RECORD, "signals", "an object of scoring inputs"),
        (record(3), INVALID_CONTEXT, "contexts[0]", "a string or an object"),
        (record({"id": "x"}), INVALID_CONTEXT, "contexts[0].text", "needs text"),
        (record({"content": "x"}), INVALID_CONTEXT, "contexts[0].content", "did you mean 'text'?"),
        (
            record("ok", {"text": "x", "scores": {}}),
            INVALID_CONTEXT,
            "contexts[1].scores",
            "did you mean 'retrievalScores'?",
        ),
        (record({"text": "x", "score": "0.8"}), INVALID_CONTEXT, "contexts[0].score", "a number"),
        (record({"text": "x", "score": True}), INVALID_CONTEXT, "contexts[0].score", "a number"),
        (
            record({"text": "x", "retrievalScores": {"dense": None}}),
            INVALID_CONTEXT,
            "contexts[0].retrievalScores.dense",
            "must be a number",
        ),
        (record({"text": "x", "rank": 0}), INVALID_CONTEXT, "contexts[0].rank", ">= 1"),
        (
            record({"text": "x", "score": 0.5, "combinedScore": 0.5}),
            INVALID_CONTEXT,
            "contexts[0].combinedScore",
            "once",
        ),
        (
            record({"text": "x", "date": "2025-01-01", "lastUpdated": "2025-01-01"}),
            INVALID_CONTEXT,
            "contexts[0].lastUpdated",
            "one of date and lastUpdated",
        ),
        (record({"text": "x", "id": [1]}), INVALID_CONTEXT, "contexts[0].id", "a string or"),
    ],
)
def test_bad_records_name_the_field(bad: Any, code: str, path: str | None, words: str) -> None:
    with pytest.raises(assay.AssayError) as caught:
        read_answer_record(bad)
    assert (caught.value.code, caught.value.path) == (code, path)
    assert words in caught.value.message


def test_an_answer_record_is_told_from_a_scoring_request() -> None:
    assert is_answer_record(record())
    # a record missing its answer, or written with ragas's names, is still an answer record
    assert is_answer_record({"question": "When?", "contexts": ["x"]})
    assert is_answer_record({"user_input": "q", "response": "a", "retrieved_contexts": []})
    assert not is_answer_record({"inputs": {}, "answer": "x"})
    assert not is_answer_record({"supportLevel": "high", "candidates": []})
    assert not is_answer_record("answer")


def test_scored_contexts_become_candidates_and_unscored_ones_are_noted() -> None:
    read = read_answer_record(
        record(
            {"id": "a", "text": "x", "retrievalScores": {"dense": 0.8, "bm25": 0.4}, "rank": 1},
            {"text": "y", "score": 0.7, "lastUpdated": "2025-02-01", "documentType": "faq"},
            {"text": "z", "retrievalScores": {"dense": 0.9}, "combinedScore": 0.85},
            "unscored",
        )
    )
    candidates, notes = candidate_signals(read.contexts)
    assert candidates == [
        {
            "retrievalScores": {"dense": 0.8, "bm25": 0.4},
            "combinedScore": pytest.approx(0.6),  # the mean of the methods
            "documentId": "a",
            "rank": 1,
        },
        {
            "retrievalScores": {"retrieval": 0.7},
            "combinedScore": 0.7,
            "lastUpdated": "2025-02-01",
            "documentType": "faq",
        },
        {"retrievalScores": {"dense": 0.9}, "combinedScore": 0.85},
    ]
    assert notes == (
        "contexts[3] carries no retrieval score: checked against the answer's text, but not a "
        "retrieval candidate.",
    )


def test_no_scored_context_means_no_candidates_and_says_so() -> None:
    candidates, notes = candidate_signals(read_answer_record(record("a", "b")).contexts)
    assert candidates == []
    assert "missing signal: candidates" in notes[0]
    assert candidate_signals(()) == ([], ())


def test_ragas_and_deepeval_names_are_read_as_the_fields_they_name() -> None:
    ragas = {"user_input": "Who?", "response": "Ada.", "retrieved_contexts": ["Ada wrote it."]}
    deepeval = {"input": "Who?", "actual_output": "Ada.", "retrieval_context": ["Ada wrote it."]}
    for named in (ragas, deepeval):
        read = read_answer_record(named)
        assert (read.question, read.answer, read.texts) == ("Who?", "Ada.", ["Ada wrote it."])


@pytest.mark.parametrize(
    ("bad", "meant"),
    [
        ({"user_input": "q", "respons": "a", "retrieved_contexts": []}, "response"),
        ({"user_input": "q", "response": "a", "retrieved_context": []}, "retrieved_contexts"),
        ({"input": "q", "actual_output": "a", "retrieval_contexts": []}, "retrieval_context"),
        ({"input": "q", "actual_ouput": "a", "retrieval_context": []}, "actual_output"),
    ],
)
def test_a_misspelled_ragas_or_deepeval_name_is_told_its_name(bad: Any, meant: str) -> None:
    (typo,) = set(bad) - set(ANSWER_FIELD_ALIASES)
    with pytest.raises(assay.AssayError) as caught:
        read_answer_record(bad)
    assert (caught.value.code, caught.value.path) == (INVALID_ANSWER_RECORD, typo)
    assert caught.value.message == f"unknown key {typo!r}; did you mean {meant!r}?"


def test_an_unknown_key_lists_every_name_a_record_may_use() -> None:
    with pytest.raises(assay.AssayError) as caught:
        read_answer_record({"user_input": "q", "response": "a", "retrieved_contexts": [], "zz": 1})
    for name in ("question", "metadata", "user_input", "retrieved_contexts", "actual_output"):
        assert name in caught.value.message


@pytest.mark.parametrize(
    ("bad", "path", "words"),
    [
        (
            {"question": "When?", "contexts": ["x"]},
            "answer",
            "answer is missing: an answer record needs question, answer and contexts (answer is "
            "also read as response or actual_output)",
        ),
        ({"question": "q", "output": "a", "contexts": []}, "output", "did you mean 'answer'?"),
        (
            {"question": "q", "answer": "a", "response": "b", "contexts": []},
            "response",
            "give one of answer and response (both are the answer)",
        ),
        # the path is the name the record used
        ({"user_input": "q", "response": 3, "contexts": []}, "response", "must be a string"),
        (
            {"user_input": "q", "response": "a", "retrieved_contexts": [3]},
            "retrieved_contexts[0]",
            "a context must be",
        ),
    ],
)
def test_a_record_without_its_answer_is_told_what_is_missing(
    bad: Any, path: str, words: str
) -> None:
    with pytest.raises(assay.AssayError) as caught:
        read_answer_record(bad)
    assert caught.value.code in (INVALID_ANSWER_RECORD, INVALID_CONTEXT)
    assert caught.value.path == path
    assert words in caught.value.message
