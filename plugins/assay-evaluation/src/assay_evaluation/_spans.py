"""Byte ranges of a JSON Lines file, cut at line ends, that workers read and number themselves.

The calling process reads the file in large blocks and counts, in C (``bytes.count`` and one
regular expression), the lines and blank lines of each range; it never splits a line off. A
worker on this machine opens the file and reads its own range; anything else (a thread, a dask
worker, an executor that pickles with :mod:`pickle`) gets the range's bytes with the job.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Iterator
from multiprocessing.reduction import ForkingPickler
from typing import IO, Any

import attrs

from assay import AssayError, ErrorCode
from assay_evaluation._readers import BLANK_SPACE

__all__ = ["BOM", "LineSpan", "line_spans", "numbered", "open_input"]

BOM = b"\xef\xbb\xbf"
"""A UTF-8 byte order mark; dropped from the start of a file's first line."""

_SPACE = b"[" + re.escape(BLANK_SPACE.encode()) + b"]*"
_BLANK_AFTER_NEWLINE = re.compile(rb"\n" + _SPACE + rb"(?=\n)")
"""A blank line that follows a newline and ends with one (a line of nothing but space)."""
_BLANK_AT = re.compile(_SPACE + rb"(?:\n|\Z)")
"""A blank line starting where the match starts (``\\Z``: at the end of the searched range)."""


def open_input(path: str) -> IO[bytes]:
    """``path`` opened for reading bytes.

    :raises AssayError: ``IO_ERROR`` when it cannot be read.
    """
    try:
        return open(path, "rb")
    except OSError as exc:
        raise AssayError(ErrorCode.IO_ERROR, f"cannot read the file: {exc.strerror}", path) from exc


def numbered(lines: Iterable[bytes], first: int = 1) -> Iterator[tuple[int, bytes]]:
    """``(line number, line)`` of each line that is not blank (empty or only
    :meth:`bytes.isspace` bytes), the first numbered ``first``, without its newline (so that
    JSON reads the same text, and reports the same error, as when the file is read whole); a
    BOM is dropped from line 1."""
    for number, line in enumerate(lines, start=first):
        if number == 1 and line.startswith(BOM):
            line = line[len(BOM) :]
        if line and not line.isspace():  # no copy, unlike strip()
            yield number, line[:-1] if line.endswith(b"\n") else line


@attrs.frozen
class LineSpan:
    """Whole consecutive lines of a JSON Lines file: the bytes ``[begin, end)``.

    Attributes:
        path: the file.
        begin: the offset of the first line (0, or just after a newline).
        end: the offset just after the last line's newline (or the end of the file).
        first_line: the 1-based number of the first line in the file.
        lines: how many newlines the range holds (the worker checks it reads the same).
        version: the file's size and modification time (ns) when it was cut.
        data: the range's bytes as the calling process read them; ``None`` in a process of
            this machine, which reads them from the file (see :func:`_to_local_process`).
    """

    path: str
    begin: int
    end: int
    first_line: int
    lines: int
    version: tuple[int, int]
    data: bytes | None = attrs.field(default=None, eq=False, repr=False)

    def numbered(self) -> Iterator[tuple[int, bytes]]:
        """``(line number, line)`` of each line in the range that is not blank (see
        :func:`numbered`).

        :raises AssayError: ``IO_ERROR`` when the file cannot be read or changed since it was
            cut.
        """
        data = self.data if self.data is not None else self._read()
        return numbered(io.BytesIO(data), self.first_line)  # iterates lines, newlines kept

    def _read(self) -> bytes:
        handle = open_input(self.path)
        with handle:
            try:
                stat = os.fstat(handle.fileno())
                handle.seek(self.begin)
                data = handle.read(self.end - self.begin)
            except OSError as exc:
                raise AssayError(
                    ErrorCode.IO_ERROR, f"cannot read the file: {exc.strerror}", self.path
                ) from exc
        if (stat.st_size, stat.st_mtime_ns) != self.version or data.count(b"\n") != self.lines:
            raise AssayError(
                ErrorCode.IO_ERROR, f"{self.path} changed while it was being evaluated", self.path
            )
        return data


