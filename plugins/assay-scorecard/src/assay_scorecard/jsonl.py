"""JSON Lines file in, JSON Lines file out: ``assay score --jsonl`` and :func:`score_jsonl`.

With several workers on a platform that can fork, the work is split so that no scorecard passes
through the parent: the parent reads blocks of lines and deals them out in turn; each worker
scores its block and writes it straight to the output, waiting for its turn on a ring of
semaphores (block k is written by worker k mod N after block k - 1), so the output is in input
order. Moving the scorecards back through the parent (about 2.4 KB of JSON each) cost the parent
5.8 us of CPU per line, a sixth of a line's whole cost; see docs/scorecard.md, "Batch scoring".
"""

from __future__ import annotations

import collections
import contextlib
import json
import multiprocessing
import os
import re
import signal
import threading
from collections.abc import Iterator, Mapping
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from multiprocessing.connection import Connection, wait
from typing import IO, Any

import attrs

from assay import AssayError, ErrorCode
from assay.cli import resolve_workers
from assay.wire import to_json_safe
from assay_scorecard.answers import AnswerLines, StreamScorer, split_reader
from assay_scorecard.engine import create_scorer
from assay_scorecard.lines import BlockResult, read_blocks, score_block
from assay_scorecard.pipeline import Job, in_order
from assay_scorecard.requests import canonical_json
from assay_scorecard.types import ScoringConfig
from assay_scorecard.wire import scoring_config_to_wire

__all__ = ["WORKER_DIED", "JsonlSummary", "score_jsonl"]

DEFAULT_BLOCK_SIZE = 1 << 16

WORKER_DIED = "WORKER_DIED"
"""Error code of :func:`score_jsonl` when a worker process died (killed, out of memory) before
it finished its blocks: the other workers are stopped and the output is incomplete."""


@attrs.frozen
class JsonlSummary:
    """What :func:`score_jsonl` did.

    Attributes:
        rows: request lines read (blank lines are not rows).
        failed: rows written as an error record instead of a scorecard.
        workers: worker processes that scored (0: this process).
        first_error: the ``{"code", "message", "path", "line"}`` of the first failed row in
            input order (what its error record holds), or ``None``.
        actions: with ``count_actions``, how many scorecards recommended each action
            (``answer``, ``review``, ``abstain``; an action no scorecard recommended is absent);
            else empty.
    """

    rows: int
    failed: int
    workers: int
    first_error: Mapping[str, Any] | None = None
    actions: Mapping[str, int] = attrs.field(factory=dict)


@attrs.define
class _Tally:
    """Counts over the blocks one process writes, in input order (the actions only when
    ``count_actions``: finding them costs a few percent of the scoring time)."""

    count_actions: bool = False
    rows: int = 0
    failed: int = 0
    first_error: dict[str, Any] | None = None
    actions: collections.Counter[str] = attrs.field(factory=collections.Counter)

    def add(self, result: BlockResult, first_line: int, text: bytes, count: int) -> None:
        self.rows += count
        self.failed += len(result.errors)
        if result.errors and self.first_error is None:
            _, line, error = result.errors[0]
            self.first_error = _error_fields(error, first_line + line)
        if self.count_actions:  # a wire key; inside a JSON string its quotes would be escaped
            self.actions.update(match.decode() for match in _ACTION.findall(text))

    def merge(self, other: _Tally) -> None:
        """Add another process's counts (its first error wins when it comes earlier)."""
        self.rows += other.rows
        self.failed += other.failed
        self.actions.update(other.actions)
        mine, theirs = self.first_error, other.first_error
        if theirs is not None and (mine is None or theirs["line"] < mine["line"]):
            self.first_error = theirs

    def summary(self, workers: int) -> JsonlSummary:
        return JsonlSummary(self.rows, self.failed, workers, self.first_error, dict(self.actions))


_ACTION = re.compile(rb'"recommendedAction":"(answer|review|abstain)"')


