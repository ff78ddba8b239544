"""What a worker does with a chunk of raw input: read, validate, evaluate, serialize and tally.

The calling process hands out raw rows (ranges of a JSON Lines file, lines of standard input,
or the rows it was given) and gets back, per chunk, the output lines already serialized, a
compact :class:`BatchTally` of the chunk (scores and pass flags) and, only when asked for, the
full results. So its work per sample is a few list operations, whatever the metrics cost, and
it never holds a result it does not need.

The evaluation plan reaches a worker once: by the pool initializer (:func:`install_plan`), as a
dask future scattered to every worker, or, on an executor the caller made, as pickled bytes
unpickled once per process (:class:`PlanBytes`).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs

from assay_evaluation._aggregate import BatchTally
from assay_evaluation._columns import ColumnMapper
from assay_evaluation._plan import EvaluationPlan
from assay_evaluation._readers import parse_json
from assay_evaluation._samples import coerce_sample
from assay_evaluation._single import evaluate_with_plan
from assay_evaluation._spans import LineSpan
from assay_evaluation._types import EvalResult
from assay_evaluation._wire import result_line
from assay_evaluation._workers import watch_parent

__all__ = [
    "ChunkJob",
    "ChunkOutcome",
    "PlanBytes",
    "WorkPlan",
    "install_plan",
    "run_chunk",
    "run_installed",
]


@attrs.frozen
class WorkPlan:
    """Everything a worker needs besides the rows.

    Attributes:
        plan: the evaluation plan.
        column_map: sample field -> column, as :class:`~assay_evaluation.ColumnMapper` takes it.
        strict: an unknown column is an error.
        contexts_separator: splits a table's contexts cell.
        write: serialize each result as an output line.
        keep: send the full results back.
        worst: send back the full results of this many worst samples of each chunk.
        cpu: the worker's CPU clock (seconds of this thread), to report its cost per sample.
    """

    plan: EvaluationPlan
    column_map: Mapping[str, str] | None = None
    strict: bool = False
    contexts_separator: str | None = None
    write: bool = False
    keep: bool = False
    worst: int = 0
    cpu: Callable[[], float] = time.thread_time


@attrs.frozen
class ChunkJob:
    """Consecutive input rows.

    Attributes:
        start: the input position of the first row.
        rows: the rows: JSON Lines as ``bytes`` when ``lines`` is given, else sample mappings,
            table rows or :class:`~assay.EvalSample` objects; empty with ``span``.
        lines: each row's 1-based line number in a JSON Lines input (blank lines are skipped).
        tabular: the rows are table rows (cells to convert).
        label: how errors name a row that is not a line: ``row`` (``row N``, 1-based) or
            ``samples`` (``samples[i]``).
        span: the lines of a JSON Lines file that are the rows (read where the job runs).
    """

    start: int
    rows: list[Any]
    lines: list[int] | None = None
    tabular: bool = False
    label: str = "samples"
    span: LineSpan | None = None

    def where(self, offset: int) -> str:
        """How errors name the row at ``offset`` of :attr:`rows`: ``line N``, ``row N`` or
        ``samples[i]``."""
        if self.lines is not None:
            return f"line {self.lines[offset]}"
        position = self.start + offset
        return f"row {position + 1}" if self.label == "row" else f"samples[{position}]"

    def entries(self) -> Iterator[tuple[str, Any]]:
        """``(where, row)`` of each row, a JSON line parsed; ``where`` names it in errors.

        :raises AssayError: ``MALFORMED_INPUT`` for a line that is not JSON; ``IO_ERROR`` as
            :meth:`LineSpan.numbered`.
        """
        if self.span is not None:
            for number, line in self.span.numbered():
                where = f"line {number}"
                yield where, parse_json(line, where)
            return
        for offset, row in enumerate(self.rows):
            where = self.where(offset)
            yield where, row if self.lines is None else parse_json(row, where)


@attrs.frozen
class ChunkOutcome:
    """What comes back for a chunk.

    Attributes:
        start: the job's ``start``.
        data: the output lines (``{"key", "result"}`` JSON, one per sample), joined and
            encoded as UTF-8 (bytes cost the calling process a copy, text a decoding).
        tally: the chunk's scores and pass flags, positions from 0.
        results: the full results when :attr:`WorkPlan.keep`, else ``None``.
        unknown: ``(column, message, where)`` of each unknown column, first sighting.
        cpu: the worker CPU seconds the chunk took.
    """

    start: int
    data: bytes
    tally: BatchTally
    results: list[EvalResult] | None
    unknown: list[tuple[str, str, str]]
    cpu: float


def resume_key(index: int, sample_id: str | None) -> str:
    """What identifies a sample across runs: its id, or ``#<index>`` when it has none."""
    return sample_id if sample_id is not None else f"#{index}"


