"""The plugin registers its metrics and the default metric set through the entry point."""

import assay
import assay_faithfulness as af

REFERENCE_ORDER = (
    "faithfulness",
    "answer_relevance",
    "context_precision",
    "context_recall",
    "context_relevance",
    "answer_correctness",
    "hallucination_rate",
)


def test_registers_the_seven_metrics_and_the_default_set_through_the_entry_point() -> None:
    registry = assay.build_registry()
    for metric_id in REFERENCE_ORDER:
        metric = registry.metric(f"faithfulness/{metric_id}")
        assert metric.id == metric_id
        assert isinstance(metric, assay.Metric)
    assert registry.get("metric-set", "faithfulness/default") == REFERENCE_ORDER


def test_claim_support_is_registered_but_not_in_the_default_set() -> None:
    registry = assay.build_registry()
    assert isinstance(registry.metric("faithfulness/claim_support"), af.ClaimSupport)
    assert "claim_support" not in registry.get("metric-set", "faithfulness/default")


def test_default_thresholds_and_requirements_are_the_references() -> None:
    thresholds = {m.id: m.default_threshold for m in af.DEFAULT_METRICS}
    assert thresholds == {
        "faithfulness": 0.7,
        "answer_relevance": 0.7,
        "context_precision": 0.7,
        "context_recall": 0.7,
        "context_relevance": 0.6,
        "answer_correctness": 0.6,
        "hallucination_rate": 0.7,
    }
    needs_truth = {m.id for m in af.DEFAULT_METRICS if "ground_truth" in m.requires}
    assert needs_truth == {"context_recall", "answer_correctness"}
    assert all(m.higher_is_better for m in af.DEFAULT_METRICS)


def test_wire_ids_map_both_ways() -> None:
    for metric in af.DEFAULT_METRICS:
        assert af.WIRE_IDS[metric.id] == metric.wire_id
        assert af.metric_id_from_wire(metric.wire_id) == metric.id
    assert af.get_metric("hallucinationRate") is af.get_metric("hallucination_rate")


def test_loading_the_plugin_does_not_build_the_tokenizer_tables() -> None:
    # The punctuation table scans every code point (~0.3 s); discovery must not pay for it.
    import subprocess
    import sys

    code = (
        "import assay; assay.build_registry(); import assay_faithfulness.text as t; "
        "print(t._token_patterns.cache_info().currsize)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"
