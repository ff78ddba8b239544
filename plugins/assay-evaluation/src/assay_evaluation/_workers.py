"""Worker processes for ``assay eval --workers N`` that never outlive their parent.

A :class:`~concurrent.futures.ProcessPoolExecutor` worker blocks reading its call queue; when the
parent is killed with ``SIGKILL`` nothing tells it to stop (its siblings still hold the queue's
pipe open), so the workers linger, holding the parent's standard error open. Each worker here
runs a daemon thread that polls its parent's pid and exits at once when the parent is gone (the
worker is re-parented, so :func:`os.getppid` changes). Polling is portable (no ``prctl``) and
costs one system call per :data:`POLL_SECONDS`.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor

__all__ = ["POLL_SECONDS", "orphan_safe_pool", "watch_parent"]

POLL_SECONDS = 0.25
"""How often a worker checks that its parent is alive."""


def _watch(parent: int, interval: float) -> None:
    while True:
        time.sleep(interval)
        if os.getppid() != parent:
            os._exit(1)  # the parent is gone: nobody will read our results


def watch_parent(parent: int, interval: float = POLL_SECONDS) -> None:
    """Worker initializer: exit this process when ``parent`` stops being its parent, and leave
    Ctrl-C (SIGINT, sent by a terminal to the whole process group) to the parent, which cancels
    the pending work and exits 130; a worker interrupted mid-task would break the pool and could
    hang its shutdown."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(
        target=_watch, args=(parent, interval), name="assay-parent-watch", daemon=True
    ).start()


def orphan_safe_pool(workers: int) -> ProcessPoolExecutor:
    """A process pool of ``workers`` processes that exit when this process dies."""
    return ProcessPoolExecutor(workers, initializer=watch_parent, initargs=(os.getpid(),))
