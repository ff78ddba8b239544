"""The :class:`~assay.MetricContext` the runner hands to metrics: options, judge, and per-sample
memoization of shared work."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

__all__ = ["SampleContext"]

T = TypeVar("T")
_MISSING: Any = object()


class SampleContext:
    """A :class:`~assay.MetricContext` for one sample.

    :meth:`shared` computes each key once per sample: the first metric that tokenizes the answer
    pays for it, the others reuse it. A new context is made for every sample, so nothing leaks
    between samples. Safe to use from several threads.

    :param options: what metrics read (``heuristic``, ``prompt_overrides``, ``repeats``,
        ``judge_cache``).
    :param judge: the configured judge, or ``None``.
    """

    def __init__(self, options: Mapping[str, Any], judge: Any = None) -> None:
        self.options = options
        self.judge = judge
        self._memo: dict[str, Any] = {}
        self._lock = threading.Lock()
        self.computed = 0
        """How many distinct keys were computed (for tests and benchmarks)."""

    def shared(self, key: str, compute: Callable[[], T]) -> T:
        """``compute()`` the first time ``key`` is asked for on this sample, then the same value.

        :raises: whatever ``compute`` raises (nothing is cached then).
        """
        found = self._memo.get(key, _MISSING)  # no KeyError raised on each key's first use
        if found is not _MISSING:
            return found  # type: ignore[no-any-return]
        with self._lock:
            if key not in self._memo:
                self._memo[key] = compute()
                self.computed += 1
            return self._memo[key]  # type: ignore[no-any-return]
