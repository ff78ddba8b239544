"""Durable JSON Lines streaming of finished results, and reading them back to resume a run."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from assay import AssayError, ErrorCode
from assay_evaluation._types import EvalResult
from assay_evaluation._wire import result_from_wire, result_line

__all__ = ["ResultStream", "iter_finished", "read_finished", "read_results"]


def read_results(path: str | os.PathLike[str]) -> list[EvalResult]:
    """The results stored in a streamed JSON Lines file, in file order (a cut-off last line is
    ignored; the file is not changed).

    :raises AssayError: ``IO_ERROR`` when the file cannot be read; ``MALFORMED_INPUT`` as
        :func:`iter_finished`.
    """
    if not Path(path).is_file():
        raise AssayError(ErrorCode.IO_ERROR, "no such results file", str(path))
    return list(read_finished(path, repair=False).values())


def read_finished(path: str | os.PathLike[str], repair: bool = True) -> dict[str, EvalResult]:
    """Results already in ``path``, by resume key (the sample id, or ``#<index>``); the last
    line of a key wins. See :func:`iter_finished`.

    :raises AssayError: ``MALFORMED_INPUT`` as :func:`iter_finished`.
    """
    return dict(iter_finished(path, repair))


def _has_content(handle: IO[bytes]) -> bool:
    """Whether what is left in ``handle`` holds anything but whitespace (read in blocks)."""
    while block := handle.read(1 << 20):
        if block.strip():
            return True
    return False


def iter_finished(
    path: str | os.PathLike[str], repair: bool = True
) -> Iterator[tuple[str, EvalResult]]:
    """``(resume key, result)`` for each line of ``path``, in file order, read one line at a
    time: memory holds one line and its result, never the file (a resumed 50k-sample run does
    not hold 175 MB of text). Each line is validated as it is read.

    A last line cut off by a crash (no newline, or not JSON) is dropped and, once the file has
    been read to its end, truncated away (when ``repair``), so appending continues cleanly. A
    missing file yields nothing.

    :raises AssayError: ``MALFORMED_INPUT`` when a complete line in the middle is not a stored
        result (the file is not ours; nothing is changed).
    """
    target = Path(path)
    if not target.exists():
        return
    good_end = 0
    with target.open("rb") as handle:
        for line in handle:
            if not line.endswith(b"\n"):
                break  # cut off mid-line by an interruption
            try:
                wire = json.loads(line)
            except ValueError as exc:
                if _has_content(handle):
                    raise AssayError(
                        ErrorCode.MALFORMED_INPUT,
                        f"line at byte {good_end} is not JSON; not a results stream",
                        str(target),
                    ) from exc
                break
            where = f"{target}@{good_end}"
            if not isinstance(wire, dict) or not isinstance(wire.get("key"), str):
                raise AssayError(
                    ErrorCode.MALFORMED_INPUT,
                    'not a stored evaluation result (a line is {"key": str, "result": {...}})',
                    where,
                )
            yield wire["key"], result_from_wire(wire.get("result") or {}, where)
            good_end += len(line)
        size = handle.seek(0, os.SEEK_END)
    if repair and good_end < size:
        with target.open("r+b") as handle:
            handle.truncate(good_end)


class ResultStream:
    """Appends ``{"key", "result"}`` lines to a JSON Lines file; :meth:`write` returns after the
    lines are flushed and fsynced, so an interruption loses at most the chunk being written.

    :param path: the file; created with its folder when missing.
    :param append: keep what is there (resume) instead of starting empty.
    :raises AssayError: ``IO_ERROR`` when the file cannot be created or opened.
    """

    def __init__(self, path: str | os.PathLike[str], append: bool) -> None:
        target = Path(path)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            self._handle: IO[bytes] = target.open("ab" if append else "wb")
        except OSError as exc:
            raise AssayError(
                ErrorCode.IO_ERROR,
                f"cannot write the results stream: {exc.strerror} ({exc.filename})",
                str(path),
            ) from exc

    def write(self, items: Iterable[tuple[str, EvalResult]]) -> None:
        """Append one line per ``(key, result)`` and make them durable."""
        self.write_bytes("".join(result_line(k, r) for k, r in items).encode("utf-8"))

    def write_bytes(self, data: bytes) -> None:
        """Append lines already serialized and encoded as :meth:`write` would (a worker's
        chunk, UTF-8) and make them durable."""
        self._handle.write(data)
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def close(self) -> None:
        """Close the file."""
        self._handle.close()
