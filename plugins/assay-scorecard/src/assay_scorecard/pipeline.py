"""Jobs on an executor with their results in submission order and a bounded number in flight."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

__all__ = ["Job", "in_order"]

Tag = TypeVar("Tag")
Job = tuple[Callable[..., Any], tuple[Any, ...], Tag]
"""``(function, arguments, tag)``: ``function(*arguments)`` runs on the executor; the tag stays
here and comes back with the result."""


def in_order(pool: Executor, jobs: Iterator[Job[Tag]], depth: int) -> Iterator[tuple[Any, Tag]]:
    """``(result, tag)`` of every job, in the order of ``jobs``, which is read lazily so that at
    most ``depth`` jobs are submitted and not yet yielded (memory stays constant).

    A job's exception is raised when its turn comes; jobs still pending are then cancelled, as
    they are when the caller stops iterating.
    """
    pending: deque[tuple[Future[Any], Tag]] = deque()

    def submit() -> bool:
        job = next(jobs, None)
        if job is None:
            return False
        function, arguments, tag = job
        pending.append((pool.submit(function, *arguments), tag))
        return True

    try:
        for _ in range(depth):
            if not submit():
                break
        while pending:
            future, tag = pending.popleft()
            result = future.result()
            submit()
            yield result, tag
    finally:
        for future, _ in pending:
            future.cancel()
