"""Results out: one flat record per sample (for pandas, CSV, Parquet, spreadsheets), a pandas
DataFrame, files by extension (written atomically) and the HTML report."""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assay import AssayError
from assay.cli import atomic_write
from assay_evaluation._codes import EvaluationErrorCode as Code
from assay_evaluation._outcome import error_of, status_of
from assay_evaluation._samples import has_question
from assay_evaluation._wire import result_to_wire

if TYPE_CHECKING:
    from assay_evaluation._batch_result import BatchEvalResult

__all__ = ["OUTPUT_FORMATS", "save_results", "to_pandas", "to_records"]

OUTPUT_FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".parquet": "parquet"}
"""File extension -> what :func:`save_results` writes there."""


def _results_of(batch: BatchEvalResult) -> None:
    if not batch.results_kept:
        raise AssayError(
            Code.INVALID_OPTION,
            "this batch kept no per-sample results (keep_results=False); evaluate with "
            "keep_results=True, or read them back from the output file with read_results()",
            "keep_results",
        )


def to_records(batch: BatchEvalResult) -> list[dict[str, Any]]:
    """One flat dict per sample, in input order: ``id``, ``question`` (``None`` when the sample
    had none), ``answer``, ``contexts`` (a list), ``ground_truth``, then per metric ``<id>``
    (the score or ``None``), ``<id>_passed`` (``True``, ``False`` or ``None``), ``<id>_status``
    (``pass``, ``fail``, ``undetermined`` or ``error``) and ``<id>_reason`` (the error, else the
    metric's explanation), then ``composite_score`` and ``passed``.

    :raises AssayError: ``INVALID_OPTION`` when the batch kept no per-sample results.
    """
    _results_of(batch)
    records = []
    for index, result in enumerate(batch.results):
        sample = result.sample
        record: dict[str, Any] = {
            "id": sample.id if sample.id is not None else f"#{index}",
            "question": sample.question if has_question(sample) else None,
            "answer": sample.answer,
            "contexts": list(sample.contexts),
            "ground_truth": sample.ground_truth,
        }
        for metric_id, metric in result.metrics.items():
            record[metric_id] = metric.score
            record[f"{metric_id}_passed"] = metric.passed
            record[f"{metric_id}_status"] = status_of(metric)
            record[f"{metric_id}_reason"] = error_of(metric) or metric.explanation
        record["composite_score"] = result.composite_score
        record["passed"] = result.passed
        records.append(record)
    return records


def _module(name: str, extra: str, what: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise AssayError(
            Code.MISSING_DEPENDENCY,
            f"{what} needs {name.split('.')[0]}: pip install 'assay-evaluation[{extra}]'",
            extra,
        ) from exc


def to_pandas(batch: BatchEvalResult) -> Any:
    """:func:`to_records` as a ``pandas.DataFrame``, one row per sample.

    :raises AssayError: ``MISSING_DEPENDENCY`` when pandas is not installed (the message names
        the extra to install); ``INVALID_OPTION`` as :func:`to_records`.
    """
    pandas = _module("pandas", "pandas", "to_pandas()")
    return pandas.DataFrame(to_records(batch))


def _cell(value: Any) -> str:
    """A CSV cell: lists and objects as JSON (readable back by assay eval), booleans as
    ``true`` / ``false``, ``None`` as an empty cell."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def save_results(batch: BatchEvalResult, path: str | os.PathLike[str]) -> Path:
    """Write every sample's result to ``path``, replaced whole or not at all (a temporary file
    renamed over it, mode 0666 less the umask): ``.jsonl`` / ``.ndjson`` the stored-result lines
    that :func:`~assay_evaluation.read_results` and ``resume`` read; ``.csv`` and ``.parquet``
    the flat records of :func:`to_records` (a CSV's lists are JSON arrays).

    :raises AssayError: ``INVALID_OPTION`` for another extension or a batch without its
        results; ``MISSING_DEPENDENCY`` for Parquet without pyarrow.
    """
    target = Path(path)
    kind = OUTPUT_FORMATS.get(target.suffix.lower())
    if kind is None:
        raise AssayError(
            Code.INVALID_OPTION,
            f"the file name must end in {', '.join(OUTPUT_FORMATS)}",
            str(path),
        )
    if kind == "jsonl":
        _results_of(batch)
        with atomic_write(target) as handle:
            for index, result in enumerate(batch.results):
                key = result.sample.id if result.sample.id is not None else f"#{index}"
                line = {"key": key, "result": result_to_wire(result)}
                handle.write(json.dumps(line, ensure_ascii=False) + "\n")
        return target
    records = to_records(batch)
    if kind == "parquet":
        arrow = _module("pyarrow", "parquet", "writing Parquet")
        parquet = _module("pyarrow.parquet", "parquet", "writing Parquet")
        with atomic_write(target, "wb") as handle:
            parquet.write_table(arrow.Table.from_pylist(records), handle)
        return target
    import csv

    columns = list(dict.fromkeys(key for record in records for key in record))
    with atomic_write(target) as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(columns)
        for record in records:
            writer.writerow([_cell(record.get(column)) for column in columns])
    return target
