"""Batch evaluation with the work where it runs: the calling process cuts the input into
chunks of raw rows, hands them to workers (a process pool of its own, the caller's executor, or
a dask cluster), writes the lines they send back in input order and keeps only the tally.

In-flight chunks are bounded (``options.concurrency``), so memory holds a few chunks, the
tally (whose scores spill to a temporary file beyond 65,536 per metric) and, only with
``keep_results``, every result: without them it does not grow with the number of samples.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager

from assay_evaluation._columns import SampleFieldWarning, warn_at_caller
from assay_evaluation._options import EvaluateOptions
from assay_evaluation._progress import Clock, RunStats
from assay_evaluation._running import RunningTally
from assay_evaluation._stream import ResultStream
from assay_evaluation._types import EvalResult
from assay_evaluation._work import (
    ChunkJob,
    ChunkOutcome,
    PlanBytes,
    WorkPlan,
    install_plan,
    run_chunk,
    run_installed,
    run_with_bytes,
)

__all__ = ["Submit", "on_executor", "on_processes", "run_sharded"]

Submit = Callable[[ChunkJob], "Future[ChunkOutcome]"]
"""Starts one chunk where it runs."""


@contextmanager
def on_processes(workers: int, work: WorkPlan) -> Iterator[Submit]:
    """A pool of ``workers`` processes that receive ``work`` once, when they start, and exit
    when this process dies (:func:`~assay_evaluation._workers.watch_parent`). Interrupted, the
    queued chunks are dropped and only the running ones are waited for."""
    pool = ProcessPoolExecutor(
        workers, initializer=install_plan, initargs=(os.getpid(), PlanBytes.of(work))
    )
    try:
        yield lambda job: pool.submit(run_installed, job)
    except BaseException:
        pool.shutdown(cancel_futures=True)
        raise
    pool.shutdown()


@contextmanager
def on_executor(executor: Executor, work: WorkPlan) -> Iterator[Submit]:
    """The caller's executor: each chunk carries the pickled plan (a few hundred bytes), which
    a worker unpickles once. Threads share the plan itself, so a judge that does not pickle
    (an HTTP client) still runs on a thread pool."""
    if isinstance(executor, ThreadPoolExecutor):
        yield lambda job: executor.submit(run_chunk, work, job)
        return
    plan = PlanBytes.of(work)
    yield lambda job: executor.submit(run_with_bytes, plan, job)


def run_sharded(
    jobs: Iterator[ChunkJob],
    total: int,
    work: WorkPlan,
    options: EvaluateOptions,
    submit: Submit,
    clock: Clock,
    workers: int | None,
) -> tuple[list[EvalResult], RunningTally, RunStats]:
    """Run ``jobs`` (``total`` rows) through ``submit`` with at most ``options.concurrency``
    (and at least twice ``workers``) in flight; returns the results (only with ``work.keep``), the tally and the run's stats.

    Chunks are taken in input order, so ``options.output`` receives the same bytes whatever
    the workers, executor or chunk size; each chunk is flushed and fsynced as it is taken.
    When a chunk fails (a bad sample: its error names the line or row) or the run is
    interrupted, the chunks already finished are written before the error propagates.
    """
    began_wall, began_cpu = clock.wall(), clock.cpu()
    tally = RunningTally(work.plan.metric_ids, worst=work.worst)
    results: list[EvalResult] = []
    stream = ResultStream(options.output, append=False) if options.output else None
    warned: set[str] = set()
    worker_cpu = 0.0
    order: deque[Future[ChunkOutcome]] = deque()
    window = max(options.concurrency, 2 * (workers or 0))  # a chunk queued behind each running

    def take(outcome: ChunkOutcome) -> None:
        nonlocal worker_cpu
        if stream is not None:
            stream.write_bytes(outcome.data)
        before = tally.size
        tally.extend(outcome.tally)
        if outcome.results is not None:
            results.extend(outcome.results)
        for column, message, where in outcome.unknown:
            if column not in warned:
                warned.add(column)
                warn_at_caller(SampleFieldWarning(message, where))
        worker_cpu += outcome.cpu
        if options.on_progress is not None:  # after each sample, as in-process
            for done in range(before + 1, tally.size + 1):
                options.on_progress(done, total)

    try:
        for job in jobs:
            if len(order) >= window:
                take(order.popleft().result())
            order.append(submit(job))
        while order:
            take(order.popleft().result())
    finally:
        for future in order:
            future.cancel()
        if stream is not None:
            try:  # keep every chunk that finished before the failure
                for future in order:
                    if future.done() and not future.cancelled() and future.exception() is None:
                        stream.write_bytes(future.result().data)
            finally:
                stream.close()
    stats = RunStats(
        samples=tally.size,
        wall_seconds=clock.wall() - began_wall,
        parent_cpu_seconds=clock.cpu() - began_cpu,
        worker_cpu_seconds=worker_cpu,
        workers=workers,
    )
    return results, tally, stats
