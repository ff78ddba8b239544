"""TruLens results into scoring signals, by duck typing (trulens is never imported).

Accepted shapes (trulens 1.x-2.x):

* the records-and-feedback frame: ``session.get_records_and_feedback()`` returns
  ``(frame, feedback_names)``; pass that pair, the frame (anything with ``to_dict("records")``),
  its records as a list, or one record (:func:`from_trulens_row`). A feedback column holds the
  score (NaN while pending or after a failure); in OpenTelemetry mode a ``"<name> direction"``
  column says whether higher is better, and it is checked against the mapping;
* ``FeedbackResult`` objects or dicts (``name``, ``result``, ``status``, ``error``), e.g. the values
  of ``record.wait_for_feedback_results()`` (:func:`from_trulens_feedback`).

TruLens's LLM providers already rescale their 0-3 (or 0-10) ratings to 0-1; a custom feedback
that returns raw ratings needs ``MetricMapping(signal, scale=(0, 3))``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

import assay
from assay_bridges.extraction import (
    BridgeResult,
    MetricMapping,
    MetricMappings,
    SignalCollector,
    WarningCode,
    is_real_number,
    normalize_metric_name,
    record_field,
    resolve_mappings,
    unreadable,
)

__all__ = ["TRULENS_METRICS", "from_trulens", "from_trulens_feedback", "from_trulens_row"]

TRULENS_METRICS: dict[str, MetricMapping] = {
    "groundedness": MetricMapping("faithfulnessScore"),
    "groundedness_measure_with_cot_reasons": MetricMapping("faithfulnessScore"),
    "answer_relevance": MetricMapping("answerRelevanceScore"),
    "relevance": MetricMapping("answerRelevanceScore"),
    "relevance_with_cot_reasons": MetricMapping("answerRelevanceScore"),
}
"""Default TruLens feedback names -> signals (the RAG triad's groundedness and answer relevance;
context relevance describes retrieval and has no scoring signal)."""

_DEFAULT_MAPPINGS = resolve_mappings(TRULENS_METRICS, None)


def _plain_bool(value: Any) -> bool | None:
    """``value`` as a Python bool when it is a bool (NumPy's included), else None."""
    if isinstance(value, bool):
        return value
    item = getattr(value, "item", None)
    if callable(item) and type(value).__name__ == "bool_":
        return bool(item())
    return None


def _feedback_columns(
    row: Mapping[str, Any],
    feedback_names: Sequence[str] | None,
    mappings: Mapping[str, MetricMapping],
) -> list[str]:
    """The names given (else every ``c`` with a ``c_calls`` column), then every other column
    that has a mapping: a metric the caller named is read even from a bare scores table."""
    if feedback_names is not None:
        columns = [name for name in feedback_names if name in row]
    else:
        columns = [key for key in row if isinstance(key, str) and f"{key}_calls" in row]
    return columns + [
        key
        for key in row
        if isinstance(key, str) and key not in columns and normalize_metric_name(key) in mappings
    ]


def _extract_row(
    row: Any,
    mappings: Mapping[str, MetricMapping],
    feedback_names: Sequence[str] | None,
    path: str,
) -> BridgeResult:
    if not isinstance(row, Mapping):
        raise assay.AssayError(
            assay.ErrorCode.MALFORMED_INPUT,
            f"a TruLens record must be an object of column -> value, got {type(row).__name__}",
            path,
        )
    collector = SignalCollector(mappings)
    for name in _feedback_columns(row, feedback_names, mappings):
        collector.offer(
            name, row[name], stated_higher_is_better=_plain_bool(row.get(f"{name} direction"))
        )
    record_id = row.get("record_id")
    return collector.result(record_id if isinstance(record_id, str) else None)


def from_trulens_row(
    row: Mapping[str, Any],
    *,
    feedback_names: Sequence[str] | None = None,
    metrics: MetricMappings | None = None,
) -> BridgeResult:
    """Signals from one records-and-feedback record.

    :param feedback_names: the feedback columns (``get_records_and_feedback()``'s second value);
        when omitted, every column ``c`` with a ``"c_calls"`` sibling is a feedback column.
    :param metrics: mappings added to (or, with ``None`` values, removed from)
        :data:`TRULENS_METRICS`; names match after lower-casing and spaces -> underscores.
    :return: signals, a warning per feedback not used, ``sample_id`` = the ``record_id``.
    :raises AssayError: ``MALFORMED_INPUT`` (path ``row``) when ``row`` is not a mapping;
        ``INVALID_CONFIG`` for a bad mapping.
    """
    return _extract_row(row, resolve_mappings(TRULENS_METRICS, metrics), feedback_names, "row")


def _records_and_names(records: Any) -> tuple[list[Any], Sequence[str] | None]:
    if (
        isinstance(records, tuple)
        and len(records) == 2
        and isinstance(records[1], list)
        and all(isinstance(name, str) for name in records[1])
    ):
        frame, names = records
        return _records_and_names(frame)[0], names
    if isinstance(records, Mapping):
        return [records], None
    to_dict = getattr(records, "to_dict", None)
    if callable(to_dict):
        return list(to_dict(orient="records")), None
    if isinstance(records, Iterable) and not isinstance(records, str | bytes):
        return list(records), None
    raise assay.AssayError(
        assay.ErrorCode.MALFORMED_INPUT,
        "expected get_records_and_feedback()'s (frame, feedback_names), a frame, a list of "
        f"records or one record; got {type(records).__name__}",
        "records",
    )


def from_trulens(
    records: Any,
    *,
    feedback_names: Sequence[str] | None = None,
    metrics: MetricMappings | None = None,
) -> list[BridgeResult]:
    """One :class:`BridgeResult` per record of a records-and-feedback result.

    :raises AssayError: ``MALFORMED_INPUT`` for an unknown shape or a record that is not a
        mapping (path ``[i]``); ``INVALID_CONFIG`` for a bad mapping.
    """
    rows, names = _records_and_names(records)
    mappings = resolve_mappings(TRULENS_METRICS, metrics)
    names = feedback_names if feedback_names is not None else names
    if rows and all(_is_feedback_result(row) for row in rows):
        by_record: dict[Any, list[Any]] = {}
        for row in rows:
            key = record_field(row, "record_id")
            by_record.setdefault(key if isinstance(key, str) else None, []).append(row)
        results = [from_trulens_feedback(group, metrics=metrics) for group in by_record.values()]
        seen = {record_field(row, "name") for row in rows}
    else:
        results = []
        seen = set()
        for i, row in enumerate(rows):
            columns = _feedback_columns(row, names, mappings) if isinstance(row, Mapping) else None
            if columns == []:
                raise _not_a_record(row, f"[{i}]")
            seen.update(columns or ())
            results.append(_extract_row(row, mappings, names, f"[{i}]"))
    return _warn_unmatched(results, metrics, seen)


def _not_a_record(row: Mapping[Any, Any], path: str) -> assay.AssayError:
    return unreadable(
        "not a TruLens records-and-feedback record: found {found}, with no feedback column (a "
        "column c with a c_calls sibling), no mapped metric, and not a FeedbackResult; expected "
        "get_records_and_feedback()'s records (or the pair with the feedback names), one record, "
        "or FeedbackResult objects (name, result, status); to read a column c as a metric, map "
        "it: --map c=SIGNAL on the command line, metrics={{'c': SIGNAL}} in Python",
        row,
        _readable,
        "TruLens results",
        path,
    )


def _is_record(value: Any) -> bool:
    """A record with a feedback column holding a score (a number, or null while pending)."""
    return isinstance(value, Mapping) and any(
        value[name] is None or is_real_number(value[name])
        for name in _feedback_columns(value, None, _DEFAULT_MAPPINGS)
    )


def _is_scores_row(value: Any) -> bool:
    """A row with a number in some column: a records-and-feedback table's feedback scores
    without their ``_calls`` columns, readable once its columns are mapped."""
    return isinstance(value, Mapping) and any(map(is_real_number, value.values()))


def _readable(value: Any) -> bool:
    """A records-and-feedback record, or a non-empty list of records, scores rows or
    FeedbackResults."""
    if isinstance(value, list) and value:
        return all(map(_is_scores_row, value)) or all(map(_is_feedback_result, value))
    return _is_record(value)


def _is_feedback_result(row: Any) -> bool:
    """A ``FeedbackResult`` (object or its JSON dict): a ``name`` and a ``feedback_result_id``
    or ``status``, and no records-and-feedback ``record_json``."""
    return (
        isinstance(record_field(row, "name"), str)
        and (
            record_field(row, "feedback_result_id") is not None
            or record_field(row, "status") is not None
        )
        and record_field(row, "record_json") is None
    )


def _warn_unmatched(
    results: list[BridgeResult], metrics: MetricMappings | None, seen: set[Any]
) -> list[BridgeResult]:
    """Add a warning to each result for a caller mapping that matched no feedback."""
    if not metrics or not results:
        return results
    present = {normalize_metric_name(name) for name in seen if isinstance(name, str)}
    unmatched = [
        name
        for name, value in metrics.items()
        if value is not None and normalize_metric_name(name) not in present
    ]
    if not unmatched:
        return results
    extra = [
        assay.ScoreWarning(
            WarningCode.MAPPING_UNMATCHED,
            "warn",
            f"the mapping for {name!r} matched no feedback of the input",
            name,
        )
        for name in unmatched
    ]
    return [attrs.evolve(r, warnings=(*r.warnings, *extra)) for r in results]


def from_trulens_feedback(results: Any, *, metrics: MetricMappings | None = None) -> BridgeResult:
    """Signals from the ``FeedbackResult`` objects (or dicts) of one record.

    A result whose ``status`` is ``failed`` (or that carries an ``error``) is a failed metric; any
    other status but ``done`` (``none``, ``running``, ``skipped``) is undetermined.

    :param results: an iterable of results, or a mapping whose values are results (what
        ``wait_for_feedback_results()`` returns).
    :raises AssayError: ``MALFORMED_INPUT`` when ``results`` is not iterable.
    """
    if isinstance(results, Mapping):
        results = list(results.values())
    if not isinstance(results, Iterable) or isinstance(results, str | bytes):
        raise assay.AssayError(
            assay.ErrorCode.MALFORMED_INPUT,
            f"expected FeedbackResult objects, got {type(results).__name__}",
            "results",
        )
    collector = SignalCollector(resolve_mappings(TRULENS_METRICS, metrics))
    record_ids = set()
    for result in results:
        name = record_field(result, "name")
        if not isinstance(name, str):
            continue
        record_ids.add(record_field(result, "record_id"))
        status = record_field(result, "status")
        status = str(getattr(status, "value", status) or "").lower()
        error = record_field(result, "error")
        if status == "failed" and not error:
            error = "feedback status is failed"
        value = record_field(result, "result") if status in ("", "done") else None
        collector.offer(name, value, error=error)
    record_id = next(iter(record_ids)) if len(record_ids) == 1 else None
    return collector.result(record_id if isinstance(record_id, str) else None)
