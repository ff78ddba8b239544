"""Reading samples from wherever a team keeps them: JSON Lines, a JSON array, CSV and Parquet
files (or standard input), a pandas or polars DataFrame, a Hugging Face ``Dataset`` or anything
else that iterates rows, and any iterable of mappings."""

from __future__ import annotations

import csv
import importlib
import io
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from assay import AssayError, ErrorCode, EvalSample
from assay_evaluation._codes import EvaluationErrorCode as Code
from assay_evaluation._columns import COLUMN_ALIASES, ColumnMapper
from assay_evaluation._samples import coerce_sample

__all__ = [
    "BLANK_SPACE",
    "FORMATS",
    "SampleSource",
    "bytes_rows",
    "check_first_line",
    "check_format",
    "parse_json",
    "read_samples",
    "resolve_format",
    "sample_rows",
]

FORMATS = ("jsonl", "json", "csv", "parquet")
"""File formats ``assay eval`` and :func:`read_samples` read."""

_EXTENSIONS = {
    ".json": "jsonl",  # a JSON array when it opens with "[" (below), else JSON Lines
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".csv": "csv",
    ".tsv": "csv",  # columns separated by tabs: see _delimiter
    ".parquet": "parquet",
    ".pq": "parquet",
}

SampleSource = Any
"""A path (``str`` or ``os.PathLike``; ``"-"`` for standard input), a DataFrame, a ``Dataset``,
a mapping of columns, or an iterable of sample mappings / :class:`~assay.EvalSample`."""

Rows = Iterator[tuple[str, Any]]
"""``(where, row)`` pairs: ``where`` names the row in errors (``line 3``, ``row 2``,
``samples[4]``)."""


def _bytes(path: str) -> bytes:
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        return Path(path).read_bytes()
    except OSError as exc:
        raise AssayError(ErrorCode.IO_ERROR, f"cannot read the file: {exc.strerror}", path) from exc


_PACKED = {
    b"\x1f\x8b": "is gzip-compressed: decompress it first (gunzip -k FILE), or pipe it in: "
    "gunzip -c FILE | assay eval -",
    b"PK\x03\x04": "is a zip archive (an Excel workbook is one): save the sheet as CSV, or "
    "unzip the data file",
}


def _text(data: bytes, path: str) -> str:
    try:
        return data.decode("utf-8-sig")  # a spreadsheet's CSV often starts with a BOM
    except UnicodeDecodeError as exc:
        where = "standard input" if path == "-" else path
        packed = _PACKED.get(data[:2]) or _PACKED.get(data[:4])
        reason = packed if packed else f"is not UTF-8 text: {exc.reason}"
        raise AssayError(ErrorCode.MALFORMED_INPUT, f"{where} {reason}", path) from exc


def _first_byte(data: bytes) -> bytes:
    """The first byte of ``data`` after a BOM and blank space (empty when there is none)."""
    return data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]


def _sniff(data: bytes) -> str:
    """The format of ``data`` from its first bytes: Parquet's magic, a JSON array, a JSON
    object per line, else CSV."""
    if data.startswith(b"PAR1"):
        return "parquet"
    return {b"[": "json", b"{": "jsonl"}.get(_first_byte(data), "csv")


def check_format(format: str | None) -> None:
    """:raises AssayError: ``INVALID_OPTION`` when ``format`` is neither ``None`` nor one of
    :data:`FORMATS`."""
    if format is not None and format not in FORMATS:
        raise AssayError(
            Code.INVALID_OPTION, f"format must be one of {', '.join(FORMATS)}", "format"
        )


def resolve_format(head: bytes, path: str, format: str | None = None) -> str:
    """The format a file is read as, from its first bytes ``head``: ``format`` when given; else
    its extension's (a ``.jsonl`` / ``.ndjson`` file that opens a JSON array is read as one);
    else sniffed from ``head``."""
    if format is not None:
        return format
    kind = _EXTENSIONS.get(Path(path).suffix.lower()) or _sniff(head)
    if kind == "jsonl" and _first_byte(head) == b"[":
        return "json"
    return kind


def parse_json(text: str | bytes, where: str) -> Any:
    """``text`` (a line, a file) parsed as JSON, or ``MALFORMED_INPUT`` at ``where``."""
    try:
        return json.loads(text)
    except RecursionError as exc:
        raise AssayError(ErrorCode.MALFORMED_INPUT, "JSON nests too deep to read", where) from exc
    except UnicodeDecodeError as exc:  # a line of bytes
        raise AssayError(ErrorCode.MALFORMED_INPUT, f"not UTF-8 text: {exc.reason}", where) from exc
    except json.JSONDecodeError as exc:
        raise AssayError(ErrorCode.MALFORMED_INPUT, f"not valid JSON: {exc.msg}", where) from exc
    except ValueError as exc:  # int() refuses integers over sys.get_int_max_str_digits()
        raise AssayError(
            ErrorCode.MALFORMED_INPUT, f"holds an integer too long to read: {exc}", where
        ) from exc


