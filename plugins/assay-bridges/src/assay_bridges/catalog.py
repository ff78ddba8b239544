"""The built-in evaluator bridges as registry objects (kind ``"bridge"``).

A bridge turns one evaluator document (parsed JSON, or the framework's own object) into one
:class:`~assay_bridges.BridgeResult` per answer. Another plugin can add a bridge for its own
evaluator with ``registrar.add("bridge", EvaluatorBridge(...), name=...)``; ``assay bridge NAME``
then finds it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

import assay
from assay_bridges.deepeval import from_deepeval
from assay_bridges.extraction import BridgeResult, MetricMappings, WarningCode
from assay_bridges.plain import from_custom_judge
from assay_bridges.ragas import from_ragas
from assay_bridges.signals import EvaluationSignals
from assay_bridges.trulens import from_trulens

__all__ = ["BRIDGE_KIND", "BUILTIN_BRIDGES", "EvaluatorBridge", "from_custom_judge_documents"]

BRIDGE_KIND = "bridge"
"""The registry kind evaluator bridges are registered under."""


@attrs.frozen
class EvaluatorBridge:
    """A named evaluator bridge.

    Attributes:
        name: the registry name, e.g. ``"ragas"``.
        description: one line saying which outputs it reads.
        extract: ``extract(document, metrics=None) -> list[BridgeResult]``; raises
            :class:`assay.AssayError` (``MALFORMED_INPUT``) for a document it cannot read.
    """

    name: str
    description: str
    extract: Callable[..., list[BridgeResult]]


def from_custom_judge_documents(
    document: Any, *, metrics: MetricMappings | None = None
) -> list[BridgeResult]:
    """:func:`~assay_bridges.from_custom_judge` on one judge dict or on each of a list; the
    ``id`` key, when a string, becomes the sample id. A 0-1 score (``faithfulnessScore``,
    ``answerRelevanceScore``, ``citationCoverageScore``) that is NaN, infinite or outside 0-1 is
    not provided, with an ``evaluator-score-out-of-range`` warning. ``metrics`` is not used (the
    custom judge names its signals itself).

    :raises AssayError: ``MALFORMED_INPUT`` (path ``[i]``) for an item that is not an object.
    """
    items = document if isinstance(document, list) else [document]
    results = []
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise assay.AssayError(
                assay.ErrorCode.MALFORMED_INPUT,
                f"a custom judge result must be an object, got {type(item).__name__}",
                f"[{index}]",
            )
        sample_id = item.get("id")
        signals, warnings = _scores_in_range(from_custom_judge(item))
        results.append(
            BridgeResult(
                signals=signals,
                warnings=warnings,
                sample_id=sample_id if isinstance(sample_id, str) else None,
            )
        )
    return results


_SCORES = (
    ("faithfulnessScore", "faithfulness_score"),
    ("answerRelevanceScore", "answer_relevance_score"),
    ("citationCoverageScore", "citation_coverage_score"),
)


def _scores_in_range(
    signals: EvaluationSignals,
) -> tuple[EvaluationSignals, list[assay.ScoreWarning]]:
    """``signals`` without the 0-1 scores that are NaN, infinite or outside 0-1, and an
    ``evaluator-score-out-of-range`` warning for each (a 1.9 from a 0-3 judge is not a score)."""
    dropped: dict[str, None] = {}
    warnings = []
    for wire, field in _SCORES:
        value = getattr(signals, field)
        if value is not None and not 0 <= value <= 1:
            dropped[field] = None
            warnings.append(
                assay.ScoreWarning(
                    WarningCode.OUT_OF_RANGE,
                    "warn",
                    f"{wire} = {value!r} lies outside its scale [0, 1]; not provided",
                    wire,
                )
            )
    return attrs.evolve(signals, **dropped), warnings


BUILTIN_BRIDGES: tuple[EvaluatorBridge, ...] = (
    EvaluatorBridge(
        "ragas", "RAGAS EvaluationResult scores, to_pandas() records or one row", from_ragas
    ),
    EvaluatorBridge(
        "deepeval",
        "DeepEval EvaluationResult / TestResult / MetricData, or .deepeval/.latest_test_run.json",
        from_deepeval,
    ),
    EvaluatorBridge(
        "trulens", "TruLens records-and-feedback records (one per answer)", from_trulens
    ),
    EvaluatorBridge(
        "custom-judge",
        "custom judge dicts with the signal keys by name",
        from_custom_judge_documents,
    ),
)