def score_jsonl(
    source: IO[bytes],
    sink: IO[bytes],
    config: ScoringConfig | Mapping[str, Any] | None = None,
    *,
    workers: int | str = 0,
    block_size: int = DEFAULT_BLOCK_SIZE,
    executor: Executor | None = None,
    reader: str | None = None,
    count_actions: bool = False,
) -> JsonlSummary:
    """Score every request line of ``source`` and write one line per request to ``sink``.

    Each non-blank line of ``source`` (UTF-8; lines end with ``\\n`` or ``\\r\\n``) is a bare
    inputs object or ``{"inputs", "config"?, "id"?}`` whose config, if any, equals ``config``.
    Its output line is the scorecard's wire shape as compact JSON (non-finite numbers written
    ``{"$float": "NaN"}``), or ``{"error": {"code", "message", "path", "line"}}`` (``line``
    1-based in ``source``) when the row cannot be scored. Output is in input order and
    byte-identical whatever ``workers`` is.

    A line may also be an answer record ``{"question", "answer", "contexts", "signals"?,
    "config"?, "id"?}``: its output line is its :class:`~assay_scorecard.AnswerResult` as JSON
    (``{"id"?, "scorecard", "signals", "evidence"}``, the record's ``id`` first when it has
    one), scored as
    :func:`~assay_scorecard.score_answer_record` scores it (preset ``grounded-v1`` unless the
    config names one; the signal reader is found once per process, at the first answer record).

    :param source: a binary stream, read in blocks of about ``block_size`` bytes (lines fed
        through a pipe one at a time are scored as they arrive).
    :param sink: a binary stream. With ``workers >= 1`` and a sink that has a file descriptor,
        worker processes write to it directly (it is flushed first); otherwise the lines are
        written with ``sink.write``.
    :param workers: worker processes (the meaning of ``--workers`` in every command): ``0``
        scores in this process, N in N processes, ``"auto"`` one per CPU.
    :param executor: score blocks on this executor instead (the scorer is sent with each
        block); results come back to this process, which writes them.
    :param reader: the signal reader of answer records (default: the config's ``reader``, else
        ``answer-support``).
    :param count_actions: count the scorecards per recommended action in
        :attr:`JsonlSummary.actions` (what ``assay score --fail-on`` reads).
    :return: a :class:`JsonlSummary`.
    :raises AssayError: ``INVALID_CONFIG`` before anything is read for a bad config, or for
        ``workers < 0`` / ``block_size < 1``; ``UNKNOWN_NAME`` before anything is read for a
        ``reader`` that is not registered; ``IO_ERROR`` when the sink cannot be written;
        :data:`WORKER_DIED` when a worker process died (the others are stopped, nothing waits
        forever). A row whose scoring raises something unexpected gets an ``INTERNAL_ERROR``
        record and the stream goes on.
    """
    workers = resolve_workers(workers)
    if block_size < 1:
        raise AssayError(ErrorCode.INVALID_CONFIG, "block_size must be >= 1", "block_size")
    if getattr(sink, "closed", False):
        raise AssayError(ErrorCode.IO_ERROR, "cannot write the output: it is closed")
    scorer = _stream_scorer(config, reader)
    if reader is not None:  # named: found now, before anything is read
        scorer.answers.scorer()
    config_key = canonical_json(scoring_config_to_wire(config))
    blocks = _numbered(read_blocks(source, block_size))
    tally = _Tally(count_actions)
    try:
        if executor is not None:
            in_flight = max(workers, 1)
            return _with_executor(executor, scorer, config_key, blocks, sink, in_flight, tally)
        if workers == 0:
            return _here(scorer, config_key, blocks, sink, tally)
        if "fork" in multiprocessing.get_all_start_methods():
            return _Ring(scorer, config_key, workers, count_actions).run(blocks, sink)
        # no fork (Windows): a pool of fresh processes, each building the scorer from the config
        pool = ProcessPoolExecutor(
            workers, initializer=_init_worker, initargs=(scoring_config_to_wire(config), reader)
        )
        with pool:
            return _with_executor(pool, None, config_key, blocks, sink, workers, tally)
    except BrokenExecutor as exc:
        raise AssayError(
            WORKER_DIED, f"a scoring worker died; the output is incomplete ({exc})"
        ) from exc
    except BrokenPipeError as exc:
        raise AssayError(
            ErrorCode.IO_ERROR, "cannot write the output: the reader closed it"
        ) from exc
    except (OSError, ValueError) as exc:  # ValueError: the sink was closed while in use
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise AssayError(ErrorCode.IO_ERROR, f"cannot write the output: {reason}") from exc


