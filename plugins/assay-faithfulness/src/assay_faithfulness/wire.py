"""The JSON shape of a metric result in rag-eval-node-ts 0.3 (what its test cases hold).

The core's :class:`assay.MetricSignal` has no id and names severities ``info`` / ``warn`` /
``error``; this plugin keeps the reference's signal ids in ``details["signal_ids"]`` so that the
wire form (``warning`` / ``critical`` and the ids) can be rebuilt exactly.
"""

from __future__ import annotations

from typing import Any

import assay

__all__ = ["WIRE_IDS", "metric_id_from_wire", "result_to_wire"]

WIRE_IDS: dict[str, str] = {
    "faithfulness": "faithfulness",
    "answer_relevance": "answerRelevance",
    "context_precision": "contextPrecision",
    "context_recall": "contextRecall",
    "context_relevance": "contextRelevance",
    "answer_correctness": "answerCorrectness",
    "hallucination_rate": "hallucinationRate",
}
"""Metric id -> its id in the JSON format, in rag-eval-node-ts 0.3's order."""

_ALL_WIRE_IDS = {**WIRE_IDS, "claim_support": "claimSupport", "answer_support": "answerSupport"}
_FROM_WIRE = {wire: metric_id for metric_id, wire in _ALL_WIRE_IDS.items()}
_SEVERITY_TO_WIRE = {"info": "info", "warn": "warning", "error": "critical"}


def metric_id_from_wire(wire_id: str) -> str:
    """``"answerRelevance"`` -> ``"answer_relevance"``; other ids are returned unchanged."""
    return _FROM_WIRE.get(wire_id, wire_id)


def result_to_wire(result: assay.MetricResult) -> dict[str, Any]:
    """``{"metricId", "score", "mode", "passed", "threshold", "explanation", "signals",
    "llmCalls"}`` with signals ``{"id", "metricId", "severity", "message", "evidence"?}``,
    exactly as the reference's metric functions return it (without ``durationMs``)."""
    wire_id = _ALL_WIRE_IDS.get(result.metric_id, result.metric_id)
    signal_ids = result.details.get("signal_ids") or [None] * len(result.signals)
    signals = []
    for signal_id, signal in zip(signal_ids, result.signals, strict=True):
        wire: dict[str, Any] = {
            "id": signal_id,
            "metricId": wire_id,
            "severity": _SEVERITY_TO_WIRE.get(signal.severity, signal.severity),
            "message": signal.message,
        }
        if signal.evidence is not None:
            wire["evidence"] = signal.evidence
        signals.append(wire)
    return {
        "metricId": wire_id,
        "score": result.score,
        "mode": result.details.get("mode", "heuristic"),
        "passed": result.passed,
        "threshold": result.threshold,
        "explanation": result.explanation,
        "signals": signals,
        "llmCalls": result.details.get("llm_calls", 0),
    }
