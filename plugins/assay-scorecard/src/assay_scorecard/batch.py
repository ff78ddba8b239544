"""Batch scoring: a stream of inputs in, a stream of scorecards out, in order, in constant memory,
optionally spread over worker processes."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, NamedTuple, cast

from assay import AssayError, ErrorCode
from assay.cli import resolve_workers
from assay_scorecard.engine import Scorer, create_scorer
from assay_scorecard.lines import BlockResult, score_block
from assay_scorecard.pipeline import Job, in_order
from assay_scorecard.requests import canonical_json, parse_request_line
from assay_scorecard.types import Scorecard, ScoringConfig, ScoringInputs
from assay_scorecard.wire import scorecard_to_json, scorecard_to_wire, scoring_config_to_wire

__all__ = ["score_many"]

Row = ScoringInputs | Mapping[str, Any] | str


class _Output(NamedTuple):
    """How rows are turned into results (sent to workers with every chunk)."""

    as_wire: bool
    as_json: bool
    keep_errors: bool
    config_key: str  # canonical JSON of the stream's config, for request lines that carry one


def _results(scorer: Scorer, rows: Iterable[Row], output: _Output) -> Iterator[Any]:
    """The result of every row, in order, as ``output`` asks (one generator, so that scoring in
    this process costs no more per row than calling ``scorer.compute`` in a loop)."""
    compute = scorer.compute
    as_json, as_wire, keep_errors = output.as_json, output.as_wire, output.keep_errors
    config_key = output.config_key
    if not (as_json or as_wire or keep_errors):  # the common case: Scorecards, errors raise
        for row in rows:
            yield compute(parse_request_line(row, config_key) if isinstance(row, str) else row)
        return
    for row in rows:
        if keep_errors and isinstance(row, AssayError):
            yield row
            continue
        try:
            card = compute(parse_request_line(row, config_key) if isinstance(row, str) else row)
        except AssayError as error:
            if not keep_errors:
                raise
            yield error
            continue
        if as_json:
            yield scorecard_to_json(card)
        else:
            yield scorecard_to_wire(card) if as_wire else card


def _score_rows(scorer: Scorer, rows: Iterable[Row], output: _Output) -> list[Any]:
    return list(_results(scorer, rows, output))


_worker_scorer: Scorer | None = None


def _init_worker(config: Mapping[str, Any]) -> None:
    global _worker_scorer
    _worker_scorer = create_scorer(config)


def _score_chunk(rows: list[Row], output: _Output) -> list[Any]:
    scorer = _worker_scorer
    assert scorer is not None, "worker initializer did not run"
    return _score_rows(scorer, rows, output)


def _score_block_chunk(block: bytes, config_key: str) -> BlockResult:
    assert _worker_scorer is not None, "worker initializer did not run"
    return score_block(_worker_scorer, block, config_key, skip_blank=False)


def _as_block(chunk: list[Row]) -> bytes | None:
    """A chunk of JSON text rows as one block of lines (one memory copy to a worker instead of
    a pickled list), or ``None`` when it cannot be one: a row that is not text, holds a newline
    or is not encodable as UTF-8 (a lone surrogate)."""
    if not all(type(row) is str for row in chunk):
        return None
    joined = "\n".join(cast(list[str], chunk))
    if joined.count("\n") != len(chunk) - 1:
        return None
    try:
        return joined.encode()
    except UnicodeEncodeError:
        return None


def _block_rows(result: BlockResult) -> list[str | AssayError]:
    """The rows of a block scored with ``skip_blank=False``: JSON text lines, errors in place."""
    rows: list[str | AssayError] = list(result.text.decode().split("\n")[:-1])
    for row, _, error in result.errors:
        rows[row] = error
    return rows


def score_many(
    rows: Iterable[Row],
    config: ScoringConfig | Mapping[str, Any] | None = None,
    *,
    workers: int | str = 0,
    chunk_size: int = 512,
    as_wire: bool = False,
    as_json: bool = False,
    keep_errors: bool = False,
    executor: Executor | None = None,
) -> Iterator[Scorecard | dict[str, Any] | str | AssayError]:
    """Score every row of ``rows`` with one validated config, yielding results in input order.

    :param rows: any iterable of inputs, consumed lazily: wire dicts, :class:`ScoringInputs`,
        or JSON text lines (a bare inputs object, or ``{"inputs", "config"?, "id"?}`` whose
        config must equal ``config``), which are parsed where they are scored.
    :param config: the scoring config (validated once, before the first row is read).
    :param workers: worker processes (the meaning of ``--workers`` in every command): ``0``
        scores in this process, N in N processes, ``"auto"`` one per CPU.
    :param chunk_size: rows sent to a worker at a time.
    :param as_wire: yield the wire-shape dict instead of the :class:`Scorecard`.
    :param as_json: yield the wire shape as a JSON text line (non-finite numbers tagged); the
        cheapest form to move between processes and the one ``assay score --jsonl`` prints.
    :param keep_errors: yield an :class:`AssayError` in place of a row that cannot be scored
        instead of raising it; a row that *is* an :class:`AssayError` (e.g. a line a reader
        could not parse) is passed through in its place, so errors keep their position.
    :param executor: run chunks on this executor instead of a new process pool (the scorer is
        sent with each chunk, so a process executor must be able to pickle it).
    :return: an iterator; at most ``2 * max(workers, 1)`` chunks are in
        flight, so memory stays
        constant however long ``rows`` is.
    :raises AssayError: ``INVALID_CONFIG`` at call time for a bad config; row errors when
        ``keep_errors`` is false.
    """
    workers = resolve_workers(workers)
    if chunk_size < 1:
        raise AssayError(ErrorCode.INVALID_CONFIG, "chunk_size must be >= 1", "chunk_size")
    scorer = create_scorer(config)  # validates now, in the caller's process
    output = _Output(as_wire, as_json, keep_errors, canonical_json(scoring_config_to_wire(config)))
    if workers == 0 and executor is None:
        return _results(scorer, rows, output)
    return _parallel(scorer, rows, max(workers, 1), chunk_size, output, executor)


def _parallel(
    scorer: Scorer,
    rows: Iterable[Row],
    workers: int,
    chunk_size: int,
    output: _Output,
    executor: Executor | None,
) -> Iterator[Any]:
    own = executor is None
    pool: Executor = executor or ProcessPoolExecutor(
        max_workers=workers,
        initializer=_init_worker,
        initargs=(scoring_config_to_wire(scorer.config),),
    )
    iterator = iter(rows)

    def jobs() -> Iterator[Job[None]]:
        while chunk := list(itertools.islice(iterator, chunk_size)):
            block = _as_block(chunk) if output.as_json else None
            if block is None:
                if own:
                    yield _score_chunk, (chunk, output), None
                else:
                    yield _score_rows, (scorer, chunk, output), None
            elif own:
                yield _score_block_chunk, (block, output.config_key), None
            else:
                yield score_block, (scorer, block, output.config_key, False), None

    try:
        for results, _ in in_order(pool, jobs(), 2 * workers):
            if not isinstance(results, BlockResult):
                yield from results
                continue
            for result in _block_rows(results):
                if isinstance(result, AssayError) and not output.keep_errors:
                    raise result
                yield result
    finally:
        if own:
            pool.shutdown(wait=True, cancel_futures=True)
