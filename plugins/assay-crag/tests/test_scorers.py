"""Per-document scorers: the built-in lexical scorer, any Metric, any Judge."""

from __future__ import annotations

import importlib.util

import pytest

import assay
from assay_crag import (
    AssembledContext,
    CragRouter,
    LexicalRelevanceScorer,
    QualityInput,
    RankedChunk,
    resolve_document_scorer,
)
from assay_crag.scorers import JudgeDocumentScorer, MetricDocumentScorer, parse_relevance_reply


def test_lexical_score_by_hand() -> None:
    scorer = LexicalRelevanceScorer()
    # content words: "head" (1), "office" (1), "Oberoi" (name: 2), "Group" (name: 2)
    query = "Where is the head office of the Oberoi Group?"
    assert scorer.query_weights(query) == {"head": 1.0, "office": 1.0, "oberoi": 2.0, "group": 2.0}
    scores = scorer.score_documents(
        query,
        [
            "The Oberoi Group is a hotel company with its head office in Delhi.",
            "The group met at the office.",  # group (2) + office (1) of 6
            "Bananas are yellow.",
        ],
    )
    assert scores == (1.0, 0.5, 0.0)
    assert scorer.score_documents("what is it?", ["anything"]) == (0.0,)


def test_lexical_stems_match_word_forms() -> None:
    scorer = LexicalRelevanceScorer()
    assert scorer.score_documents("nationality", ["a national hero"]) == (1.0,)


class HalfMetric:
    """A stand-in Metric: 1 when the context mentions the question's last word, else undetermined."""

    id = "mentions_last_word"
    default_threshold = 0.5
    higher_is_better = True
    requires = frozenset({"contexts"})

    def compute(
        self, sample: assay.EvalSample, context: assay.MetricContext, threshold: float
    ) -> assay.MetricResult:
        word = sample.question.rstrip("?").split()[-1].lower()
        hit = word in sample.contexts[0].lower()
        score = 1.0 if hit else None
        return assay.MetricResult(self.id, score, None if score is None else True, threshold, "")


class EchoJudge:
    """A stand-in Judge replying with a fixed text per document keyword."""

    name = "echo"

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def complete(self, prompt: str) -> assay.JudgeReply:
        self.prompts.append(prompt)
        if "Delhi" in prompt:
            return assay.JudgeReply('{"score": 0.9}')
        if "yellow" in prompt:
            return assay.JudgeReply("Relevance: 0.05")
        return assay.JudgeReply("I cannot say.")


def _registry() -> assay.Registry:
    registry = assay.build_registry()
    registry.register(HalfMetric())
    registry.register(EchoJudge())
    return registry


def test_metric_scorer_through_the_registry() -> None:
    scorer = resolve_document_scorer("metric:mentions_last_word", _registry())
    assert isinstance(scorer, MetricDocumentScorer) and scorer.name == "metric:mentions_last_word"
    assert scorer.score_documents("Where is Delhi?", ["Delhi is big.", "Rome."]) == (1.0, None)


def test_judge_scorer_through_the_registry() -> None:
    registry = _registry()
    scorer = resolve_document_scorer("echo", registry)
    assert isinstance(scorer, JudgeDocumentScorer)
    docs = ["Head office in Delhi.", "Bananas are yellow.", "Noise."]
    assert scorer.score_documents("Where?", docs) == (0.9, 0.05, None)
    judge = registry.judge("echo")
    assert (
        "Question: Where?" in judge.prompts[0]
        and "Document: Head office in Delhi." in judge.prompts[0]
    )


def test_router_uses_a_judge_for_the_paper_mode() -> None:
    qi = QualityInput(
        "Where is the head office?",
        [RankedChunk("Noise.", "a", 0.5), RankedChunk("Head office in Delhi.", "b", 0.4)],
        AssembledContext("", 0),
    )
    result = CragRouter("paper", scorer="judge:echo", registry=_registry()).classify(qi)
    assert result.classification == "correct" and result.document_scores == (None, 0.9)
    assert result.reason.endswith("[scorer judge:echo]")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0.7", 0.7),
        ('{"score": 1}', 1.0),
        ("score: 0.25 of 1", 0.25),
        ("7", None),
        ("none", None),
        ('{"score": "high"}', None),
        ("true", None),
    ],
)
def test_parse_relevance_reply(text: str, value: float | None) -> None:
    assert parse_relevance_reply(text) == value


def test_unknown_scorer_lists_what_exists() -> None:
    with pytest.raises(assay.AssayError) as caught:
        resolve_document_scorer("nothing-here", _registry())
    assert caught.value.code == "UNKNOWN_NAME" and "mentions_last_word" in caught.value.message


@pytest.mark.skipif(
    importlib.util.find_spec("assay_faithfulness") is None,
    reason="needs assay-faithfulness installed (uv run --all-packages installs it)",
)
def test_context_relevance_from_assay_faithfulness(halueval_rows: list[dict[str, str]]) -> None:
    scorer = resolve_document_scorer("metric:context_relevance", assay.build_registry())
    row, other = halueval_rows[1], halueval_rows[7]
    assert scorer.score_documents(row["question"], [row["knowledge"], other["knowledge"]]) == (
        1.0,
        0.0,
    )
