"""The CRAG router: both modes, exact boundaries, actions, Policy contract."""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import pytest

import assay
from assay_crag import AssembledContext, CragRouter, QualityInput, QualityScorer, RankedChunk
from assay_crag.composite import ContextQualityScore


class FixedQuality(QualityScorer):
    """A quality scorer whose overall is a given number (to hit the boundaries exactly)."""

    def __init__(self, overall: float) -> None:
        super().__init__()
        self.overall = overall

    def score(self, quality_input: object) -> ContextQualityScore:
        real = super().score(quality_input)  # type: ignore[arg-type]
        return attrs.evolve(real, overall=self.overall)


class FixedScores:
    """A document scorer returning given scores."""

    name = "fixed"

    def __init__(self, *scores: float | None) -> None:
        self.scores = scores

    def score_documents(self, query: str, documents: Sequence[str]) -> tuple[float | None, ...]:
        return self.scores[: len(documents)]


@pytest.mark.parametrize(
    ("overall", "label", "confidence"),
    [
        (0.7, "correct", 0.7),
        (0.7 - 1e-12, "ambiguous", 0.7 - 1e-12),
        (0.3 + 1e-12, "ambiguous", 0.3 + 1e-12),
        (0.3, "incorrect", 0.7),
        (0.0, "incorrect", 1.0),
        (1.0, "correct", 1.0),
    ],
)
def test_composite_mode_boundaries(
    france: QualityInput, overall: float, label: str, confidence: float
) -> None:
    result = CragRouter("composite", quality=FixedQuality(overall)).classify(france)
    assert result.classification == label
    assert result.confidence == pytest.approx(confidence, abs=1e-15)
    assert result.rule == f"crag-composite-{label}"


def test_composite_thresholds_are_configurable(france: QualityInput) -> None:
    router = CragRouter("composite", quality=FixedQuality(0.5), correct_at=0.5, incorrect_at=0.2)
    assert router.classify(france).classification == "correct"
    router = CragRouter("composite", quality=FixedQuality(0.5), correct_at=0.9, incorrect_at=0.5)
    assert router.classify(france).classification == "incorrect"


@pytest.mark.parametrize(
    ("scores", "label"),
    [
        ((0.1, 0.61), "correct"),  # one document above upper
        ((0.6, 0.6), "ambiguous"),  # at upper is not above it
        ((0.2, 0.21), "ambiguous"),
        ((0.2, 0.2), "incorrect"),  # at lower is not above it
        ((None, 0.1), "incorrect"),
        ((None, None), "incorrect"),
    ],
)
def test_paper_mode_boundaries(
    france: QualityInput, scores: tuple[float | None, ...], label: str
) -> None:
    router = CragRouter("paper", upper=0.6, lower=0.2, scorer=FixedScores(*scores))
    result = router.classify(france)
    assert result.classification == label
    assert result.document_scores == scores
    best = max((s for s in scores if s is not None), default=0.0)
    assert result.score == best
    assert result.confidence == pytest.approx(1 - best if label == "incorrect" else best)
    if None in scores:
        assert "undetermined" in result.reason


def test_paper_mode_without_documents_is_incorrect() -> None:
    empty = QualityInput("Who founded Rome?", [], AssembledContext("", 0))
    result = CragRouter("paper").classify(empty)
    assert (result.classification, result.reason.split(" [")[0]) == (
        "incorrect",
        "no documents were retrieved",
    )


def test_actions_per_classification(france: QualityInput) -> None:
    correct = CragRouter("composite", quality=FixedQuality(0.9)).classify(france).action
    assert correct.to_wire() == {"type": "use_retrieved"}
    ambiguous = CragRouter("composite", quality=FixedQuality(0.5)).classify(france).action
    assert ambiguous.to_wire() == {
        "type": "decompose_and_recompose",
        "subQueries": ["What is the capital of France?", "What is its population?"],
    }
    incorrect = CragRouter("composite", quality=FixedQuality(0.1)).classify(france).action
    assert incorrect.to_wire() == {
        "type": "supplemental_search",
        "searchQuery": "capital France population",
    }


def test_refinement_keeps_the_relevant_strip(france: QualityInput) -> None:
    result = CragRouter("paper", refine=True).classify(france)
    refined = result.action.refined_context
    assert result.classification == "correct" and refined is not None
    assert refined.text == "Paris is the capital of France."
    assert refined.considered == 3


def test_decompose_and_reformulate_are_pluggable(france: QualityInput) -> None:
    router = CragRouter(
        "composite",
        quality=FixedQuality(0.5),
        decompose=lambda q: [q.upper()],
        reformulate=str.lower,
    )
    assert router.classify(france).action.sub_queries == (france.query.upper(),)
    router = CragRouter("composite", quality=FixedQuality(0.0), reformulate=str.lower)
    assert router.classify(france).action.search_query == france.query.lower()