def run_chunk(work: WorkPlan, job: ChunkJob) -> ChunkOutcome:
    """Read, validate, evaluate and tally the rows of ``job`` under ``work``.

    :raises AssayError: as :func:`~assay_evaluation.read_samples` for a bad row (the path
        names its line or row) and as :func:`~assay_evaluation.evaluate` for the metrics.
    """
    began = work.cpu()
    unknown: list[tuple[str, str, str]] = []
    mapper = ColumnMapper(
        work.column_map,
        strict=work.strict,
        contexts_separator=work.contexts_separator,
        on_unknown=lambda column, message, where: unknown.append((column, message, where)),
        check_first=job.start == 0,
    )
    tally = BatchTally(work.plan.metric_ids, worst=work.worst)
    lines: list[str] = []
    results: list[EvalResult] | None = [] if work.keep else None
    for offset, (where, raw) in enumerate(job.entries()):
        sample = coerce_sample(mapper.row(raw, where, job.tabular), where)
        result = evaluate_with_plan(sample, work.plan)
        tally.add(offset, result)
        if work.write:
            key = resume_key(job.start + offset, sample.id)
            lines.append(result_line(key, result))
        if results is not None:
            results.append(result)
    data = "".join(lines).encode("utf-8")
    return ChunkOutcome(job.start, data, tally, results, unknown, work.cpu() - began)


@attrs.frozen
class PlanBytes:
    """A pickled :class:`WorkPlan` with its digest; a process unpickles it once and keeps it
    by digest, so a chunk on someone else's executor carries a few hundred bytes of plan and
    costs the worker no unpickling."""

    digest: str
    data: bytes

    @classmethod
    def of(cls, work: WorkPlan) -> PlanBytes:
        data = pickle.dumps(work)
        return cls(hashlib.sha256(data).hexdigest(), data)

    def load(self) -> WorkPlan:
        """The plan, unpickled on first use in this process."""
        work = _PLANS.get(self.digest)
        if work is None:
            work = _PLANS[self.digest] = pickle.loads(self.data)
        return work


_PLANS: dict[str, WorkPlan] = {}
"""Plans this process has unpickled, by digest (a long-lived worker sees few runs)."""

_INSTALLED: list[WorkPlan] = []


def install_plan(parent: int, plan: PlanBytes) -> None:
    """Pool initializer: :func:`~assay_evaluation._workers.watch_parent` and keep ``plan`` for
    :func:`run_installed`."""
    watch_parent(parent)
    _INSTALLED[:] = [plan.load()]


def run_installed(job: ChunkJob) -> ChunkOutcome:
    """:func:`run_chunk` under the plan :func:`install_plan` kept."""
    if not _INSTALLED:
        raise RuntimeError(f"process {os.getpid()} has no evaluation plan installed")
    return run_chunk(_INSTALLED[0], job)


def run_with_bytes(plan: PlanBytes, job: ChunkJob) -> ChunkOutcome:
    """:func:`run_chunk` under ``plan``, unpickled once per process."""
    return run_chunk(plan.load(), job)
