"""Cutting a sample source into chunks of raw rows for workers, without parsing them here.

A JSON Lines file is read line by line as bytes (counted first, in one pass that parses
nothing), so the calling process never holds the file or a parsed sample; standard input is
read whole as bytes (it cannot be read twice to count it). Any other source (a JSON array, CSV or Parquet
file, a DataFrame, a list) is turned into its rows here, as
:func:`~assay_evaluation.sample_rows` does, and the rows travel as they are: validating them is
the workers' job.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

from assay import AssayError, ErrorCode
from assay_evaluation._readers import (
    Rows,
    SampleSource,
    bytes_rows,
    check_format,
    resolve_format,
    sample_rows,
)
from assay_evaluation._work import ChunkJob

__all__ = ["chunk_jobs"]

_BOM = b"\xef\xbb\xbf"
_SNIFF_BYTES = 1 << 16


def _open(path: str) -> IO[bytes]:
    try:
        return open(path, "rb")
    except OSError as exc:
        raise AssayError(ErrorCode.IO_ERROR, f"cannot read {path}: {exc.strerror}", path) from exc


def _is_json_lines(path: str, format: str | None) -> bool:
    """Whether ``path`` is read as JSON Lines, as :func:`~assay_evaluation.read_samples`
    decides (:func:`~assay_evaluation._readers.resolve_format` on its first bytes)."""
    if format is not None:
        return format == "jsonl"
    with _open(path) as handle:
        head = handle.read(_SNIFF_BYTES)
    return resolve_format(head, path) == "jsonl"


def _numbered(lines: Iterable[bytes]) -> Iterator[tuple[int, bytes]]:
    """``(line number, line)`` of each line that is not blank; a leading BOM is dropped."""
    for number, line in enumerate(lines, start=1):
        if number == 1 and line.startswith(_BOM):
            line = line[len(_BOM) :]
        if line and not line.isspace():  # no copy, unlike strip()
            yield number, line


def _file_lines(path: str) -> Iterator[tuple[int, bytes]]:
    """The numbered lines of ``path``; opened now, so a missing file fails before any work."""
    handle = _open(path)

    def lines() -> Iterator[tuple[int, bytes]]:
        with handle:
            yield from _numbered(handle)

    return lines()


def _line_jobs(numbered: Iterator[tuple[int, bytes]], size: int) -> Iterator[ChunkJob]:
    start = 0
    lines: list[int] = []
    rows: list[Any] = []
    for number, line in numbered:
        lines.append(number)
        rows.append(line)
        if len(rows) == size:
            yield ChunkJob(start, rows, lines=lines)
            start += size
            lines, rows = [], []
    if rows:
        yield ChunkJob(start, rows, lines=lines)


def _row_jobs(rows: list[Any], tabular: bool, label: str, size: int) -> Iterator[ChunkJob]:
    for start in range(0, len(rows), size):
        yield ChunkJob(start, rows[start : start + size], tabular=tabular, label=label)


def chunk_jobs(
    source: SampleSource, format: str | None, size: int, count: bool = True
) -> tuple[Iterator[ChunkJob], int]:
    """Chunks of at most ``size`` rows of ``source``, in input order, and the number of rows
    (for a JSON Lines file only when ``count``, else 0: counting reads the file twice).

    :raises AssayError: ``IO_ERROR`` for a file that cannot be read; ``INVALID_OPTION`` for an
        unknown format; what :func:`~assay_evaluation.sample_rows` raises for other sources.
    """
    check_format(format)
    if isinstance(source, str | os.PathLike):
        path = os.fspath(source)
        if path == "-":
            data = sys.stdin.buffer.read()
            if resolve_format(data, path, format) == "jsonl":
                numbered = list(_numbered(data.split(b"\n")))
                return _line_jobs(iter(numbered), size), len(numbered)
            return _row_chunks(bytes_rows(data, path, format), size)
        if _is_json_lines(path, format):
            total = sum(1 for _ in _file_lines(path)) if count else 0
            return _line_jobs(_file_lines(path), size), total
    return _row_chunks(sample_rows(source, format), size)


def _row_chunks(found: tuple[Rows, bool], size: int) -> tuple[Iterator[ChunkJob], int]:
    rows, tabular = found
    pairs = list(rows)
    label = "row" if pairs and pairs[0][0].startswith("row ") else "samples"
    return _row_jobs([row for _, row in pairs], tabular, label, size), len(pairs)
