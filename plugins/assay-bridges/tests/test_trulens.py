import math

import pytest

import assay
from assay_bridges import (
    MetricMapping,
    WarningCode,
    from_trulens,
    from_trulens_feedback,
    from_trulens_row,
)

IN_CONTEXT = {"answer_in_context": "faithfulnessScore"}


def test_real_otel_row_with_direction_column(trulens_outputs):
    row = trulens_outputs["otel"]["get_records_and_feedback"]["row_for_sample1"]
    result = from_trulens_row(row, metrics=IN_CONTEXT)
    assert result.signals.faithfulness_score == pytest.approx(2 / 3)
    assert result.sample_id == row["record_id"]
    # token_overlap is a feedback column (it has token_overlap_calls) but has no signal
    assert [(w.code, w.path) for w in result.warnings] == [(WarningCode.UNMAPPED, "token_overlap")]


def test_direction_column_contradicting_the_mapping(trulens_outputs):
    row = dict(trulens_outputs["otel"]["get_records_and_feedback"]["row_for_sample1"])
    row["answer_in_context direction"] = False
    result = from_trulens_row(row, metrics=IN_CONTEXT)
    assert result.signals.is_empty()
    assert WarningCode.DIRECTION_CONFLICT in [w.code for w in result.warnings]
    inferred = from_trulens_row(
        row, metrics={"answer_in_context": MetricMapping("faithfulnessScore", direction="infer")}
    )
    assert inferred.signals.faithfulness_score == pytest.approx(1 / 3)


def test_real_legacy_scores_with_pending_nan(trulens_outputs):
    legacy = trulens_outputs["legacy"]["get_records_and_feedback"]
    pair = (legacy["scores"], legacy["feedback_names"])
    results = from_trulens(pair, metrics={**IN_CONTEXT, "token_overlap": "answerRelevanceScore"})
    assert math.isnan(legacy["scores"][0]["answer_in_context"])
    assert results[0].signals.is_empty()
    assert [(w.code, w.path) for w in results[0].warnings] == [
        (WarningCode.UNDETERMINED, "token_overlap"),
        (WarningCode.UNDETERMINED, "answer_in_context"),
    ]
    assert results[1].signals.to_wire() == {
        "faithfulnessScore": 0.0,
        "answerRelevanceScore": 0.8333333333333334,
    }


def test_rag_triad_names_map_by_default():
    row = {
        "Groundedness": 0.9,
        "Groundedness_calls": [],
        "Answer Relevance": 0.7,
        "Answer Relevance_calls": [],
        "Context Relevance": 0.4,
        "Context Relevance_calls": [],
    }
    result = from_trulens_row(row)
    assert result.signals.to_wire() == {"faithfulnessScore": 0.9, "answerRelevanceScore": 0.7}
    assert [w.path for w in result.warnings] == ["Context Relevance"]


def test_likert_feedback_is_rescaled():
    row = {"groundedness": 2.0, "groundedness_calls": []}
    result = from_trulens_row(
        row, metrics={"groundedness": MetricMapping("faithfulnessScore", scale=(0, 3))}
    )
    assert result.signals.faithfulness_score == pytest.approx(2 / 3)
    too_high = from_trulens_row(
        {"groundedness": 4, "groundedness_calls": []},
        metrics={"groundedness": MetricMapping("faithfulnessScore", scale=(0, 3))},
    )
    assert [w.code for w in too_high.warnings] == [WarningCode.OUT_OF_RANGE]


def test_real_legacy_feedback_results(trulens_outputs):
    items = trulens_outputs["legacy"]["wait_for_feedback_results"]["items"]
    results = [item["result"] for item in items]
    result = from_trulens_feedback(results, metrics={"token_overlap": "faithfulnessScore"})
    assert result.signals.faithfulness_score == pytest.approx(2 / 3)
    assert result.sample_id == results[0]["record_id"]
    assert [w.path for w in result.warnings] == ["answer_in_context"]


def test_failed_and_pending_feedback():
    result = from_trulens_feedback(
        {
            "feedback-a": {
                "name": "Groundedness",
                "status": "failed",
                "result": None,
                "error": "provider error",
            },
            "feedback-b": {"name": "Answer Relevance", "status": "running", "result": None},
        }
    )
    assert result.signals.is_empty()
    assert [w.code for w in result.warnings] == [WarningCode.FAILED, WarningCode.UNDETERMINED]


def test_bad_shapes_raise():
    with pytest.raises(assay.AssayError) as caught:
        from_trulens([{"groundedness": 0.3}, 5])
    assert (caught.value.code, caught.value.path) == ("MALFORMED_INPUT", "[1]")
    with pytest.raises(assay.AssayError) as caught:
        from_trulens_feedback(3)
    assert caught.value.code == "MALFORMED_INPUT"


def test_a_summary_that_is_not_a_trulens_shape_names_what_was_found(trulens_outputs):
    summary = trulens_outputs["otel"]["get_records_and_feedback"]
    with pytest.raises(assay.AssayError) as caught:
        from_trulens(summary)
    error = caught.value
    assert (error.code, error.path) == ("MALFORMED_INPUT", "[0]")
    assert "found an object with keys feedback_names, columns, dtypes" in error.message
    assert "expected get_records_and_feedback()'s records" in error.message
    assert (
        "TruLens results were found under row_for_sample1, scores: pass that part "
        "(on the command line: --path row_for_sample1)"
    ) in error.message
    assert "--map c=SIGNAL on the command line" in error.message
    # and that part is read
    (result,) = from_trulens(summary["row_for_sample1"], metrics=IN_CONTEXT)
    assert result.signals.faithfulness_score == pytest.approx(2 / 3)
    with pytest.raises(assay.AssayError) as caught:
        from_trulens(trulens_outputs["legacy"]["wait_for_feedback_results"])
    assert "found an object with keys type, items" in caught.value.message


def test_a_mapped_column_of_the_real_scores_table_is_read(trulens_outputs):
    # the records-and-feedback table as JSON: {input, token_overlap, answer_in_context} rows,
    # no *_calls columns; a column the caller maps is a feedback column
    scores = trulens_outputs["otel"]["get_records_and_feedback"]["scores"]
    results = from_trulens(scores, metrics=IN_CONTEXT)
    assert [r.signals.faithfulness_score for r in results] == pytest.approx(
        [row["answer_in_context"] for row in scores]
    )
    assert all(r.warnings == () for r in results)
    assert from_trulens_row(scores[1], metrics=IN_CONTEXT).signals.faithfulness_score == (
        pytest.approx(2 / 3)
    )
    with pytest.raises(assay.AssayError) as caught:  # unmapped, it asks for a mapping
        from_trulens(scores)
    assert "--map c=SIGNAL" in caught.value.message


def test_a_default_name_without_calls_column_is_read():
    (result,) = from_trulens([{"record_id": "r", "groundedness": 0.4, "judge_rating": 2}])
    assert result.signals.faithfulness_score == pytest.approx(0.4)
    assert result.warnings == ()