BLANK_SPACE = " \t\r\x0b\x0c"
"""What a blank line of JSON Lines may hold, wherever it is read: the characters
:meth:`bytes.isspace` accepts, less the newline (not Unicode spaces such as U+00A0, which JSON
does not take for white space either)."""


def _jsonl_rows(text: str, path: str = "-") -> Rows:
    first = True
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip(BLANK_SPACE):
            if first:
                first = False
                try:
                    row = parse_json(line, f"line {number}")
                except AssayError:
                    _one_object(text, path)  # a JSON object over many lines: say so
                    raise
                yield f"line {number}", row
                continue
            yield f"line {number}", parse_json(line, f"line {number}")


def check_first_line(head: bytes, path: str, whole: Callable[[], bytes]) -> None:
    """For JSON Lines sent to workers unparsed: when the first line in ``head`` (the file's
    first bytes) is complete but is no JSON, raise what the in-process reader raises for one
    JSON object over several lines (``whole`` reads the file, only then); else return."""
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    end = stripped.find(b"\n")
    if end < 0:
        return
    try:
        json.loads(stripped[:end])
    except (ValueError, RecursionError):
        _one_object(whole().decode("utf-8", "replace"), path)


def _one_object(text: str, path: str) -> None:
    """Raise ``MALFORMED_INPUT`` when ``text`` is one JSON object written over several lines
    (a results file, a wrapper of samples, one pretty-printed sample), naming its keys and the
    list that may hold the samples; return when it is not (the line's own error then stands).
    """
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return
    if not isinstance(value, dict):
        return
    where = "standard input" if path == "-" else path
    keys = list(map(str, value))
    shown = ", ".join(keys[:12]) + (", ..." if len(keys) > 12 else "")
    if any(key in COLUMN_ALIASES for key in keys):
        hint = "it looks like one sample: write it on one line, or as a JSON array [{...}]"
    else:
        lists = [
            key
            for key, item in value.items()
            if isinstance(item, list) and item and isinstance(item[0], dict)
        ]
        hint = (
            f"the samples may be the list under {lists[0]!r}: write that list out "
            f"(jq '.{lists[0]}' FILE > samples.json, or in Python "
            f"evaluate_batch(json.load(file)[{lists[0]!r}]))"
            if lists
            else "give a JSON array of sample objects, or one sample object per line"
        )
    raise AssayError(
        ErrorCode.MALFORMED_INPUT,
        f"{where} holds one JSON object over several lines (keys: {shown}), not samples: {hint}",
        path,
    )


def _json_rows(text: str, path: str) -> Rows:
    value = parse_json(text, path)
    if not isinstance(value, list):
        raise AssayError(
            ErrorCode.MALFORMED_INPUT,
            f"a JSON file of samples holds an array of sample objects, got {type(value).__name__}",
            path,
        )
    for index, row in enumerate(value):
        yield f"samples[{index}]", row


def _delimiter(text: str) -> str:
    """``,``, or the tab or semicolon that separates the header's columns when it holds no
    comma: a spreadsheet saved as tab-separated text, or as CSV in a locale whose decimal mark
    is a comma (``id;question;answer``)."""
    header = text[: text.find("\n")] if "\n" in text else text
    if "," in header:
        return ","
    return "\t" if "\t" in header else ";" if ";" in header else ","


def _csv_rows(text: str) -> Rows:
    reader = csv.DictReader(
        io.StringIO(text, newline=""), restkey=_EXTRA, delimiter=_delimiter(text)
    )
    for number, row in enumerate(reader, start=1):
        if _EXTRA in row:
            extra = len(row[_EXTRA])
            raise AssayError(
                ErrorCode.MALFORMED_INPUT,
                f"the row has {extra} more cell(s) than the header has columns",
                f"row {number}",
            )
        yield f"row {number}", row


_EXTRA = "\0extra"  # the key csv.DictReader gives the cells beyond the header


def _parquet_rows(data: bytes, path: str) -> Rows:
    try:
        pq = importlib.import_module("pyarrow.parquet")
    except ImportError as exc:
        raise AssayError(
            Code.MISSING_DEPENDENCY,
            "reading Parquet needs pyarrow: pip install 'assay-evaluation[parquet]'",
            path,
        ) from exc
    try:
        table = pq.read_table(io.BytesIO(data))
    except Exception as exc:  # pyarrow raises its own error types for a damaged file
        raise AssayError(
            ErrorCode.MALFORMED_INPUT, f"not a readable Parquet file: {exc}", path
        ) from exc
    for number, row in enumerate(table.to_pylist(), start=1):
        yield f"row {number}", row


