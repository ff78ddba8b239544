"""RAGAS results into scoring signals, by duck typing (ragas is never imported).

Accepted shapes (ragas 0.2-0.4):

* an ``EvaluationResult`` (anything with a ``scores`` list of per-sample dicts),
* its ``to_pandas()`` frame (anything with ``to_dict("records")``) or those records as a list,
* one row: a dict of column -> cell, where metric cells are numbers (NaN = undetermined) or
  result objects with a ``value`` (the collections API's ``MetricResult``),
* an ``EvaluationResult`` written as JSON: an object with a ``scores`` list of rows.

Input in which no row has a metric cell (a file that wraps results in other keys, the samples
without their scores) is refused with ``MALFORMED_INPUT``, naming what was found and, when the
results sit under a key of it, that key.

Sample columns (``user_input``, ``response``, contexts, ...) are not metrics and are skipped;
every other numeric cell is a metric.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

import assay
from assay_bridges.extraction import (
    BridgeResult,
    MetricMapping,
    MetricMappings,
    SignalCollector,
    is_real_number,
    resolve_mappings,
    unreadable,
)

__all__ = ["RAGAS_METRICS", "from_ragas", "from_ragas_row"]

RAGAS_METRICS: dict[str, MetricMapping] = {
    "faithfulness": MetricMapping("faithfulnessScore"),
    "faithfulness_with_hhem": MetricMapping("faithfulnessScore"),
    "nv_response_groundedness": MetricMapping("faithfulnessScore"),
    "answer_relevancy": MetricMapping("answerRelevanceScore"),
    "answer_relevance": MetricMapping("answerRelevanceScore"),
    "response_relevancy": MetricMapping("answerRelevanceScore"),
}
"""Default RAGAS metric names -> signals. All RAGAS scores are 0-1, higher is better."""

_SAMPLE_COLUMNS = frozenset(
    {
        "user_input",
        "response",
        "reference",
        "retrieved_contexts",
        "reference_contexts",
        "retrieved_context_ids",
        "reference_context_ids",
        "multi_responses",
        "rubrics",
        "question",
        "answer",
        "contexts",
        "ground_truth",
        "ground_truths",
    }
)


def _is_metric_cell(column: str, cell: Any, collector: SignalCollector) -> bool:
    if column in _SAMPLE_COLUMNS:
        return False
    if cell is None:
        return collector.is_mapped(column)
    return is_real_number(cell) or (
        not isinstance(cell, str | bytes | list | tuple)
        and (hasattr(cell, "value") or (isinstance(cell, Mapping) and "value" in cell))
    )


def _extract_row(row: Any, mappings: Mapping[str, MetricMapping], path: str) -> BridgeResult:
    if not isinstance(row, Mapping):
        raise assay.AssayError(
            assay.ErrorCode.MALFORMED_INPUT,
            f"a RAGAS row must be an object of column -> value, got {type(row).__name__}",
            path,
        )
    collector = SignalCollector(mappings)
    for column, cell in row.items():
        if isinstance(column, str) and _is_metric_cell(column, cell, collector):
            collector.offer(column, cell)
    sample_id = row.get("user_input")
    return collector.result(sample_id if isinstance(sample_id, str) else None)


def from_ragas_row(
    row: Mapping[str, Any], *, metrics: MetricMappings | None = None
) -> BridgeResult:
    """Signals from one RAGAS sample row (a ``scores`` entry or a ``to_pandas()`` record).

    :param metrics: mappings added to (or, with ``None`` values, removed from)
        :data:`RAGAS_METRICS`, e.g. ``{"rouge_score(mode=fmeasure)": "answerRelevanceScore"}``.
    :return: signals, a warning per metric not used, ``sample_id`` = the row's ``user_input``.
    :raises AssayError: ``MALFORMED_INPUT`` (path ``row``) when ``row`` is not a mapping;
        ``INVALID_CONFIG`` for a bad mapping.
    """
    return _extract_row(row, resolve_mappings(RAGAS_METRICS, metrics), "row")


def _is_scores(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(row, Mapping) for row in value)


def _holds_metrics(value: Any) -> bool:
    """A row with a metric cell, a list of rows one of which has one, or an object with a
    ``scores`` list of such rows."""
    if isinstance(value, Mapping):
        scores = value.get("scores")
        return _has_metric_cell(value) or (scores is not None and _holds_metrics(scores))
    return _is_scores(value) and any(_has_metric_cell(row) for row in value)


def _has_metric_cell(row: Mapping[Any, Any]) -> bool:
    collector = SignalCollector(RAGAS_METRICS)
    return any(
        isinstance(column, str) and _is_metric_cell(column, cell, collector)
        for column, cell in row.items()
    )


def _rows(result: Any) -> list[Any]:
    if isinstance(result, Mapping):
        scores = result.get("scores")
        if scores and _is_scores(scores):
            return list(scores)  # an EvaluationResult written as JSON
        return [result]
    scores = getattr(result, "scores", None)
    if isinstance(scores, list):
        return scores
    to_dict = getattr(result, "to_dict", None)
    if callable(to_dict):
        return list(to_dict(orient="records"))
    if isinstance(result, Iterable) and not isinstance(result, str | bytes):
        return list(result)
    raise assay.AssayError(
        assay.ErrorCode.MALFORMED_INPUT,
        "expected a RAGAS EvaluationResult, its to_pandas() frame, a list of rows or one row; "
        f"got {type(result).__name__}",
        "result",
    )


def from_ragas(result: Any, *, metrics: MetricMappings | None = None) -> list[BridgeResult]:
    """One :class:`BridgeResult` per sample of a RAGAS result (see the module for the shapes).

    An ``EvaluationResult``'s ``scores`` carry no ``user_input``; when its ``dataset.samples``
    line up with them (same count), each sample's ``user_input`` becomes the ``sample_id``.

    :raises AssayError: ``MALFORMED_INPUT`` for an unknown shape or a row that is not a mapping
        (path ``[i]``); ``INVALID_CONFIG`` for a bad mapping.
    """
    mappings = resolve_mappings(RAGAS_METRICS, metrics)
    rows = _rows(result)
    if rows and not any(isinstance(row, Mapping) and _has_metric_cell(row) for row in rows):
        raise _no_metrics(result)
    results = [_extract_row(row, mappings, f"[{index}]") for index, row in enumerate(rows)]
    samples = getattr(getattr(result, "dataset", None), "samples", None)
    if isinstance(samples, list) and len(samples) == len(results):
        results = [
            attrs.evolve(bridged, sample_id=user_input)
            if bridged.sample_id is None and isinstance(user_input, str)
            else bridged
            for bridged, user_input in zip(
                results, (getattr(sample, "user_input", None) for sample in samples), strict=True
            )
        ]
    return results


def _no_metrics(result: Any) -> assay.AssayError:
    return unreadable(
        "found no RAGAS metric in {found}: expected an EvaluationResult (or its JSON form, an "
        "object with a scores list), its to_pandas() records, or rows of column -> metric value "
        "(a number or a result with a value)",
        result,
        _holds_metrics,
        "results",
        "result",
    )
