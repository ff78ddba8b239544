import pytest

import assay
from assay_bridges import (
    BridgeResult,
    EvaluationSignals,
    from_custom_judge,
    from_ragas_row,
    merge_evaluation_signals,
)

INPUTS = {"supportLevel": "high", "candidates": [], "faithfulnessScore": 0.4}


def test_record_signals_fill_only_gaps_and_keep_specification_order():
    signals = from_custom_judge(
        {"hasConflict": False, "faithfulnessScore": 0.99, "totalClaims": 3, "supportedClaims": 3}
    )
    merged = merge_evaluation_signals(INPUTS, signals)
    assert merged.inputs == {
        "supportLevel": "high",
        "candidates": [],
        "faithfulnessScore": 0.4,
        "claimSupport": {"totalClaims": 3, "supportedClaims": 3},
        "hasConflict": False,
    }
    assert merged.filled == ("claimSupport", "hasConflict")
    assert INPUTS == {"supportLevel": "high", "candidates": [], "faithfulnessScore": 0.4}


def test_bridge_warnings_are_carried_into_the_merge():
    bridged = from_ragas_row({"faithfulness": float("nan"), "answer_relevancy": 0.7})
    merged = merge_evaluation_signals(INPUTS, bridged)
    assert merged.inputs["answerRelevanceScore"] == 0.7
    assert merged.inputs["faithfulnessScore"] == 0.4
    assert [w.path for w in merged.warnings] == ["faithfulness"]
    assert merged.to_wire()["warnings"][0]["code"] == "evaluator-metric-undetermined"


def test_none_signal_values_are_absent():
    merged = merge_evaluation_signals(INPUTS, {"answerRelevanceScore": None, "citationCount": 2})
    assert "answerRelevanceScore" not in merged.inputs
    assert merged.inputs["citationCount"] == 2


@pytest.mark.parametrize(
    ("inputs", "signals", "path"),
    [
        ([], EvaluationSignals(), "inputs"),
        ({"supportLevel": "high"}, EvaluationSignals(), "candidates"),
        ({"candidates": "abc"}, EvaluationSignals(), "candidates"),
        ({"candidates": []}, 0.5, "signals"),
    ],
)
def test_malformed_merges_raise(inputs, signals, path):
    with pytest.raises(assay.AssayError) as caught:
        merge_evaluation_signals(inputs, signals)
    assert (caught.value.code, caught.value.path) == ("MALFORMED_INPUT", path)


def test_signals_from_wire_values_rejects_unknown_keys():
    signals = EvaluationSignals.from_wire_values({"faithfulnessScore": 0.5})
    assert merge_evaluation_signals({"candidates": []}, BridgeResult(signals)).filled == (
        "faithfulnessScore",
    )
    with pytest.raises(assay.AssayError) as caught:
        EvaluationSignals.from_wire_values({"contextPrecision": 0.5})
    assert (caught.value.code, caught.value.path) == ("INVALID_INPUT", "contextPrecision")


def test_a_bridged_signal_the_caller_set_is_reported_not_used():
    bridged = from_ragas_row({"faithfulness": 0.99, "answer_relevancy": 0.7})
    merged = merge_evaluation_signals(INPUTS, bridged)
    assert merged.inputs["faithfulnessScore"] == 0.4
    assert merged.filled == ("answerRelevanceScore",)
    assert [(w.code, w.severity, w.path) for w in merged.warnings] == [
        ("evaluator-signal-caller-set", "info", "faithfulnessScore")
    ]
    assert "'faithfulness'" in merged.warnings[0].message
