"""Executing planned invocations, in parallel threads, reusing cached results.

Threads suffice: each one waits on a subprocess, so the GIL is not the limit. Results are
stored by :func:`assay_perturb.invoke.run_invocation` as they finish, so an interrupted run
keeps what finished; the next run reuses those through the cache.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from assay import ExitCode
from assay_perturb.invoke import (
    Invocation,
    InvocationResult,
    Supervisor,
    load_cached,
    run_invocation,
)

__all__ = ["Interrupted", "execute"]


class Interrupted(KeyboardInterrupt):
    """The run was stopped by Ctrl-C, SIGTERM or SIGHUP; running pipelines were terminated.

    Attributes:
        signal_name: ``"SIGINT"``, ``"SIGTERM"`` or ``"SIGHUP"``.
        finished: invocations finished and kept in the run directory (cached ones included).
    """

    def __init__(self, signal_name: str, finished: int = 0) -> None:
        super().__init__(signal_name)
        self.signal_name = signal_name
        self.finished = finished


_STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@contextlib.contextmanager
def _handlers(handler: Callable[[int, Any], None]) -> Iterator[None]:
    """Install ``handler`` for SIGINT, SIGTERM and SIGHUP (main thread only), then restore."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, handler) for sig in _STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


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
    on_stop: Callable[[str], None] | None = None,
) -> dict[str, InvocationResult]:
    """Run (or reuse) every invocation; return results by invocation key.

    :param jobs: invocations run at the same time (1: one after another, in order).
    :param use_cache: reuse a stored result with the same key that ran to a zero exit within
        the timeout (failed invocations always run again).
    :param accept: a stored result is reused only when this also holds (the run passes "its
        output holds the decision field").
    :param on_result: called in the calling thread after each result (for progress output).
    :param on_stop: called with a one-line message when Ctrl-C or SIGTERM stops the run.
    :raises Interrupted: on Ctrl-C (SIGINT), SIGTERM or SIGHUP, received in the main thread:
        nothing new starts, running pipelines are terminated (their whole process groups,
        killed after half a second), every finished invocation is kept; a second signal exits
        the process at once with code 130. A pipeline never outlives the process: a watchdog
        kills the running ones even when ``assay`` itself is killed.
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
    if not pending:
        return results
    supervisor = Supervisor()

    def run(invocation: Invocation) -> InvocationResult:
        return run_invocation(
            invocation,
            command,
            run_dir=run_dir,
            workdir=workdir,
            timeout=timeout,
            supervisor=supervisor,
        )

    def first_signal(signum: int, frame: Any) -> None:
        raise Interrupted(signal.Signals(signum).name)

    def second_signal(signum: int, frame: Any) -> None:
        supervisor.kill_all()
        with contextlib.suppress(OSError):
            os.write(2, b"interrupted again: exiting at once\n")
        os._exit(ExitCode.INTERRUPTED)

    pool = ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="assay-perturb")
    futures: dict[Future[InvocationResult], Invocation] = {}
    try:
        with _handlers(first_signal):
            try:
                for invocation in pending:
                    futures[pool.submit(run, invocation)] = invocation
                for future in as_completed(futures):
                    result = future.result()
                    invocation = futures[future]
                    results[invocation.key] = result
                    if on_result:
                        on_result(invocation, result)
            except Interrupted as stop:
                signal.signal(signal.SIGINT, second_signal)
                for sig in _STOP_SIGNALS:
                    signal.signal(sig, second_signal)
                for future in futures:
                    future.cancel()
                if on_stop:
                    on_stop(
                        f"{'interrupted' if stop.signal_name == 'SIGINT' else 'terminated'} "
                        f"({stop.signal_name}): starting no new invocations, stopping "
                        f"{supervisor.running} running"
                        + (
                            " (Ctrl-C again to exit at once)"
                            if stop.signal_name == "SIGINT"
                            else ""
                        )
                    )
                supervisor.stop(grace=0.5)
                pool.shutdown(wait=True, cancel_futures=True)
                for future, invocation in futures.items():
                    if future.done() and not future.cancelled() and future.exception() is None:
                        result = future.result()
                        if not result.interrupted:
                            results[invocation.key] = result
                stop.finished = len(results)
                raise
    finally:
        if supervisor.running:  # an error elsewhere: no pipeline outlives the run
            supervisor.stop(grace=0.0)
        pool.shutdown(wait=True, cancel_futures=True)
        supervisor.close()
    return results
