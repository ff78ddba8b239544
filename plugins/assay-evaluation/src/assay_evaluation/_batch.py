"""Batch evaluation: in-process or on any ``concurrent.futures.Executor``, in chunks, streaming
finished results, resuming interrupted runs."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import Any

import attrs

from assay import EvalSample
from assay_evaluation._aggregate import BatchTally, TallyReader, detect_regressions
from assay_evaluation._batch_result import BatchEvalResult
from assay_evaluation._options import EvaluateOptions
from assay_evaluation._plan import EvaluationPlan
from assay_evaluation._single import evaluate_with_plan, rejudge_with_plan
from assay_evaluation._stream import ResultStream, iter_finished
from assay_evaluation._types import EvalResult

__all__ = [
    "evaluate_chunk",
    "evaluate_chunk_remote",
    "resume_key",
    "run_batch",
    "summarize_batch",
    "summarize_tally",
]

Chunk = list[tuple[int, EvalSample]]


def resume_key(index: int, sample: EvalSample) -> str:
    """What identifies a sample across runs: its id, or ``#<index>`` when it has none."""
    return sample.id if sample.id is not None else f"#{index}"


_NO_SAMPLE = EvalSample(question="", answer="")


def evaluate_chunk(plan: EvaluationPlan, chunk: Chunk) -> list[tuple[int, EvalResult]]:
    """Evaluate a chunk of ``(index, sample)`` in this process."""
    return [(index, evaluate_with_plan(sample, plan)) for index, sample in chunk]


def evaluate_chunk_remote(plan: EvaluationPlan, chunk: Chunk) -> list[tuple[int, EvalResult]]:
    """The unit of work sent to an executor: :func:`evaluate_chunk` with each result's sample
    left out (the caller already has it), which halves what travels back and makes unpickling
    about five times cheaper."""
    return [
        (index, attrs.evolve(result, sample=_NO_SAMPLE))
        for index, result in evaluate_chunk(plan, chunk)
    ]


def _chunks(items: Sequence[tuple[int, EvalSample]], size: int) -> Iterator[Chunk]:
    for start in range(0, len(items), size):
        yield list(items[start : start + size])


def _on_executor(
    plan: EvaluationPlan,
    chunks: Iterator[Chunk],
    options: EvaluateOptions,
    samples: Sequence[EvalSample],
) -> Iterator[list[tuple[int, EvalResult]]]:
    executor = options.executor
    assert executor is not None

    def with_samples(
        future: Future[list[tuple[int, EvalResult]]],
    ) -> list[tuple[int, EvalResult]]:
        return [(i, attrs.evolve(r, sample=samples[i])) for i, r in future.result()]

    in_flight: set[Future[list[tuple[int, EvalResult]]]] = set()
    try:
        for chunk in chunks:
            if len(in_flight) >= options.concurrency:
                done, in_flight = wait(in_flight, return_when=FIRST_COMPLETED)
                for future in done:
                    yield with_samples(future)
            in_flight.add(executor.submit(evaluate_chunk_remote, plan, chunk))
        while in_flight:
            done, in_flight = wait(in_flight, return_when=FIRST_COMPLETED)
            for future in done:
                yield with_samples(future)
    finally:
        for future in in_flight:
            future.cancel()


def run_batch(
    samples: Sequence[EvalSample], plan: EvaluationPlan, options: EvaluateOptions
) -> tuple[list[EvalResult], BatchTally]:
    """Results for ``samples`` in input order (only with ``options.keep_results``, else an
    empty list) and the tally of every sample's result: resumed ones read from
    ``options.output`` one line at a time (and re-judged at this run's thresholds and
    weights), the rest computed (on ``options.executor`` when given, in chunks; else one by
    one) and streamed there as they finish, in durable writes of at least
    ``options.chunk_size`` results. When the run is interrupted, the results finished so far
    are written before the exception propagates.

    Without ``keep_results`` memory holds the tally (scores and pass flags) and at most a
    chunk of results, not one result per sample."""
    keys = [resume_key(i, s) for i, s in enumerate(samples)]
    keep = options.keep_results
    tally = BatchTally(plan.metric_ids, len(samples), 0 if keep else options.keep_worst)
    results: list[EvalResult | None] = [None] * len(samples) if keep else []
    done = bytearray(len(samples))
    if options.output and options.resume:
        positions: dict[str, list[int]] = {}
        for index, key in enumerate(keys):
            positions.setdefault(key, []).append(index)
        for key, stored in iter_finished(options.output):  # the last line of a key wins
            for index in positions.get(key, ()):
                rejudged = rejudge_with_plan(stored, samples[index], plan)
                done[index] = rejudged is not None
                if rejudged is not None:
                    tally.add(index, rejudged)
                if keep:
                    results[index] = rejudged
    pending = [(i, s) for i, s in enumerate(samples) if not done[i]]
    done_count = len(samples) - len(pending)
    progress: Callable[[int, int], None] | None = options.on_progress
    stream = ResultStream(options.output, append=options.resume) if options.output else None
    batches: Iterable[list[tuple[int, EvalResult]]] = (
        _on_executor(plan, _chunks(pending, options.chunk_size), options, samples)
        if options.executor is not None
        else (evaluate_chunk(plan, [item]) for item in pending)  # progress after each sample
    )
    unwritten: list[tuple[str, EvalResult]] = []
    try:
        for batch in batches:
            for index, result in batch:
                tally.add(index, result)
                if keep:
                    results[index] = result
                if stream is not None:
                    unwritten.append((keys[index], result))
                done_count += 1
                if progress is not None:
                    progress(done_count, len(samples))
            if stream is not None and len(unwritten) >= options.chunk_size:
                stream.write(unwritten)
                unwritten.clear()
    finally:
        if stream is not None:
            try:
                stream.write(unwritten)  # also when interrupted: keep every finished result
            finally:
                stream.close()
    return [r for r in results if r is not None], tally


def summarize_batch(
    results: Sequence[EvalResult],
    metric_ids: Sequence[str],
    baseline: Any = None,
    regression_threshold: float = 0.05,
) -> BatchEvalResult:
    """Aggregates, composite statistics, overall pass, total cost and (with ``baseline``)
    regressions of ``results``. A metric id listed twice in ``metric_ids`` has one aggregate and
    two regression records (as in rag-eval-node-ts 0.3)."""
    return summarize_tally(
        BatchTally.of(results, metric_ids), results, metric_ids, baseline, regression_threshold
    )


def summarize_tally(
    tally: TallyReader,
    results: Sequence[EvalResult],
    metric_ids: Sequence[str],
    baseline: Any = None,
    regression_threshold: float = 0.05,
) -> BatchEvalResult:
    """:func:`summarize_batch` from a tally; ``results`` are carried as given (empty when they
    were not kept)."""
    aggregates = {metric_id: tally.aggregate(metric_id) for metric_id in tally.metric_ids}
    composite = tally.composite()
    counts = tally.counts()
    return BatchEvalResult(
        results=tuple(results),
        worst_results=tuple(tally.worst),
        scores={m: tally.determined(m) for m in tally.metric_ids} if tally.worst_count else None,
        aggregates=aggregates,
        composite_aggregate=composite,
        passed=counts.failed == 0 and composite.pass_rate >= 0.5,
        total_cost=tally.total_cost(),
        regressions=None
        if baseline is None
        else detect_regressions(
            aggregates, baseline, regression_threshold, tally.directions, list(metric_ids)
        ),
        counts=counts,
    )
