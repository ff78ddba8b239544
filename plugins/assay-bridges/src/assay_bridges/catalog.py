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
from assay_bridges.extraction import BridgeResult, MetricMappings
from assay_bridges.plain import from_custom_judge
from assay_bridges.ragas import from_ragas
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
    ``id`` key, when a string, becomes the sample id. ``metrics`` is not used (the custom judge
    names its signals itself).

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
        results.append(
            BridgeResult(
                signals=from_custom_judge(item),
                sample_id=sample_id if isinstance(sample_id, str) else None,
            )
        )
    return results


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
