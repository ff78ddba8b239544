"""What a run cost and how far it is: clocks (injectable, so tests are deterministic), the
run's speed and the calling process's share of the work, and the progress line of
``assay eval``. None of it is written into results."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import IO

import attrs

__all__ = ["Clock", "ProgressLine", "RunStats"]


@attrs.frozen
class Clock:
    """Where a run reads time; give your own for deterministic tests.

    Attributes:
        wall: seconds on a monotonic clock (default :func:`time.perf_counter`).
        cpu: this process's CPU seconds (default :func:`time.process_time`: every thread, so
            an executor's own threads that pickle and unpickle are counted).
        worker_cpu: a worker thread's CPU seconds, read around each chunk where it runs
            (default :func:`time.thread_time`: a dask worker runs several chunks at once);
            it travels to the workers, so it must pickle.
    """

    wall: Callable[[], float] = time.perf_counter
    cpu: Callable[[], float] = time.process_time
    worker_cpu: Callable[[], float] = time.thread_time


@attrs.frozen
class RunStats:
    """The speed and cost of one :func:`~assay_evaluation.evaluate_batch` call.

    Attributes:
        samples: samples evaluated in this call (resumed ones excluded).
        wall_seconds: from the first sample read to the last result written.
        parent_cpu_seconds: CPU seconds of the calling process.
        worker_cpu_seconds: CPU seconds the workers spent on chunks; ``None`` in-process (the
            calling process did everything).
        workers: worker processes (or dask workers) used; 0 in-process, ``None`` when the
            executor was the caller's.
    """

    samples: int
    wall_seconds: float
    parent_cpu_seconds: float
    worker_cpu_seconds: float | None = None
    workers: int | None = 0

    @property
    def samples_per_second(self) -> float:
        """``samples / wall_seconds`` (0 for an instant run)."""
        return self.samples / self.wall_seconds if self.wall_seconds > 0 else 0.0

    @property
    def parent_overhead(self) -> float | None:
        """The calling process's CPU per sample over the workers' CPU per sample: 0.05 means
        the parent spends 5% of what a worker spends on each sample, so it keeps up with about
        20 workers. ``None`` in-process or when the workers took no measurable time."""
        if not self.worker_cpu_seconds:
            return None
        return self.parent_cpu_seconds / self.worker_cpu_seconds

    def describe(self) -> str:
        """``100000 samples in 8.55 s: 11,700 samples/s; parent CPU per sample 8.0% of the
        workers'`` (the overhead part only when there were workers)."""
        text = (
            f"{self.samples} samples in {self.wall_seconds:.2f} s: "
            f"{self.samples_per_second:,.0f} samples/s"
        )
        overhead = self.parent_overhead
        if overhead is not None:
            text += f"; parent CPU per sample {overhead:.1%} of the workers'"
        return text


def _duration(seconds: float) -> str:
    minutes, secs = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class ProgressLine:
    """``evaluating 106753/1000000 (11%) 11,312 samples/s ETA 1:19`` on ``stream``, redrawn in place
    on a terminal (``\\r``) and one line per update elsewhere, at most every ``interval``
    seconds of ``clock`` (and always at the end).

    :param stream: where to write (standard error).
    :param clock: seconds, monotonic.
    :param interval: least seconds between two lines (default: 0.5 on a terminal, where the
        line is redrawn in place; 10 elsewhere, so an hour's run leaves a CI log 360 lines,
        not 7,200).
    """

    def __init__(
        self,
        stream: IO[str],
        clock: Callable[[], float] = time.perf_counter,
        interval: float | None = None,
    ) -> None:
        self._stream = stream
        self._clock = clock
        self._tty = stream.isatty()
        self._interval = interval if interval is not None else 0.5 if self._tty else 10.0
        self._started = clock()
        self._shown_at: float | None = None

    def text(self, done: int, total: int, now: float) -> str:
        """The line for ``done`` of ``total`` at time ``now``."""
        elapsed = now - self._started
        rate = done / elapsed if elapsed > 0 else 0.0
        share = f" ({done / total:.0%})" if total else ""
        eta = f" ETA {_duration((total - done) / rate)}" if rate and total > done else ""
        return f"evaluating {done}/{total}{share} {rate:,.0f} samples/s{eta}"

    def __call__(self, done: int, total: int) -> None:
        """Show progress (the ``on_progress`` callback)."""
        now = self._clock()
        last = done >= total
        if not last and self._shown_at is not None and now - self._shown_at < self._interval:
            return
        self._shown_at = now
        line = self.text(done, total, now)
        self._stream.write(f"\r{line}\x1b[K" if self._tty else f"{line}\n")
        if last and self._tty:
            self._stream.write("\n")
        self._stream.flush()
