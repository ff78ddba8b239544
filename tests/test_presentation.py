"""Scorecard presentation: text, Markdown, HTML fragment, log record, OpenTelemetry attributes."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import assay
import assay_scorecard

INJECT = '<script>alert(1)</script> | "quoted" & <img src=x onerror=alert(2)>'
INPUTS = {
    "supportLevel": "high",
    "citationCount": 2,
    "candidates": [
        {"retrievalScores": {"a": 0.9, "b": 0.8}, "combinedScore": 0.9, "documentId": "d1"},
        {"retrievalScores": {"a": 0.7, "b": 0.6}, "combinedScore": 0.7, "documentId": "d2"},
    ],
}


def card() -> assay_scorecard.Scorecard:
    return assay_scorecard.compute_confidence(INPUTS)


def test_markdown_has_headline_table_and_warnings() -> None:
    text = assay_scorecard.render_markdown(card())
    assert text.startswith("**Score 89/100 — Strong** · recommended action: **review**")
    assert "| grounding | 30/30 | 100 | 30 |" in text
    assert "- `missing-conflict-signal` (warn) at `hasConflict`" in text
    assert "Missing signals: `faithfulnessScore`, `conflictSignal`" in text


def test_html_fragment_escapes_all_text() -> None:
    scorer = assay_scorecard.create_scorer(
        dimensions=["grounding", "retrieval", "consistency", _Injecting()]
    )
    html = assay_scorecard.render_html(scorer.compute(INPUTS))
    assert html.startswith('<section class="assay-scorecard"') and html.endswith("</section>")
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&quot;quoted&quot; &amp;" in html


def test_log_record_takes_the_timestamp_and_is_json_safe() -> None:
    record = assay_scorecard.log_record(card(), timestamp=datetime(2026, 11, 22, 12, 0, tzinfo=UTC))
    assert record["timestamp"] == "2026-11-22T12:00:00+00:00"
    assert record["recommendedAction"] == "review"
    assert record["actionRule"] == "review-on-warning"
    assert record["warningCodes"] == ["missing-faithfulness", "missing-conflict-signal"]
    assert record["dimensions"]["grounding"] == {"raw": 30, "max": 30, "normalized": 100}
    json.dumps(record, allow_nan=False)


def test_otel_attributes_land_on_a_real_span() -> None:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    with provider.get_tracer("test").start_as_current_span("answer") as span:
        assay_scorecard.record_on_span(card(), span)
    (finished,) = exporter.get_finished_spans()
    assert finished.attributes["assay.scorecard.total"] == 89
    assert finished.attributes["assay.scorecard.recommended_action"] == "review"
    assert finished.attributes["assay.scorecard.dimension.retrieval.raw"] == 21
    assert tuple(finished.attributes["assay.scorecard.missing_signals"]) == (
        "faithfulnessScore",
        "conflictSignal",
    )


class _Injecting(assay.Dimension):
    name = "injected"
    tier = 1
    max_points = 1.0
    default_weight = 1.0

    def score(self, inputs, config):  # type: ignore[no-untyped-def]
        return assay.dimension_score(raw=1.0, max_points=1.0, explanation=INJECT)
