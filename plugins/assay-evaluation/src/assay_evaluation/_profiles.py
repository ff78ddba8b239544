"""Named metric lists (profiles), the default list, and how metric ids are labelled for people.

The default metric list is chosen here, in one line (:data:`DEFAULT_METRICS`); a profile is a
name for a list of registered metric ids (``--profile compatible`` / ``profile="compatible"``).
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = [
    "COMPATIBLE_METRICS",
    "DEFAULT_METRICS",
    "METRIC_LABELS",
    "PROFILES",
    "QUESTION_METRICS",
    "metric_label",
]

COMPATIBLE_METRICS: tuple[str, ...] = (
    "faithfulness",
    "answer_relevance",
    "context_precision",
    "context_recall",
    "context_relevance",
    "answer_correctness",
    "hallucination_rate",
)
"""The seven metrics of rag-eval-node-ts 0.3, in its order (assay-faithfulness registers them)."""

PROFILES: Mapping[str, tuple[str, ...]] = {"compatible": COMPATIBLE_METRICS}
"""Profile name -> metric ids. A registry ``metric-set`` of another name is a profile too."""

DEFAULT_METRICS: tuple[str, ...] = PROFILES["compatible"]
"""The metrics run when none are named. Changing the default set is changing this line."""

QUESTION_METRICS: frozenset[str] = frozenset(
    {"answer_relevance", "context_precision", "context_relevance"}
)
"""Metric ids that compare the question with the answer or the contexts, whether or not the
metric object declares ``"question"`` in ``requires``: a sample without a question leaves them
undetermined instead of scoring an empty question."""

METRIC_LABELS: Mapping[str, str] = {"hallucination_rate": "hallucination_rate (1 - rate)"}
"""How a metric id is shown to people when its number needs a word: the hallucination rate is
reported as ``1 - rate`` (higher is better), as rag-eval-node-ts 0.3 reports it."""


def metric_label(metric_id: str) -> str:
    """``metric_id`` as the summary, the HTML report and gate messages show it."""
    return METRIC_LABELS.get(metric_id, metric_id)
