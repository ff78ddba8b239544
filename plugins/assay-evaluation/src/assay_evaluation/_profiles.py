"""Named metric lists (profiles), the default list, and how metric ids are labelled for people.

The default metric list is chosen here, in one line (:data:`DEFAULT_METRICS`); a profile is a
name for a list of registered metric ids (``--profile compatible`` / ``profile="compatible"``).
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = [
    "COMPATIBLE_METRICS",
    "DEFAULT_METRICS",
    "GROUNDED_METRICS",
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

GROUNDED_METRICS: tuple[str, ...] = ("answer_support", "claim_support")
"""Does the answer say what the contexts say, *as an answer to the question* (assay-faithfulness
registers both)? ``answer_support`` also checks the name or number the question asks for against
the others of the same passage, yes/no and negation. On the 5,000 rows of HaluEval QA
(``benchmarks/evaluation_defaults.py``) a sample with its question passes for 98.6% of right
answers and fails for 97.9% of hallucinated ones, at about 2.9 times the CPU per sample of the
default list (``benchmarks/evaluation_overhead.py``). ``answer_support`` reads the question, so
a sample without one leaves it undetermined and ``claim_support`` judges it alone."""

DEFAULT_METRICS: tuple[str, ...] = ("claim_support",)
"""The metrics run when none are named. Changing the default set is changing this line.

``claim_support``: is each sentence of the answer stated by one context sentence? On the same
HaluEval rows it passes 99.6% of right answers and fails 92.2% of hallucinated ones, at the CPU
per sample of the seven compatible metrics; it does not read the question, so it is blind to a
wrong name taken from the same passage, which profile ``grounded`` catches."""

PROFILES: Mapping[str, tuple[str, ...]] = {
    "default": DEFAULT_METRICS,
    "grounded": GROUNDED_METRICS,
    "compatible": COMPATIBLE_METRICS,
}
"""Profile name -> metric ids. A registry ``metric-set`` of another name is a profile too."""

QUESTION_METRICS: frozenset[str] = frozenset(
    {"answer_relevance", "answer_support", "context_precision", "context_relevance"}
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
