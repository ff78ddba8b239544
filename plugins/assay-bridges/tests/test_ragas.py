import math
from types import SimpleNamespace

import pytest

import assay
from assay_bridges import MetricMapping, WarningCode, from_ragas, from_ragas_row


class FrameLike:
    """A stand-in for a pandas DataFrame: only ``to_dict(orient="records")``."""

    def __init__(self, records):
        self.records = records

    def to_dict(self, orient):
        assert orient == "records"
        return self.records


def test_real_non_llm_metrics_map_to_nothing_by_default(ragas_outputs):
    evaluation = SimpleNamespace(scores=ragas_outputs["evaluate"]["scores"])
    results = from_ragas(evaluation)
    assert len(results) == 5
    for result in results:
        assert result.signals.is_empty()
        assert [w.code for w in result.warnings] == [WarningCode.UNMAPPED] * 10
        assert {w.severity for w in result.warnings} == {"info"}
    assert results[0].warnings[6].path == "rouge_score(mode=fmeasure)"


def test_real_to_pandas_records_with_a_user_mapping(ragas_outputs):
    records = ragas_outputs["evaluate"]["to_pandas"]["records"]
    results = from_ragas(
        FrameLike(records),
        metrics={
            "rouge_score(mode=fmeasure)": "answerRelevanceScore",
            "non_llm_string_similarity": MetricMapping("faithfulnessScore"),
        },
    )
    assert [r.sample_id for r in results] == [s["user_input"] for s in ragas_outputs["samples"]]
    assert [r.signals.answer_relevance_score for r in results] == [1.0, 0.0, 1.0, 0.0, 1.0]
    assert results[1].signals.faithfulness_score == pytest.approx(0.07547169811320753)
    assert results[1].sources == {
        "faithfulnessScore": "non_llm_string_similarity",
        "answerRelevanceScore": "rouge_score(mode=fmeasure)",
    }
    # sample columns (user_input, contexts, ids, response, reference) are never metrics
    assert {w.path for w in results[0].warnings}.isdisjoint(
        {"user_input", "response", "reference", "retrieved_contexts"}
    )
    assert len(results[0].warnings) == 8


def test_nan_is_not_provided_never_zero(ragas_outputs):
    row = dict(ragas_outputs["evaluate"]["scores"][0], faithfulness=math.nan, answer_relevancy=0.8)
    result = from_ragas_row(row)
    assert result.signals.faithfulness_score is None
    assert result.signals.answer_relevance_score == 0.8
    undetermined = [w for w in result.warnings if w.code == WarningCode.UNDETERMINED]
    assert [(w.path, w.severity) for w in undetermined] == [("faithfulness", "warn")]


def test_none_cell_counts_only_for_mapped_metrics():
    result = from_ragas_row({"faithfulness": None, "reference": None, "context_recall": None})
    assert [(w.code, w.path) for w in result.warnings] == [
        (WarningCode.UNDETERMINED, "faithfulness")
    ]


def test_collections_metric_results_by_value(ragas_outputs):
    collections = ragas_outputs["collections_ascore_sample1"]
    row = {name: collections[name] for name in ("exact_match", "chrf_score")}
    result = from_ragas_row(row, metrics={"chrf_score": "answerRelevanceScore"})
    assert result.signals.answer_relevance_score == pytest.approx(0.07831589605129936)
    objects = {"faithfulness": SimpleNamespace(value=0.75, reason=None)}
    assert from_ragas_row(objects).signals.faithfulness_score == 0.75


def test_legacy_single_turn_values(ragas_outputs):
    legacy = ragas_outputs["legacy_single_turn_ascore_sample1"]
    row = {name: entry["value"] for name, entry in legacy.items()}
    result = from_ragas_row(row, metrics={"string_present": "citationCoverageScore"})
    assert result.signals.to_wire() == {"citationCoverageScore": 0.0}


def test_a_default_mapping_can_be_removed():
    result = from_ragas_row({"faithfulness": 0.9}, metrics={"faithfulness": None})
    assert result.signals.is_empty()
    assert result.warnings[0].code == WarningCode.UNMAPPED


def test_first_metric_wins_a_signal():
    result = from_ragas_row({"faithfulness": 0.9, "nv_response_groundedness": 0.5})
    assert result.signals.faithfulness_score == 0.9
    assert [(w.code, w.path) for w in result.warnings] == [
        (WarningCode.DUPLICATE, "nv_response_groundedness")
    ]


def test_bad_shapes_raise_malformed_input():
    with pytest.raises(assay.AssayError) as caught:
        from_ragas([{"faithfulness": 0.9}, "nope"])
    assert (caught.value.code, caught.value.path) == ("MALFORMED_INPUT", "[1]")
    with pytest.raises(assay.AssayError) as caught:
        from_ragas(42)
    assert (caught.value.code, caught.value.path) == ("MALFORMED_INPUT", "result")


def test_evaluation_result_samples_name_the_rows(ragas_outputs):
    samples = [SimpleNamespace(**sample) for sample in ragas_outputs["samples"]]
    evaluation = SimpleNamespace(
        scores=ragas_outputs["evaluate"]["scores"], dataset=SimpleNamespace(samples=samples)
    )
    results = from_ragas(evaluation, metrics={"exact_match": "answerRelevanceScore"})
    assert [r.sample_id for r in results] == [s.user_input for s in samples]
    assert [r.signals.answer_relevance_score for r in results] == [1.0, 0.0, 1.0, 0.0, 1.0]
    unmatched = SimpleNamespace(
        scores=evaluation.scores, dataset=SimpleNamespace(samples=samples[:2])
    )
    assert all(r.sample_id is None for r in from_ragas(unmatched))


def test_an_evaluation_result_written_as_json_is_read_by_its_scores(ragas_outputs):
    evaluate = ragas_outputs["evaluate"]  # type, repr, scores, to_pandas, ... as serialized
    results = from_ragas(evaluate, metrics={"rouge_score(mode=fmeasure)": "answerRelevanceScore"})
    assert len(results) == len(evaluate["scores"]) == 5
    assert [r.signals.answer_relevance_score for r in results] == [
        row["rouge_score(mode=fmeasure)"] for row in evaluate["scores"]
    ]


def test_input_with_no_metric_is_refused_saying_what_was_found_and_where_results_are(
    ragas_outputs,
):
    with pytest.raises(assay.AssayError) as caught:
        from_ragas(ragas_outputs)  # the whole file: results wrapped in other keys
    error = caught.value
    assert (error.code, error.path) == ("MALFORMED_INPUT", "result")
    assert "found no RAGAS metric in an object with keys ragas_version, samples_source" in (
        error.message
    )
    assert "results were found under evaluate," in error.message
    with pytest.raises(assay.AssayError) as caught:
        from_ragas(ragas_outputs["samples"])  # the samples, without their scores
    assert "found no RAGAS metric in a list of 5 items" in caught.value.message
