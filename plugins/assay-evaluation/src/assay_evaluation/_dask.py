"""Evaluation on a dask.distributed cluster: ``assay eval --scheduler tcp://host:8786`` and
``evaluate_batch(..., options={"scheduler": ...})``.

The plan is scattered to every worker once (a dask future each task refers to); chunks of raw
rows go out and serialized lines and tallies come back, as with local processes. Workers need
assay-evaluation and the plugins whose metrics run (the same versions as the caller).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any

from assay import AssayError, ErrorCode
from assay_evaluation._codes import EvaluationErrorCode as Code
from assay_evaluation._options import SCHEDULER_PATH as _PATH
from assay_evaluation._pipeline import Submit
from assay_evaluation._work import WorkPlan, run_chunk

__all__ = ["dask_executor", "on_dask"]


def _distributed() -> Any:
    try:
        return importlib.import_module("distributed")
    except ImportError as exc:
        raise AssayError(
            Code.MISSING_DEPENDENCY,
            "running on a dask cluster needs distributed: pip install 'assay-evaluation[dask]'",
            _PATH,
        ) from exc


def _connect(distributed: Any, address: str) -> Any:
    try:
        return distributed.Client(address, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise AssayError(
            ErrorCode.IO_ERROR,
            f"cannot reach the dask scheduler at {address}: {exc} (is dask-scheduler running, "
            "and is its port open from here?)",
            _PATH,
        ) from exc
    except ValueError as exc:  # an unknown protocol
        raise AssayError(
            Code.INVALID_OPTION, f"not a dask scheduler address: {address} ({exc})", _PATH
        ) from exc


@contextmanager
def _client(scheduler: Any) -> Iterator[Any]:
    """A client of ``scheduler``: connected to and closed here for an address, else the
    ``Client`` given, left open."""
    if not isinstance(scheduler, str):
        yield scheduler
        return
    client = _connect(_distributed(), scheduler)
    try:
        yield client
    finally:
        client.close()


@contextmanager
def on_dask(scheduler: Any, work: WorkPlan) -> Iterator[tuple[Submit, int]]:
    """Chunks submitted to the cluster at ``scheduler`` (an address or a ``Client``), and how
    many workers it has; ``work`` is scattered to every worker once.

    :raises AssayError: ``MISSING_DEPENDENCY`` without distributed; ``IO_ERROR`` when the
        scheduler cannot be reached; ``INVALID_OPTION`` for an unusable address.
    """
    with _client(scheduler) as client:
        plan = client.scatter(work, broadcast=True, hash=False)
        executor = client.get_executor(pure=False)
        workers = len(client.scheduler_info().get("workers", {}))
        yield (lambda job: executor.submit(run_chunk, plan, job)), workers


@contextmanager
def dask_executor(scheduler: Any) -> Iterator[Executor]:
    """The cluster at ``scheduler`` as a :class:`concurrent.futures.Executor`."""
    with _client(scheduler) as client:
        yield client.get_executor(pure=False)
