"""Blocks of JSON Lines: the unit of work of streaming and parallel scoring.

A block is many request lines as one ``bytes`` object; scoring it gives one ``bytes`` object of
scorecard lines. Moving a block between processes is one memory copy, where moving the same rows
as Python objects costs more than scoring them (see docs/scorecard.md, "Batch scoring").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, NamedTuple

from assay import AssayError
from assay_scorecard.answer_records import is_answer_record
from assay_scorecard.engine import Scorer
from assay_scorecard.requests import load_request_line, request_inputs
from assay_scorecard.types import Scorecard
from assay_scorecard.wire import compact_utf8, scorecard_to_wire, wire_to_json

if TYPE_CHECKING:
    from assay_scorecard.answers import StreamScorer

__all__ = ["INTERNAL_ERROR", "BlockResult", "read_blocks", "score_block"]

INTERNAL_ERROR = "INTERNAL_ERROR"
"""Error code of a row whose scoring raised something other than :class:`AssayError` (a bug in
a scorer or dimension: please report it with the line). The row gets an error record and the
stream goes on."""


class BlockResult(NamedTuple):
    """What :func:`score_block` returns.

    Attributes:
        text: one ``\\n``-terminated line per row of the block, in order: the row's scorecard as
            compact JSON (UTF-8), or an empty line where the row failed.
        errors: ``(row, line, error)`` for every failed row, in order: its position among the
            block's rows, its 0-based line in the block (blank lines count), its error.
    """

    text: bytes
    errors: list[tuple[int, int, AssayError]]


def score_block(
    scorer: Scorer | StreamScorer, block: bytes, config_key: str, skip_blank: bool = True
) -> BlockResult:
    """Score every request line of ``block`` with ``scorer``.

    :param block: UTF-8 JSON text lines separated by ``\\n`` (a ``\\r`` before it is JSON
        whitespace); a final newline is optional. Each line is what
        :func:`~assay_scorecard.requests.parse_request_line` reads, or an answer record when
        ``scorer`` is a :class:`~assay_scorecard.answers.StreamScorer`.
    :param config_key: the canonical JSON of ``scorer``'s config (a line that carries a
        different config fails with ``INVALID_CONFIG``).
    :param skip_blank: lines of ASCII whitespace only are not rows (no output line); when false,
        every line is a row and a blank one fails as not JSON.
    :param scorer: a :class:`Scorer`, or a :class:`~assay_scorecard.answers.StreamScorer`,
        which also scores answer records (``question``, ``answer``, ``contexts``): each one's
        line is its :class:`~assay_scorecard.AnswerResult` as JSON. A plain scorer refuses an
        answer record (``MALFORMED_INPUT``).
    :return: a :class:`BlockResult`. A row that raises :class:`AssayError` fails with it; one
        that raises any other exception (a bug) fails with :data:`INTERNAL_ERROR`, naming the
        exception, so that every row gets its output line whatever happens.
    """
    out: list[bytes] = []
    errors: list[tuple[int, int, AssayError]] = []
    compute = scorer.compute
    answers = getattr(scorer, "answers", None)
    lines = block.split(b"\n")
    if block.endswith(b"\n"):
        lines.pop()
    for index, line in enumerate(lines):
        if skip_blank and not line.strip():
            continue
        try:
            record = load_request_line(line)
            if answers is not None and is_answer_record(record):
                text = _utf8(answers.score_json(record, config_key))
            else:
                text = _scorecard_line(compute(request_inputs(record, config_key)))
        except AssayError as error:
            errors.append((len(out), index, error))
            out.append(b"")
            continue
        except Exception as exc:  # a bug: this row's error record, not the end of the stream
            errors.append((len(out), index, _internal(exc)))
            out.append(b"")
            continue
        out.append(text)
    out.append(b"")
    return BlockResult(b"\n".join(out), errors)


def _internal(exc: Exception) -> AssayError:
    text = str(exc)
    if len(text) > 200:
        text = text[:200] + "..."
    return AssayError(INTERNAL_ERROR, f"scoring failed unexpectedly ({type(exc).__name__}: {text})")


def _scorecard_line(scorecard: Scorecard) -> bytes:
    """``scorecard_to_json(scorecard)`` as UTF-8, without decoding orjson's bytes to encode
    them again."""
    wire = scorecard_to_wire(scorecard)
    text = compact_utf8(scorecard, wire)
    return text if text is not None else _utf8(wire_to_json(wire))


def _utf8(text: str) -> bytes:
    try:
        return text.encode()
    except UnicodeEncodeError:
        # a lone surrogate (read from a \\ud800 escape) can only sit inside a JSON string, where
        # backslashreplace writes it back as that same escape
        return text.encode("utf-8", "backslashreplace")


def read_blocks(source: IO[bytes], size: int) -> Iterator[bytes]:
    """Whole lines of ``source`` in blocks of about ``size`` bytes (a line longer than that is
    one block). Reads what is available (``read1``) so that lines fed one at a time through a
    pipe are scored as they come, not when a block fills.
    """
    read = getattr(source, "read1", source.read)
    pending: list[bytes] = []  # the start of a line not ended yet (a long line comes in parts)
    while data := read(size):
        cut = data.rfind(b"\n")
        if cut < 0:
            pending.append(data)
            continue
        pending.append(data[: cut + 1])
        yield b"".join(pending)
        pending = [data[cut + 1 :]] if cut + 1 < len(data) else []
    if pending:
        yield b"".join(pending)