def file_rows(path: str, format: str | None = None) -> tuple[Rows, bool]:
    """The rows of the file ``path`` (``-``: standard input) and whether they are table rows.
    The format is ``format``, else the extension's (``.jsonl``, ``.ndjson``, ``.csv``,
    ``.parquet``), else sniffed from the first bytes.

    :raises AssayError: ``IO_ERROR`` when unreadable; ``MALFORMED_INPUT`` for text that is not
        UTF-8, JSON that does not parse, a CSV row longer than its header, a damaged Parquet
        file; ``INVALID_OPTION`` for an unknown format; ``MISSING_DEPENDENCY`` for Parquet
        without pyarrow.
    """
    check_format(format)
    return bytes_rows(_bytes(path), path, format)


def bytes_rows(data: bytes, path: str, format: str | None = None) -> tuple[Rows, bool]:
    """:func:`file_rows` of a file already read into ``data`` (``path`` names it in errors)."""
    kind = resolve_format(data, path, format)
    if kind == "parquet":
        return _parquet_rows(data, path), True
    text = _text(data, path)
    if kind == "csv":
        return _csv_rows(text), True
    if kind == "json":
        return _json_rows(text, path), False
    return _jsonl_rows(text, path), False


def _columns_to_rows(columns: Mapping[str, Any]) -> Rows:
    """A mapping of column name -> list of values (``Dataset.to_dict()``) as rows."""
    lengths = {len(values) for values in columns.values() if isinstance(values, list | tuple)}
    if len(lengths) != 1 or len(columns) != sum(
        isinstance(v, list | tuple) for v in columns.values()
    ):
        raise AssayError(
            Code.INVALID_SAMPLE,
            "a mapping of samples maps each column to a list of the same length (for one "
            "sample, use evaluate())",
            "samples",
        )
    names = list(columns)
    for index, values in enumerate(zip(*columns.values(), strict=True)):
        yield f"samples[{index}]", dict(zip(names, values, strict=True))


def _enumerated(rows: Iterable[Any]) -> Rows:
    for index, row in enumerate(rows):
        yield f"samples[{index}]", row


def sample_rows(source: SampleSource, format: str | None = None) -> tuple[Rows, bool]:
    """The rows of ``source`` and whether they are table rows (cells to convert):

    * a path (``str`` or ``os.PathLike``; ``"-"`` for standard input): see :func:`file_rows`;
    * a pandas DataFrame (``to_dict(orient="records")``) or a polars one (``to_dicts()``);
    * a mapping of column -> list of values (what ``Dataset.to_dict()`` returns);
    * a Hugging Face ``Dataset`` or anything else that iterates rows (mappings or
      :class:`~assay.EvalSample`); an object with only ``to_dict()`` is asked for it.

    :raises AssayError: as :func:`file_rows`; ``INVALID_SAMPLE`` for anything else.
    """
    if isinstance(source, str | os.PathLike):
        return file_rows(os.fspath(source), format)
    if isinstance(source, Mapping):
        return _columns_to_rows(source), True
    if hasattr(source, "columns") and callable(getattr(source, "to_dict", None)):
        if callable(getattr(source, "to_dicts", None)):  # polars
            return _enumerated(source.to_dicts()), True
        return _enumerated(source.to_dict(orient="records")), True
    if hasattr(source, "column_names") and isinstance(source, Iterable):  # datasets.Dataset
        return _enumerated(source), True
    if isinstance(source, bytes) or not isinstance(source, Iterable):
        to_dict = getattr(source, "to_dict", None)
        if callable(to_dict):
            return sample_rows(to_dict())
        raise AssayError(
            Code.INVALID_SAMPLE,
            f"samples must be a file path, a DataFrame, a Dataset or an iterable of sample "
            f"objects, got {type(source).__name__}",
            "samples",
        )
    return _enumerated(source), False


def read_samples(
    source: SampleSource,
    *,
    format: str | None = None,
    column_map: Mapping[str, str] | None = None,
    strict: bool = False,
    contexts_separator: str | None = None,
) -> list[EvalSample]:
    """Every sample of ``source`` (see :func:`sample_rows`), validated, in order.

    Columns are matched to sample fields by name: the JSON input format's (``question``,
    ``answer``, ``contexts``, ``groundTruth`` or ``ground_truth``, ``id``, ``metadata``),
    ragas's (``user_input``, ``response``, ``retrieved_contexts``, ``reference``), or
    ``column_map`` (field -> column). In a table a ``contexts`` cell is a JSON array of strings,
    a Python list of strings (pandas' ``to_csv()`` of a list), or, with
    ``contexts_separator``, text split on it; an empty cell is a missing value (an
    empty question cell: a sample without a question). An unknown column gives one
    :class:`~assay_evaluation.SampleFieldWarning` (with a did-you-mean) and is ignored;
    ``strict=True`` makes it an error.

    :raises AssayError: as :func:`sample_rows` and :func:`~assay_evaluation.coerce_sample`, the
        path naming the row (``line 3.answer``, ``row 2.contexts``, ``samples[4].answer``).
    """
    rows, tabular = sample_rows(source, format)
    mapper = ColumnMapper(column_map, strict=strict, contexts_separator=contexts_separator)
    return [coerce_sample(mapper.row(row, where, tabular), where) for where, row in rows]
