"""Batch evaluation: in-process or on any ``concurrent.futures.Executor``, in chunks, streaming
finished results, resuming interrupted runs."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import Any

import attrs

from assay import EvalSample
from assay_evaluation._aggregate import (
    aggregate_metric,
    batch_passed,
    composite_aggregate,
    detect_regressions,
)
from assay_evaluation._options import EvaluateOptions
from assay_evaluation._plan import EvaluationPlan
from assay_evaluation._single import evaluate_with_plan, rejudge_with_plan
from assay_evaluation._stream import ResultStream, read_finished
from assay_evaluation._types import BatchEvalResult, Cost, EvalResult

__all__ = [
    "evaluate_chunk",
    "evaluate_chunk_remote",
    "resume_key",
    "run_batch",
    "summarize_batch",
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
) -> list[EvalResult]:
    """Results for ``samples`` in input order: resumed ones read from ``options.output`` (and
    re-judged at this run's thresholds and weights), the rest computed (on ``options.executor``
    when given, in chunks; else one by one) and streamed there as they finish, in durable
    writes of at least ``options.chunk_size`` results. When the run is interrupted, the results
    finished so far are written before the exception propagates."""
    keys = [resume_key(i, s) for i, s in enumerate(samples)]
    finished = read_finished(options.output) if options.output and options.resume else {}
    results: list[EvalResult | None] = [
        rejudge_with_plan(finished[key], sample, plan) if key in finished else None
        for key, sample in zip(keys, samples, strict=True)
    ]
    pending = [(i, s) for i, s in enumerate(samples) if results[i] is None]
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
                results[index] = result
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
    return [r for r in results if r is not None]


def summarize_batch(
    results: Sequence[EvalResult],
    metric_ids: Sequence[str],
    baseline: Any = None,
    regression_threshold: float = 0.05,
) -> BatchEvalResult:
    """Aggregates, composite statistics, overall pass, total cost and (with ``baseline``)
    regressions of ``results``. A metric id listed twice in ``metric_ids`` has one aggregate and
    two regression records (as in rag-eval-node-ts 0.3)."""
    aggregates = {
        metric_id: aggregate_metric(metric_id, results) for metric_id in dict.fromkeys(metric_ids)
    }
    composite = composite_aggregate(results)
    directions: dict[str, bool] = {}
    total = Cost()
    for result in results:
        directions.update(result.higher_is_better)
        total = total + result.cost
    return BatchEvalResult(
        results=tuple(results),
        aggregates=aggregates,
        composite_aggregate=composite,
        passed=batch_passed(results, composite),
        total_cost=total,
        regressions=None
        if baseline is None
        else detect_regressions(
            aggregates, baseline, regression_threshold, directions, list(metric_ids)
        ),
    )
