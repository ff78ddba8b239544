"""Behaviour of the seven metrics: tri-state results, thresholds, signals, options, sharing."""

from typing import Any

import pytest

import assay
import assay_faithfulness as af

SAMPLE = assay.EvalSample(
    question="What is retrieval-augmented generation?",
    answer="RAG combines retrieval with generation. Dinosaurs are extinct.",
    contexts=(
        "Retrieval-augmented generation (RAG) combines information retrieval with text generation.",
    ),
    ground_truth="RAG retrieves documents and uses them to generate answers.",
)


class CountingContext(af.SimpleMetricContext):
    """Counts how often each shared key is computed."""

    def __init__(self, options: Any = None) -> None:
        super().__init__(options)
        self.computed: list[str] = []

    def shared(self, key: str, compute: Any) -> Any:
        def counted() -> Any:
            self.computed.append(key)
            return compute()

        return super().shared(key, counted)


def test_scores_every_default_metric_in_order() -> None:
    results = af.score_sample(SAMPLE)
    assert list(results) == list(af.DEFAULT_METRIC_IDS)
    for result in results.values():
        assert 0.0 <= result.score <= 1.0
        assert result.passed is (result.score >= result.threshold)
        assert result.explanation


def test_hallucination_rate_flags_the_unsupported_sentence() -> None:
    result = af.score_sample(SAMPLE, ["hallucination_rate"])["hallucination_rate"]
    assert result.score == 0.5
    assert [s.evidence for s in result.signals] == ["Dinosaurs are extinct."]
    assert result.signals[0].severity == "error"
    assert result.details["signal_ids"] == ["hallucination-unsupported-1"]
    wire = af.result_to_wire(result)
    assert wire["signals"][0]["severity"] == "critical"
    assert wire["signals"][0]["id"] == "hallucination-unsupported-1"


def test_missing_ground_truth_is_undetermined_not_a_failure() -> None:
    sample = assay.EvalSample(question="q?", answer="An answer.", contexts=("ctx",))
    for metric_id in ("context_recall", "answer_correctness"):
        result = af.score_sample(sample, [metric_id])[metric_id]
        assert result.score is None
        assert result.passed is None
        assert "groundTruth is required" in result.explanation


def test_empty_string_ground_truth_counts_as_missing_but_whitespace_does_not() -> None:
    empty = assay.EvalSample(question="q", answer="a", contexts=("c",), ground_truth="")
    blank = assay.EvalSample(question="q", answer="a", contexts=("c",), ground_truth="  ")
    assert af.score_sample(empty, ["context_recall"])["context_recall"].score is None
    assert af.score_sample(blank, ["context_recall"])["context_recall"].score == 0.0


def test_empty_contexts_score_zero_as_in_the_reference() -> None:
    sample = assay.EvalSample(question="q?", answer="Some answer here.", contexts=())
    for metric_id in ("faithfulness", "context_precision", "context_relevance"):
        result = af.score_sample(sample, [metric_id])[metric_id]
        assert (result.score, result.passed) == (0.0, False)


def test_threshold_decides_pass_inclusively() -> None:
    score = af.score_sample(SAMPLE, ["faithfulness"])["faithfulness"].score
    at = af.score_sample(SAMPLE, ["faithfulness"], thresholds={"faithfulness": score})
    above = af.score_sample(SAMPLE, ["faithfulness"], thresholds={"faithfulness": score + 1e-9})
    assert at["faithfulness"].passed is True
    assert above["faithfulness"].passed is False


def test_heuristic_options_change_the_metrics_that_read_them() -> None:
    strict = {"heuristic": {"claimSupportThreshold": 1.0}}
    result = af.score_sample(SAMPLE, ["hallucination_rate"], options=strict)
    assert result["hallucination_rate"].score == 0.0
    snake = {"heuristic": {"claim_support_threshold": 1.0}}
    assert af.score_sample(SAMPLE, ["hallucination_rate"], options=snake) == result
    relevance = af.score_sample(
        SAMPLE, ["context_relevance"], options={"heuristic": {"chunkRelevanceThreshold": 0}}
    )["context_relevance"]
    assert relevance.score == 1.0
    assert "(>= 0)" in relevance.explanation


def test_per_sample_work_is_computed_once_across_metrics() -> None:
    context = CountingContext()
    for metric in af.DEFAULT_METRICS:
        metric.compute(SAMPLE, context, metric.default_threshold)
    assert context.computed == ["assay_faithfulness.analysis"]


def test_a_context_reused_for_another_sample_does_not_leak_its_analysis() -> None:
    context = af.SimpleMetricContext()
    metric = af.get_metric("answer_relevance")
    first = metric.compute(SAMPLE, context, 0.7)
    other = assay.EvalSample(question="Who wrote Hamlet?", answer="Shakespeare wrote Hamlet.")
    second = metric.compute(other, context, 0.7)
    assert second == af.score_sample(other, ["answer_relevance"])["answer_relevance"]
    assert second.score != first.score