def render_block(result: BlockResult, first_line: int) -> tuple[bytes, int]:
    """The output text of a scored block whose first line is line ``first_line`` of the input:
    every failed row's empty line replaced by its error record. Returns ``(text, rows)``."""
    if not result.errors:
        return result.text, result.text.count(b"\n")
    lines = result.text.split(b"\n")
    for row, line, error in result.errors:
        lines[row] = error_record(error, first_line + line).encode()
    return b"\n".join(lines), len(lines) - 1


def error_record(error: AssayError, line: int) -> str:
    """``{"error": {"code", "message", "path", "line"}}`` for a row on input line ``line``; a
    message about the line as a whole (bad JSON) starts with ``line N:``."""
    record = {"error": _error_fields(error, line)}
    return json.dumps(to_json_safe(record), ensure_ascii=False, allow_nan=False)


def _error_fields(error: AssayError, line: int) -> dict[str, Any]:
    message = error.message
    if error.code == ErrorCode.MALFORMED_INPUT and error.path is None:
        message = f"line {line}: {message}"
    return {**error.to_dict(), "message": message, "line": line}


def _numbered(blocks: Iterator[bytes]) -> Iterator[tuple[bytes, int]]:
    """Each block with the input line number of its first line.

    :raises AssayError: ``IO_ERROR`` when the source cannot be read.
    """
    line = 1
    try:
        for block in blocks:
            yield block, line
            line += block.count(b"\n")
    except OSError as exc:
        raise AssayError(ErrorCode.IO_ERROR, f"cannot read the input: {exc.strerror}") from exc


def _here(
    scorer: StreamScorer,
    config_key: str,
    blocks: Iterator[tuple[bytes, int]],
    sink: IO[bytes],
    tally: _Tally,
) -> JsonlSummary:
    for block, first_line in blocks:
        result = score_block(scorer, block, config_key)
        text, count = render_block(result, first_line)
        sink.write(text)
        sink.flush()
        tally.add(result, first_line, text, count)
    return tally.summary(0)


_worker_scorer: StreamScorer | None = None


def _stream_scorer(
    config: ScoringConfig | Mapping[str, Any] | None, reader: str | None
) -> StreamScorer:
    """Scoring requests with the config (less its ``reader``), answer records as it says."""
    return StreamScorer(create_scorer(split_reader(config)[0]), AnswerLines(config, reader))


def _init_worker(config: Mapping[str, Any], reader: str | None) -> None:
    global _worker_scorer
    _worker_scorer = _stream_scorer(config, reader)


def _score_in_worker(block: bytes, config_key: str) -> BlockResult:
    assert _worker_scorer is not None, "worker initializer did not run"
    return score_block(_worker_scorer, block, config_key)


def _with_executor(
    pool: Executor,
    scorer: StreamScorer | None,
    config_key: str,
    blocks: Iterator[tuple[bytes, int]],
    sink: IO[bytes],
    workers: int,
    tally: _Tally,
) -> JsonlSummary:
    """Blocks scored on ``pool`` (with ``scorer`` sent along, or the workers' own), results
    written here in order (counted in ``tally``); at most ``2 * workers`` blocks in flight."""

    def jobs() -> Iterator[Job[int]]:
        for block, first_line in blocks:
            if scorer is None:
                yield _score_in_worker, (block, config_key), first_line
            else:
                yield score_block, (scorer, block, config_key), first_line

    for result, first_line in in_order(pool, jobs(), 2 * workers):
        text, count = render_block(result, first_line)
        sink.write(text)
        tally.add(result, first_line, text, count)
    sink.flush()
    return tally.summary(workers)


