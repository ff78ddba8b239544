"""Executing planned invocations, in parallel threads, reusing cached results.

Threads suffice: each one waits on a subprocess, so the GIL is not the limit. Results are
stored by :func:`assay_perturb.invoke.run_invocation` as they finish, so an interrupted run
keeps what finished; the next run reuses those through the cache.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from assay_perturb.invoke import Invocation, InvocationResult, load_cached, run_invocation

__all__ = ["execute"]


def execute(
    invocations: Sequence[Invocation],
    command: Sequence[str],
    *,
    run_dir: Path,
    workdir: Path,
    timeout: float,
    jobs: int = 1,
    use_cache: bool = True,
    on_result: Callable[[Invocation, InvocationResult], None] | None = None,
    accept: Callable[[InvocationResult], bool] | None = None,
) -> dict[str, InvocationResult]:
    """Run (or reuse) every invocation; return results by invocation key.

    :param jobs: invocations run at the same time (1: one after another, in order).
    :param use_cache: reuse a stored result with the same key that ran to a zero exit within
        the timeout (failed invocations always run again).
    :param accept: a stored result is reused only when this also holds (the run passes "its
        output holds the decision field").
    :param on_result: called in the calling thread after each result (for progress output).
    :raises KeyboardInterrupt: after cancelling invocations not yet started; finished ones are
        already stored.
    """
    results: dict[str, InvocationResult] = {}
    pending = []
    for invocation in invocations:
        cached = load_cached(run_dir, invocation, accept) if use_cache else None
        if cached is not None:
            results[invocation.key] = cached
            if on_result:
                on_result(invocation, cached)
        else:
            pending.append(invocation)

    def run(invocation: Invocation) -> InvocationResult:
        return run_invocation(
            invocation, command, run_dir=run_dir, workdir=workdir, timeout=timeout
        )

    pool = ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="assay-perturb")
    try:
        futures = {pool.submit(run, invocation): invocation for invocation in pending}
        for future in as_completed(futures):
            invocation = futures[future]
            results[invocation.key] = future.result()
            if on_result:
                on_result(invocation, results[invocation.key])
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return results