def test_results_do_not_depend_on_the_text_cache() -> None:
    from assay_faithfulness.features import clear_text_cache

    clear_text_cache()
    cold = af.score_sample(SAMPLE)
    warm = af.score_sample(SAMPLE)
    assert cold == warm


@pytest.mark.parametrize(
    ("sample", "code", "path"),
    [
        (assay.EvalSample(question="q", answer=None), "MISSING_ANSWER", "answer"),  # type: ignore[arg-type]
        (assay.EvalSample(question="q", answer=3), "MISSING_ANSWER", "answer"),  # type: ignore[arg-type]
        (
            assay.EvalSample(question="q", answer="a", contexts=("ok", 7)),  # type: ignore[arg-type]
            "INVALID_CONTEXTS",
            "contexts[1]",
        ),
        (assay.EvalSample(question=None, answer="a"), "INVALID_SAMPLE", "question"),  # type: ignore[arg-type]
        (
            assay.EvalSample(question="q", answer="a", ground_truth=5),  # type: ignore[arg-type]
            "INVALID_SAMPLE",
            "groundTruth",
        ),
    ],
)
def test_bad_samples_raise_coded_errors(sample: assay.EvalSample, code: str, path: str) -> None:
    with pytest.raises(assay.AssayError) as caught:
        af.score_sample(sample)
    assert (caught.value.code, caught.value.path) == (code, path)


@pytest.mark.parametrize("threshold", [-0.1, 1.5, float("nan"), True, "0.5"])
def test_thresholds_outside_unit_interval_are_refused(threshold: Any) -> None:
    metric = af.get_metric("faithfulness")
    with pytest.raises(assay.AssayError) as caught:
        metric.compute(SAMPLE, af.SimpleMetricContext(), threshold)
    assert caught.value.code == "INVALID_THRESHOLD"
    assert caught.value.path == "thresholds.faithfulness"


@pytest.mark.parametrize(
    ("heuristic", "path"),
    [
        ({"ngramSize": [1]}, "heuristic.ngramSize"),
        ({"ngramSizes": [1, -2]}, "heuristic.ngramSizes"),
        ({"ngramWeights": ["x"]}, "heuristic.ngramWeights"),
        ({"claimSupportThreshold": float("inf")}, "heuristic.claimSupportThreshold"),
    ],
)
def test_bad_heuristic_options_are_refused(heuristic: dict[str, Any], path: str) -> None:
    with pytest.raises(assay.AssayError) as caught:
        af.score_sample(SAMPLE, ["faithfulness"], options={"heuristic": heuristic})
    assert (caught.value.code, caught.value.path) == ("INVALID_OPTION", path)


def test_unknown_metric_id_is_refused() -> None:
    with pytest.raises(assay.AssayError) as caught:
        af.score_sample(SAMPLE, ["fluency"])
    assert caught.value.code == "UNKNOWN_METRIC"


def test_scoring_from_several_threads_gives_the_same_results() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from assay_faithfulness.features import clear_text_cache

    samples = [
        assay.EvalSample(
            question=f"What does item {i} do?",
            answer=f"Item {i} stores data. It was made in {1990 + i}. The cache is shared.",
            contexts=("Items store data in a shared cache.", f"Item {i} was made in {1990 + i}."),
        )
        for i in range(40)
    ]
    sequential = [af.score_sample(s) for s in samples]
    clear_text_cache()
    with ThreadPoolExecutor(max_workers=4) as pool:
        concurrent = list(pool.map(af.score_sample, samples))
    assert concurrent == sequential


def test_context_precision_of_one_question_with_changing_contexts() -> None:
    """The cosines kept for the last contexts of a question never serve other contexts, nor a
    list that changed since."""
    from assay_faithfulness.features import clear_text_cache, text_features

    question = "What is the capital of France?"
    first, second = ["Paris is the capital of France.", "Bananas are yellow."], ["Bananas."]

    def precision(contexts: list[str]) -> assay.MetricResult:
        sample = assay.EvalSample(question=question, answer="Paris.", contexts=contexts)
        return af.score_sample(sample, ["context_precision"])["context_precision"]

    expected = []
    for contexts in (first, second):
        clear_text_cache()
        expected.append(precision(contexts))
    assert expected[0].score != expected[1].score
    clear_text_cache()
    for _ in range(2):
        for contexts, want in zip((first, second), expected, strict=True):
            got = precision(contexts)
            assert (got.score, got.details) == (want.score, want.details)
    contexts = list(first)
    features = text_features(question)
    features.similarities(contexts, [text_features(c) for c in contexts])
    contexts[1] = "Paris, France."
    changed = features.similarities(contexts, [text_features(c) for c in contexts])
    assert changed[1] > 0.0