def _file_descriptor(sink: IO[bytes]) -> int | None:
    try:
        return sink.fileno()
    except (AttributeError, OSError):  # io.BytesIO, a test runner's capture
        return None


class _Ring:
    """Forked workers that write their blocks straight to the output, in turn (see above).

    A sink without a file descriptor (``io.BytesIO``) gets a pipe in its place, which a thread
    of this process drains into ``sink.write``. Every worker closes the file descriptors it
    inherited but does not use, so that the ends of pipes this process holds (a source it feeds
    itself, a sink it reads itself) close when this process closes them.
    """

    def __init__(
        self, scorer: StreamScorer, config_key: str, workers: int, count_actions: bool
    ) -> None:
        self.scorer = scorer
        self.config_key = config_key
        self.count = workers
        self.count_actions = count_actions

    def run(self, blocks: Iterator[tuple[bytes, int]], sink: IO[bytes]) -> JsonlSummary:
        context = multiprocessing.get_context("fork")
        turns = [context.Semaphore(1 if index == 0 else 0) for index in range(self.count)]
        sink_fd = _file_descriptor(sink)
        drain: _Drain | None = None
        if sink_fd is None:
            drain_fd, sink_fd = os.pipe()
            drain = _Drain(drain_fd, sink)
        else:
            sink.flush()
        processes: list[Any] = []
        feeds: list[Connection] = []
        reports: list[Connection] = []
        watch: _Watch | None = None
        try:
            try:
                for index in range(self.count):
                    feed_out, feed_in = context.Pipe(duplex=False)
                    report_out, report_in = context.Pipe(duplex=False)
                    process = context.Process(
                        target=self._work,
                        args=(index, sink_fd, feed_out, report_in, turns),
                        name=f"assay-score-{index}",
                        daemon=True,
                    )
                    process.start()
                    feed_out.close()
                    report_in.close()
                    processes.append(process)
                    feeds.append(feed_in)
                    reports.append(report_out)
            finally:
                if drain is not None:  # started after forking: a child gets no copy of it
                    os.close(sink_fd)  # the workers hold the write end now
                    drain.start()
            watch = _Watch(processes, reports)
            watch.start()
            try:
                for number, (block, first_line) in enumerate(blocks):
                    self._send(feeds[number % self.count], first_line, block)
                for feed in feeds:
                    self._send(feed, 0, b"")  # end of input
            except BrokenPipeError:
                # a worker is gone: the watch knows why (it stops the others, so this ends)
                watch.join()
                watch.raise_failure()
                raise
            watch.join()
            watch.raise_failure()
            tally = _Tally(self.count_actions)
            for outcome in watch.outcomes.values():
                tally.merge(outcome)
        finally:
            for connection in feeds:
                connection.close()
            for process in processes:
                process.join(timeout=5)
                if process.is_alive():
                    process.kill()
                    process.join()
            if watch is not None:
                watch.join()
            for connection in reports:
                connection.close()
            if drain is not None:
                drain.join()
        if drain is not None:
            drain.raise_failure()
        return tally.summary(self.count)

    @staticmethod
    def _send(feed: Connection, first_line: int, block: bytes) -> None:
        feed.send_bytes(first_line.to_bytes(8, "little") + block)

    def _work(
        self, index: int, sink_fd: int, feed: Connection, report: Connection, turns: list[Any]
    ) -> None:
        _close_inherited_fds({0, 1, 2, sink_fd, feed.fileno(), report.fileno()})
        tally = _Tally(self.count_actions)
        my_turn, next_turn = turns[index], turns[(index + 1) % self.count]
        try:
            while True:
                try:
                    message = feed.recv_bytes()
                except EOFError:  # the parent stopped early (it failed or was interrupted)
                    next_turn.release()  # nobody waits for a turn this worker will not take
                    return
                if len(message) == 8:
                    break
                first_line = int.from_bytes(message[:8], "little")
                result = score_block(self.scorer, message[8:], self.config_key)
                text, count = render_block(result, first_line)
                my_turn.acquire()
                try:
                    _write_all(sink_fd, text)
                finally:
                    next_turn.release()
                tally.add(result, first_line, text, count)
            report.send(tally)
        except BaseException as exc:  # reported to the parent, which raises it
            next_turn.release()  # the others must not wait for a turn this worker will not take
            _send_quietly(report, exc)
        finally:
            report.close()
            feed.close()


