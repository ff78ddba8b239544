import math
from fractions import Fraction

import pytest

import assay
from assay_bridges import MetricMapping, normalize_metric_name
from assay_bridges.extraction import SignalCollector, resolve_mappings


def test_normalized_names():
    assert normalize_metric_name(" Answer  Relevancy ") == "answer_relevancy"
    assert normalize_metric_name("nv-response-groundedness") == "nv_response_groundedness"
    assert normalize_metric_name("rouge_score(mode=fmeasure)") == "rouge_score(mode=fmeasure)"


@pytest.mark.parametrize(
    ("kwargs", "path"),
    [
        ({"signal": "hasConflict"}, "signal"),
        ({"signal": "faithfulnessScore", "scale": (3, 0)}, "scale"),
        ({"signal": "faithfulnessScore", "scale": (0, math.inf)}, "scale"),
        ({"signal": "faithfulnessScore", "scale": (0,)}, "scale"),
        ({"signal": "faithfulnessScore", "direction": "up"}, "direction"),
    ],
)
def test_invalid_mappings_raise_invalid_config(kwargs, path):
    with pytest.raises(assay.AssayError) as caught:
        MetricMapping(**kwargs)
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", path)


def test_normalize_scale_and_direction():
    likert = MetricMapping("faithfulnessScore", scale=(0, 3))
    assert likert.normalize(3, True) == 1.0
    assert likert.normalize(0, True) == 0.0
    assert likert.normalize(1, False) == pytest.approx(2 / 3)


def test_resolve_mappings_overrides_removes_and_validates():
    defaults = {"Faithfulness": MetricMapping("faithfulnessScore")}
    resolved = resolve_mappings(
        defaults, {"faithfulness": None, "Judge Score": "citationCoverageScore"}
    )
    assert resolved == {"judge_score": MetricMapping("citationCoverageScore")}
    with pytest.raises(assay.AssayError) as caught:
        resolve_mappings(defaults, {"x": "citationCount"})
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", "metrics.x")
    with pytest.raises(assay.AssayError) as caught:
        resolve_mappings(defaults, {"x": 0.5})
    assert caught.value.path == "metrics.x"


def test_collector_rejects_booleans_strings_and_infinities():
    collector = SignalCollector(
        {
            "a": MetricMapping("faithfulnessScore"),
            "b": MetricMapping("answerRelevanceScore"),
            "c": MetricMapping("citationCoverageScore"),
        }
    )
    collector.offer("a", True)
    collector.offer("b", "0.9")
    collector.offer("c", math.inf)
    result = collector.result()
    assert result.signals.is_empty()
    assert [w.code for w in result.warnings] == [
        "evaluator-metric-undetermined",
        "evaluator-metric-undetermined",
        "evaluator-score-out-of-range",
    ]


def test_collector_takes_any_real_number():
    collector = SignalCollector({"a": MetricMapping("faithfulnessScore")})
    collector.offer("a", Fraction(1, 4))
    assert collector.result().signals.faithfulness_score == 0.25


def test_bridge_result_wire_shape():
    collector = SignalCollector({"a": MetricMapping("faithfulnessScore")})
    collector.offer("a", 0.5)
    collector.offer("z", 0.1)
    wire = collector.result("s1").to_wire()
    assert wire["sampleId"] == "s1"
    assert wire["signals"] == {"faithfulnessScore": 0.5}
    assert wire["sources"] == {"faithfulnessScore": "a"}
    assert list(wire["warnings"][0]) == ["code", "severity", "message", "path"]