def _to_local_process(span: LineSpan) -> tuple[Any, ...]:
    """How :class:`LineSpan` travels to a process that :mod:`multiprocessing` started (a
    ``ProcessPoolExecutor`` worker): without its bytes, which that process, on this machine,
    reads from the file. Plain :mod:`pickle` (dask, other executors) sends them along."""
    return LineSpan, (span.path, span.begin, span.end, span.first_line, span.lines, span.version)


ForkingPickler.register(LineSpan, _to_local_process)


def _version(handle: IO[bytes]) -> tuple[int, int]:
    stat = os.fstat(handle.fileno())
    return stat.st_size, stat.st_mtime_ns


def _is_blank(block: bytes, start: int, end: int, first_line: int) -> bool:
    """Whether the line of ``block`` at ``[start, end)`` (with its newline, if any) is blank,
    as :func:`numbered` decides; ``block`` begins with line ``first_line``."""
    if start == 0 and first_line == 1 and block.startswith(BOM):
        start = len(BOM)
    return _BLANK_AT.match(block, start, end) is not None


def _count(block: bytes, cut: int, first_line: int) -> tuple[int, int]:
    """The newlines in ``block[:cut]`` (whole lines, the last one perhaps without a newline)
    and how many of its lines are not blank, counted in C."""
    if not cut:
        return 0, 0
    newlines = block.count(b"\n", 0, cut)
    blanks = len(_BLANK_AFTER_NEWLINE.findall(block, 0, cut)) + _is_blank(block, 0, cut, first_line)
    last = block.rfind(b"\n", 0, cut) + 1
    if 0 < last < cut:  # a last line without a newline, not the first one
        blanks += _BLANK_AT.match(block, last, cut) is not None
    return newlines, newlines + (not block.endswith(b"\n", 0, cut)) - blanks


def _read(handle: IO[bytes], path: str, begin: int, size: int) -> tuple[bytes, bool]:
    """Up to ``size`` bytes of ``handle`` from ``begin``, and whether they reach its end.

    :raises AssayError: ``IO_ERROR`` when the file cannot be read.
    """
    try:
        handle.seek(begin)
        block = handle.read(size)
    except OSError as exc:
        raise AssayError(ErrorCode.IO_ERROR, f"cannot read the file: {exc.strerror}", path) from exc
    return block, len(block) < size


def _lines_from(
    handle: IO[bytes], path: str, begin: int, first_line: int, rows: int, size: int
) -> tuple[bytes, int, int]:
    """The whole lines of ``handle`` from ``begin`` (line ``first_line``) that hold ``rows``
    lines that are not blank (fewer at the end of the file), their newlines and how many of
    them are not blank. Reads ``size`` bytes first, twice as many until they hold enough
    lines, then drops the lines beyond the ``rows``-th (one ``rfind`` each)."""
    while True:
        block, end_of_file = _read(handle, path, begin, size)
        cut = len(block) if end_of_file else block.rfind(b"\n") + 1
        lines, samples = _count(block, cut, first_line)
        if samples >= rows or end_of_file:
            break
        size *= 2
    blank_free = samples == lines + (not block.endswith(b"\n", 0, cut))
    while samples > rows:
        start = block.rfind(b"\n", 0, cut - 1) + 1
        samples -= blank_free or not _is_blank(block, start, cut, first_line)
        lines -= block.endswith(b"\n", 0, cut)
        cut = start
    return block[:cut] if cut < len(block) else block, lines, samples


def line_spans(
    handle: IO[bytes], path: str, rows: int, line_bytes: int
) -> Iterator[tuple[LineSpan, int]]:
    """``handle`` (``path``) cut into ranges of whole lines, each holding ``rows`` lines that
    are not blank (the last one what is left), with that count. Each range is read once in
    one block, sized from the mean line length so far (``line_bytes`` to begin with) and an
    eighth more; ranges holding only blank lines are skipped. The calling process holds one
    range at a time.

    :raises AssayError: ``IO_ERROR`` when the file cannot be read.
    """
    version = _version(handle)
    begin, first_line = 0, 1
    while True:
        size = (rows + rows // 8 + 1) * line_bytes
        block, lines, samples = _lines_from(handle, path, begin, first_line, rows, size)
        if not block:
            return
        end = begin + len(block)
        if samples:
            yield LineSpan(path, begin, end, first_line, lines, version, block), samples
        begin, first_line = end, first_line + lines
        line_bytes = max(1, len(block) // max(1, lines))