class _Watch(threading.Thread):
    """Waits for every worker's report. A worker that reports a failure, or dies without
    reporting (killed, or exited from under the scorer), stops the others at once: a ring with
    a worker missing would wait for its turn forever, and so would this process, blocked
    sending it a block. The failure is then raised by :meth:`raise_failure`."""

    def __init__(self, processes: list[Any], reports: list[Connection]) -> None:
        super().__init__(name="assay-score-watch", daemon=True)
        self.processes = processes
        self.reports = reports
        self.outcomes: dict[int, _Tally] = {}
        self.failure: BaseException | None = None

    def run(self) -> None:
        pending = dict(enumerate(self.reports))
        while pending:
            ready = wait(list(pending.values()))
            for index, report in list(pending.items()):
                if report not in ready:
                    continue
                del pending[index]
                try:
                    outcome = report.recv()
                except (EOFError, OSError):
                    outcome = self._died(index)
                if isinstance(outcome, BaseException):
                    if self.failure is None:
                        self.failure = outcome
                    self._stop_all()
                else:
                    self.outcomes[index] = outcome

    def _died(self, index: int) -> AssayError:
        process = self.processes[index]
        process.join(timeout=5)
        code = process.exitcode
        if code is not None and code < 0:
            try:
                how = f"killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"killed by signal {-code}"
        else:
            how = f"exit code {code}"
        return AssayError(
            WORKER_DIED,
            f"scoring worker {index} (pid {process.pid}) died without reporting ({how}); "
            "the output is incomplete",
        )

    def _stop_all(self) -> None:
        for process in self.processes:
            if process.is_alive():
                with contextlib.suppress(OSError):
                    process.kill()

    def raise_failure(self) -> None:
        if self.failure is not None:
            raise self.failure


class _Drain(threading.Thread):
    """Copies what the workers write into a pipe to a sink without a file descriptor. After a
    failed write it keeps reading (and drops the rest), so that no worker blocks on a full pipe;
    :meth:`raise_failure` then raises the failure."""

    def __init__(self, read_fd: int, sink: IO[bytes]) -> None:
        super().__init__(name="assay-score-drain", daemon=True)
        self.read_fd = read_fd
        self.sink = sink
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            while data := os.read(self.read_fd, 1 << 20):
                if self.failure is None:
                    try:
                        self.sink.write(data)
                    except BaseException as exc:  # raised in the caller's thread afterwards
                        self.failure = exc
        finally:
            os.close(self.read_fd)

    def raise_failure(self) -> None:
        if self.failure is not None:
            raise self.failure


def _close_inherited_fds(keep: set[int]) -> None:
    """Close every file descriptor of this (forked) process except ``keep``."""
    low = 0
    for fd in [*sorted(keep), os.sysconf("SC_OPEN_MAX")]:
        if fd > low:
            os.closerange(low, fd)
        low = fd + 1


def _send_quietly(report: Connection, exc: BaseException) -> None:
    """Report a worker's exception; a parent that is gone is not waiting for it."""
    try:
        report.send(exc)
    except OSError:
        pass
    except Exception:  # the exception does not pickle: send its text
        with contextlib.suppress(OSError):
            report.send(RuntimeError(f"a scoring worker failed: {exc!r}"))


def _write_all(fd: int, text: bytes) -> None:
    view = memoryview(text)
    while view:
        view = view[os.write(fd, view) :]
