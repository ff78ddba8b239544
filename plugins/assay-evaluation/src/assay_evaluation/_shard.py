"""Cutting a sample source into chunks of raw rows for workers, without parsing them here.

A JSON Lines file is cut into byte ranges of whole lines (:mod:`assay_evaluation._spans`): the
calling process counts each range's lines in C and never splits a line off, holds one range at
a time and never a parsed sample, and the workers read and number their own lines. Standard
input is read whole as bytes (it cannot be read twice to count it) and split into lines here.
Any other source (a JSON array, CSV or Parquet file, a DataFrame, a list) is turned into its
rows here, as :func:`~assay_evaluation.sample_rows` does, and the rows travel as they are:
validating them is the workers' job.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import IO, Any

from assay_evaluation._readers import (
    Rows,
    SampleSource,
    bytes_rows,
    check_first_line,
    check_format,
    resolve_format,
    sample_rows,
)
from assay_evaluation._spans import line_spans, numbered, open_input
from assay_evaluation._work import ChunkJob

__all__ = ["chunk_jobs"]

_SNIFF_BYTES = 1 << 16
_COUNT_BYTES = 1 << 20
"""About how much of a file each step of counting its samples reads."""


def _line_bytes(handle: IO[bytes]) -> int:
    """The mean length of the lines in the first bytes of ``handle`` (all of them when they
    hold no newline): the first guess of how many bytes hold a chunk's lines."""
    head = handle.read(_SNIFF_BYTES)
    return max(1, len(head) // max(1, head.count(b"\n")))


def _is_json_lines(path: str, format: str | None) -> bool:
    """Whether ``path`` is read as JSON Lines, as :func:`~assay_evaluation.read_samples`
    decides (:func:`~assay_evaluation._readers.resolve_format` on its first bytes)."""
    if format is not None:
        return format == "jsonl"
    with open_input(path) as handle:
        head = handle.read(_SNIFF_BYTES)
    return resolve_format(head, path) == "jsonl"


def _whole(path: str) -> bytes:
    with open_input(path) as handle:
        return handle.read()


def _span_jobs(path: str, size: int) -> Iterator[ChunkJob]:
    """Jobs of the ranges of ``path`` holding ``size`` rows each (the last one what is left);
    opened now, so a missing file fails before any work."""
    handle = open_input(path)

    def jobs() -> Iterator[ChunkJob]:
        with handle:
            start = 0
            for span, samples in line_spans(handle, path, size, _line_bytes(handle)):
                yield ChunkJob(start, [], span=span)
                start += samples

    return jobs()


def _file_samples(path: str) -> int:
    """How many lines of the JSON Lines file ``path`` are not blank."""
    with open_input(path) as handle:
        line_bytes = _line_bytes(handle)
        rows = max(1, _COUNT_BYTES // line_bytes)
        return sum(samples for _, samples in line_spans(handle, path, rows, line_bytes))


def _line_jobs(found: Iterator[tuple[int, bytes]], size: int) -> Iterator[ChunkJob]:
    start = 0
    lines: list[int] = []
    rows: list[Any] = []
    for number, line in found:
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
                check_first_line(data[:_SNIFF_BYTES], path, lambda: data)
                lines = list(numbered(data.split(b"\n")))
                return _line_jobs(iter(lines), size), len(lines)
            return _row_chunks(bytes_rows(data, path, format), size)
        if _is_json_lines(path, format):
            with open_input(path) as handle:
                check_first_line(handle.read(_SNIFF_BYTES), path, lambda: _whole(path))
            total = _file_samples(path) if count else 0
            return _span_jobs(path, size), total
    return _row_chunks(sample_rows(source, format), size)


def _row_chunks(found: tuple[Rows, bool], size: int) -> tuple[Iterator[ChunkJob], int]:
    rows, tabular = found
    pairs = list(rows)
    label = "row" if pairs and pairs[0][0].startswith("row ") else "samples"
    return _row_jobs([row for _, row in pairs], tabular, label, size), len(pairs)