def test_policy_contract(france: QualityInput) -> None:
    router = CragRouter("composite")
    assert isinstance(router, assay.Policy)
    decision = router.decide(france.to_wire())
    assert decision.action == "ambiguous" and decision.rule == "crag-composite-ambiguous"
    assert "between incorrectAt 0.3 and correctAt 0.7" in decision.reason
    assert decision.details["classification"] == "ambiguous"
    assert decision == router.decide(france)


def test_policies_are_registered() -> None:
    registry = assay.build_registry()
    default = registry.policy("crag/crag")
    assert (default.mode, default.thresholds) == ("paper", {"upper": 0.46, "lower": 0.37})
    assert registry.policy("crag/crag-paper").mode == "paper"
    composite = registry.policy("crag/crag-composite")
    assert (composite.mode, composite.thresholds) == (
        "composite",
        {"correctAt": 0.7, "incorrectAt": 0.3},
    )
    assert registry.get("document-scorer", "crag/lexical").name == "lexical"


def test_default_router_routes_on_the_passages_alone() -> None:
    """Query and passages only (no retriever scores): the default still decides, and names
    what decided."""
    query = "The Oberoi family is part of a hotel company that has a head office in what city?"
    on_topic = "The Oberoi Group is a hotel company with its head office in Delhi."
    off_topic = "Allison Beth Goertz is an American musician known for satirical songs."
    router = CragRouter()
    relevant = router.classify(QualityInput.from_texts(query, [off_topic, on_topic]))
    assert (relevant.classification, relevant.rule) == ("correct", "crag-paper-correct")
    assert relevant.document_scores is not None and relevant.document_scores[1] > 0.46
    assert not relevant.warnings
    irrelevant = router.classify(QualityInput.from_texts(query, [off_topic]))
    assert irrelevant.classification == "incorrect"
    assert irrelevant.action.search_query == "Oberoi family part hotel company head office city"


def test_composite_without_retriever_scores_says_so() -> None:
    query = "Where is the head office of the Oberoi Group?"
    passage = "The Oberoi Group is a hotel company with its head office in Delhi."
    result = CragRouter("composite").classify(QualityInput.from_texts(query, [passage]))
    assert [(w.code, w.path) for w in result.warnings] == [
        ("missing-retrieval-score", "chunks[0].score"),
        ("missing-retrieval-score", "chunks[0].score"),
    ]
    assert "1 of 1 chunk(s) have no retriever score, counted as 0" in result.reason
    assert "the composite is at most 0.55, below correctAt 0.7" in result.reason
    assert result.to_wire()["warnings"][0]["message"].startswith("no retriever score")
    scored = CragRouter("composite").classify(QualityInput.from_texts(query, [passage], [0.9]))
    assert not scored.warnings and "retriever score" not in scored.reason
    assert "warnings" not in scored.to_wire()


@pytest.mark.parametrize(
    ("kwargs", "path"),
    [
        ({"correct_at": 1.2}, "correctAt"),
        ({"incorrect_at": 0.8}, "incorrectAt"),
        ({"upper": 0.1, "lower": 0.2}, "lower"),
        ({"lower": -0.1}, "lower"),
        ({"mode": "magic"}, "mode"),
    ],
)
def test_bad_configuration_is_refused(kwargs: dict[str, object], path: str) -> None:
    with pytest.raises(assay.AssayError) as caught:
        CragRouter(**kwargs)  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", path)


def test_unknown_scorer_name() -> None:
    with pytest.raises(assay.AssayError) as caught:
        CragRouter("paper", scorer="metric:does_not_exist", registry=assay.build_registry())
    assert caught.value.code == "UNKNOWN_NAME"


def test_chunks_ranked_by_rerank_score_feed_the_composite() -> None:
    qi = QualityInput(
        "Who painted the Mona Lisa?",
        [RankedChunk("Leonardo da Vinci painted the Mona Lisa.", "d1", 0.9, rerank_score=0.95)],
        AssembledContext("Leonardo da Vinci painted the Mona Lisa.", 8),
    )
    result = CragRouter("composite").classify(qi)
    assert result.quality is not None and result.score == result.quality.overall


def test_refiner_is_pluggable(france: QualityInput) -> None:
    from assay_crag.actions import KnowledgeStrip, RefinedContext

    def first_sentences(query, documents, scorer, top_k):  # type: ignore[no-untyped-def]
        strips = [KnowledgeStrip(i, 0, d.split(". ")[0], 1.0) for i, d in enumerate(documents)]
        return RefinedContext(
            " | ".join(s.text for s in strips[:top_k]), strips[:top_k], len(documents)
        )

    router = CragRouter(
        quality=FixedQuality(0.9), refine=True, refine_top_k=1, refiner=first_sentences
    )
    refined = router.classify(france).action.refined_context
    assert refined is not None and refined.text == "Paris is the capital of France"


def test_hook_module_imports_nothing_heavy() -> None:
    import subprocess
    import sys

    code = (
        "import sys, assay_crag.plugin; "
        "print(sorted(m for m in ('numpy', 'scipy', 'assay_calibration.drift') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
