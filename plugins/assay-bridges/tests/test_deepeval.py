import json
from types import SimpleNamespace

import pytest

import assay
from assay_bridges import (
    MetricMapping,
    WarningCode,
    from_deepeval,
    from_deepeval_metrics,
    from_deepeval_test_result,
    read_deepeval_test_run,
)
from assay_bridges.deepeval import stated_direction

TOKEN_RECALL = {"Token Recall (assay)": "faithfulnessScore"}


def test_real_evaluation_result_objects(deepeval_outputs):
    test_results = [
        SimpleNamespace(**test_result)
        for test_result in deepeval_outputs["evaluate"]["test_results"]
    ]
    results = from_deepeval(SimpleNamespace(test_results=test_results), metrics=TOKEN_RECALL)
    assert [r.sample_id for r in results] == [f"halueval_{i}" for i in range(5)]
    assert [r.signals.faithfulness_score for r in results] == pytest.approx(
        [1.0, 2 / 3, 0.0, 0.0, 1.0]
    )
    assert [w.path for w in results[0].warnings] == ["Exact Match", "Pattern Match"]
    assert {w.code for w in results[0].warnings} == {WarningCode.UNMAPPED}


def test_real_test_results_as_dicts_without_mapping(deepeval_outputs):
    results = from_deepeval(deepeval_outputs["evaluate"]["test_results"])
    assert all(r.signals.is_empty() for r in results)
    assert all(len(r.warnings) == 3 for r in results)


def test_real_faithfulness_metric_data_lists(deepeval_outputs):
    results = from_deepeval(deepeval_outputs["evaluate_faithfulness_with_standin_judge"])
    assert [r.signals.faithfulness_score for r in results] == [1.0, 1.0, 0.0, 0.0, 1.0]
    assert all(r.warnings == () for r in results)
    assert results[0].sources == {"faithfulnessScore": "Faithfulness"}


def test_a_measured_metric_object(deepeval_outputs):
    standin = deepeval_outputs["faithfulness_with_standin_judge_sample1"]
    metric = SimpleNamespace(__name__=standin["__name__"], **standin["attrs"])
    result = from_deepeval_metrics([metric], sample_id="sample1")
    assert (result.signals.faithfulness_score, result.sample_id) == (1.0, "sample1")


def test_latest_test_run_file(deepeval_outputs, tmp_path):
    # The file wraps TestRun under "testRunData"; test cases carry MetricData by alias.
    cases = [
        {"name": tr["name"], "input": tr["input"], "metricsData": tr["metrics_data_by_alias"]}
        for tr in deepeval_outputs["evaluate"]["test_results"]
    ]
    for case, metric_data in zip(
        cases, deepeval_outputs["evaluate_faithfulness_with_standin_judge"], strict=True
    ):
        case["metricsData"] = case["metricsData"] + metric_data
    path = tmp_path / ".deepeval" / ".latest_test_run.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"testRunData": {"testCases": cases}, "testRunLink": None}))
    results = read_deepeval_test_run(path)
    assert [r.sample_id for r in results] == [f"halueval_{i}" for i in range(5)]
    assert [r.signals.faithfulness_score for r in results] == [1.0, 1.0, 0.0, 0.0, 1.0]
    assert [w.path for w in results[0].warnings] == ["Exact Match"]


def test_latest_test_run_errors(tmp_path):
    with pytest.raises(assay.AssayError) as caught:
        read_deepeval_test_run(tmp_path / "missing.json")
    assert caught.value.code == "IO_ERROR"
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(assay.AssayError) as caught:
        read_deepeval_test_run(tmp_path / "bad.json")
    assert caught.value.code == "MALFORMED_INPUT"
    (tmp_path / "other.json").write_text('{"testRunData": {}}')
    with pytest.raises(assay.AssayError) as caught:
        read_deepeval_test_run(tmp_path / "other.json")
    assert (caught.value.code, caught.value.path) == ("MALFORMED_INPUT", "testRunData.testCases")


@pytest.mark.parametrize(
    ("record", "faithfulness"),
    [
        # LLM-judge era: share of contradicted contexts, passes when score <= threshold
        ({"score": 0.25, "threshold": 0.5, "success": True}, 0.75),
        ({"score": 0.75, "threshold": 0.5, "success": False}, 0.25),
        # higher-is-better scoring: passes when score >= threshold
        ({"score": 0.75, "threshold": 0.5, "success": True}, 0.75),
        ({"score": 0.25, "threshold": 0.5, "success": False}, 0.25),
    ],
)
def test_hallucination_direction_is_inferred_from_the_verdict(record, faithfulness):
    result = from_deepeval_metrics([{"name": "Hallucination", **record}])
    assert result.signals.faithfulness_score == pytest.approx(faithfulness)
    assert result.warnings == ()


def test_hallucination_direction_unknown_at_a_tie():
    result = from_deepeval_metrics(
        [{"name": "Hallucination", "score": 0.5, "threshold": 0.5, "success": True}]
    )
    assert result.signals.is_empty()
    assert [w.code for w in result.warnings] == [WarningCode.DIRECTION_UNKNOWN]
    decided = from_deepeval_metrics(
        [{"name": "Hallucination", "score": 0.5, "threshold": 0.5, "success": True}],
        metrics={"Hallucination": MetricMapping("faithfulnessScore", direction="lower")},
    )
    assert decided.signals.faithfulness_score == 0.5


def test_a_mapping_that_contradicts_the_record_is_not_used():
    result = from_deepeval_metrics(
        [{"name": "Hallucination", "score": 0.2, "threshold": 0.5, "success": True}],
        metrics={"hallucination": MetricMapping("faithfulnessScore", direction="higher")},
    )
    assert result.signals.is_empty()
    assert [w.code for w in result.warnings] == [WarningCode.DIRECTION_CONFLICT]


def test_failed_and_unscored_metrics_are_not_provided():
    result = from_deepeval_metrics(
        [
            {"name": "Faithfulness", "score": None, "success": False, "error": "judge timed out"},
            {"name": "Answer Relevancy", "score": None, "threshold": 0.5, "success": None},
        ]
    )
    assert result.signals.is_empty()
    assert [(w.code, w.path) for w in result.warnings] == [
        (WarningCode.FAILED, "Faithfulness"),
        (WarningCode.UNDETERMINED, "Answer Relevancy"),
    ]
    assert "judge timed out" in result.warnings[0].message


def test_test_result_without_metrics_yields_nothing():
    result = from_deepeval_test_result({"name": "t", "metrics_data": None})
    assert result.signals.is_empty() and result.warnings == () and result.sample_id == "t"


def test_stated_direction_needs_a_verdict():
    assert stated_direction(0.9, 0.5, True) is True
    assert stated_direction(0.9, 0.5, None) is None
    assert stated_direction(float("nan"), 0.5, True) is None


def test_unknown_shape_raises():
    with pytest.raises(assay.AssayError) as caught:
        from_deepeval({"name": "no metrics"})
    assert caught.value.code == "MALFORMED_INPUT"


def test_a_wrapping_file_names_where_the_results_are(deepeval_outputs):
    with pytest.raises(assay.AssayError) as caught:
        from_deepeval(deepeval_outputs)
    message = caught.value.message
    assert "found an object with keys deepeval_version" in message
    assert "DeepEval results were found under evaluate" in message
    assert "(on the command line: --path evaluate)" in message
