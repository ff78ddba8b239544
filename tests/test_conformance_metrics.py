"""Conformance of assay-faithfulness with the reference's vectors in shared/conformance/metrics/.

primitives.jsonl (340 calls) and samples.jsonl (2,464 metric calls) must match exactly; inside
batches.jsonl (owned by the evaluation runner's tests) every per-sample metric result is checked
too, on the fields a metric produces (score, explanation, signals, mode, llmCalls).
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from shared_data import shared_path

import assay
import assay_faithfulness as af


def _read(name: str) -> list[dict[str, Any]]:
    # Split on "\n" only: the vectors hold U+2028 / U+0085 that str.splitlines() would break on.
    text = shared_path("conformance", "metrics", name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.split("\n") if line]


def _same(got: Any, expected: Any) -> bool:
    """Deep equality with numbers compared to 1e-12 (they are in fact bit-identical)."""
    if isinstance(expected, bool) or expected is None or isinstance(expected, str):
        return got == expected and type(got) is type(expected)
    if isinstance(expected, int | float):
        return (
            isinstance(got, int | float)
            and not isinstance(got, bool)
            and math.isclose(got, expected, rel_tol=0, abs_tol=1e-12)
        )
    if isinstance(expected, list):
        return (
            isinstance(got, list | tuple)
            and len(got) == len(expected)
            and all(_same(g, e) for g, e in zip(got, expected, strict=True))
        )
    if isinstance(expected, dict):
        return (
            isinstance(got, dict)
            and got.keys() == expected.keys()
            and all(_same(got[k], v) for k, v in expected.items())
        )
    raise TypeError(type(expected))


def _tfidf_wire(query: str, documents: list[str]) -> dict[str, Any]:
    query_vector, document_vectors = af.build_tfidf_vectors(query, documents)
    return {
        "queryVec": [list(item) for item in query_vector.items()],
        "docVecs": [[list(item) for item in vector.items()] for vector in document_vectors],
    }


PRIMITIVES = {
    "tokenize": af.tokenize,
    "splitSentences": af.split_sentences,
    "filterFactualSentences": af.filter_factual_sentences,
    "getNgrams": af.get_ngrams,
    "ngramOverlap": af.ngram_overlap,
    "weightedNgramOverlap": af.weighted_ngram_overlap,
    "tfidfSimilarity": af.tfidf_similarity,
    "tokenF1": af.token_f1,
    "buildTfIdfVectors": _tfidf_wire,
    "cosineSimilarity": lambda a, b: af.cosine_similarity(dict(a), dict(b)),
}

SCORE_FUNCTIONS = {
    "scoreFaithfulness": "faithfulness",
    "scoreAnswerRelevance": "answerRelevance",
    "scoreContextPrecision": "contextPrecision",
    "scoreContextRecall": "contextRecall",
    "scoreContextRelevance": "contextRelevance",
    "scoreAnswerCorrectness": "answerCorrectness",
    "scoreHallucinationRate": "hallucinationRate",
}


def _sample(wire: dict[str, Any]) -> assay.EvalSample:
    return assay.EvalSample(
        question=wire["question"],
        answer=wire["answer"],
        contexts=wire["contexts"],
        ground_truth=wire.get("groundTruth"),
        id=wire.get("id"),
    )


def _metric_call(vector: dict[str, Any]) -> dict[str, Any]:
    args = list(vector["args"])
    wire_id = args.pop(0) if vector["fn"] == "computeMetric" else SCORE_FUNCTIONS[vector["fn"]]
    options = args[1] if len(args) > 1 else None
    metric = af.get_metric(wire_id)
    context = af.SimpleMetricContext({"heuristic": options} if options else None)
    return af.result_to_wire(metric.compute(_sample(args[0]), context, metric.default_threshold))


def test_every_primitive_vector_matches() -> None:
    vectors = _read("primitives.jsonl")
    failures = [
        v["id"] for v in vectors if not _same(PRIMITIVES[v["fn"]](*v["args"]), v["expected"])
    ]
    assert len(vectors) == 340
    assert failures == []


def test_every_sample_vector_matches() -> None:
    vectors = _read("samples.jsonl")
    failures = [v["id"] for v in vectors if not _same(_metric_call(v), v["expected"])]
    assert len(vectors) == 2464
    assert failures == []


def test_sample_scores_are_bit_identical() -> None:
    # Stronger than the 1e-12 tolerance: the exact same binary64 value for every score.
    for vector in _read("samples.jsonl"):
        expected = vector["expected"]["score"]
        got = _metric_call(vector)["score"]
        assert (got is None and expected is None) or float(got) == float(expected), vector["id"]


METRIC_FIELDS = ("metricId", "score", "mode", "explanation", "signals", "llmCalls")


def test_per_sample_metric_results_inside_batches_match() -> None:
    checked = 0
    for vector in _read("batches.jsonl"):
        if "expected" not in vector:
            continue
        expected = vector["expected"]
        results = expected.get("results", [expected])
        options = (vector["args"][2] if len(vector["args"]) > 2 else None) or {}
        heuristic = options.get("heuristic")
        for result in results:
            sample = _sample(result["sample"])
            for wire_id, metric_result in result["metrics"].items():
                metric = af.get_metric(wire_id)
                context = af.SimpleMetricContext({"heuristic": heuristic} if heuristic else None)
                got = af.result_to_wire(metric.compute(sample, context, metric.default_threshold))
                for field in METRIC_FIELDS:
                    assert _same(got[field], metric_result[field]), (vector["id"], wire_id, field)
                checked += 1
    assert checked > 400


@pytest.mark.parametrize(
    ("value", "text"), [(0.0625, "0.063"), (0.3125, "0.313"), (0.5625, "0.563"), (1 / 3, "0.333")]
)
def test_ratios_print_like_javascript_to_fixed(value: float, text: str) -> None:
    from assay_faithfulness.jsnumbers import to_fixed3

    assert to_fixed3(value) == text
