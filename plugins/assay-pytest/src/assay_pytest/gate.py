"""CI gates: evaluate samples, assert thresholds with a readable per-metric message, compare
with a baseline file checked into the repository."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import assay
from assay.cli import atomic_write
from assay_evaluation import (
    BatchEvalResult,
    batch_to_wire,
    coerce_sample,
    evaluate_batch,
    replay_thresholds,
)

__all__ = ["EvalGate", "GateFailure", "failure_report", "load_samples"]

_WORST = 3


class GateFailure(AssertionError):
    """An evaluation gate failed; the message lists each failing metric and regression."""


def load_samples(path: str | Path) -> list[assay.EvalSample]:
    """Samples from a JSON Lines file of ``EvalSample`` objects in the JSON input
    format (blank lines skipped).

    :raises assay.AssayError: ``MALFORMED_INPUT`` for a line that is not JSON; the sample codes
        (``MISSING_ANSWER``, ``INVALID_CONTEXTS``, ...) with path ``<file>:<line>.<field>``.
    """
    samples = []
    text = Path(path).read_text(encoding="utf-8")
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError as exc:
            raise assay.AssayError("MALFORMED_INPUT", "not valid JSON", f"{path}:{number}") from exc
        samples.append(coerce_sample(value, f"{path}:{number}"))
    return samples


def _sample_name(index: int, result: Any) -> str:
    return result.sample.id if result.sample.id is not None else f"#{index}"


def failure_report(batch: BatchEvalResult, min_pass_rate: float = 1.0) -> list[str]:
    """Lines describing what fails: every metric whose pass rate among determined samples is
    below ``min_pass_rate`` (with mean, threshold and the worst samples and their first
    signal), the share of samples passing overall, and every flagged regression. Empty when
    nothing fails."""
    lines = []
    for metric_id, aggregate in batch.aggregates.items():
        scored = [
            (i, r)
            for i, r in enumerate(batch.results)
            if metric_id in r.metrics and r.metrics[metric_id].score is not None
        ]
        if not scored:
            continue
        failing = [(i, r) for i, r in scored if r.metrics[metric_id].passed is False]
        rate = 1 - len(failing) / len(scored)
        if rate >= min_pass_rate:
            continue
        threshold = failing[0][1].metrics[metric_id].threshold
        lines.append(
            f"{metric_id}: {len(failing)} of {len(scored)} samples below threshold "
            f"{threshold:g} (pass rate {rate:.1%}, mean {aggregate.mean:.3f})"
        )
        failing.sort(key=lambda item: item[1].metrics[metric_id].score or 0.0)
        for index, result in failing[:_WORST]:
            metric = result.metrics[metric_id]
            reason = metric.signals[0].message if metric.signals else metric.explanation
            lines.append(f"    {_sample_name(index, result)}: {metric.score:.3f} — {reason}")
    overall = sum(r.passed for r in batch.results) / len(batch.results) if batch.results else 0
    if overall < min_pass_rate:
        lines.append(f"samples passing overall: {overall:.1%} (required {min_pass_rate:.1%})")
    for regression in batch.regressed:
        lines.append(
            f"regression {regression.metric_id}: mean {regression.baseline_mean:.3f} -> "
            f"{regression.current_mean:.3f} ({regression.delta:+.3f})"
        )
    return lines


class EvalGate:
    """What the ``assay_gate`` fixture hands a test.

    :param update_baselines: write baseline files instead of comparing (``--assay-update-baseline``).
    :param registry: where metrics are looked up (default: the process registry).
    """

    def __init__(self, update_baselines: bool = False, registry: assay.Registry | None = None):
        self.update_baselines = update_baselines
        self.registry = registry

    def evaluate(
        self,
        samples: Iterable[assay.EvalSample | Mapping[str, Any]] | str | Path,
        metrics: Sequence[str] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> BatchEvalResult:
        """:func:`assay_evaluation.evaluate_batch` over ``samples`` (or a JSON Lines path)."""
        if isinstance(samples, str | Path):
            return evaluate_batch(load_samples(samples), metrics, options, registry=self.registry)
        return evaluate_batch(samples, metrics, options, registry=self.registry)

    def assert_passes(
        self,
        batch: BatchEvalResult,
        thresholds: Mapping[str, float] | None = None,
        composite_threshold: float | None = None,
        min_pass_rate: float = 1.0,
    ) -> None:
        """Fail unless, for every metric, at least ``min_pass_rate`` of the samples it could
        score pass (undetermined samples are not failures), at least that share of samples
        pass overall, and no regression was flagged. ``thresholds`` and
        ``composite_threshold`` re-judge the stored scores first (nothing is recomputed).

        :raises GateFailure: with one line per failing metric and its worst samples.
        """
        if thresholds or composite_threshold is not None:
            batch = replay_thresholds(batch, thresholds, composite_threshold)
        lines = failure_report(batch, min_pass_rate)
        if lines:
            raise GateFailure(
                f"assay gate failed over {len(batch.results)} samples:\n  " + "\n  ".join(lines)
            )

    def assert_no_regression(
        self, batch: BatchEvalResult, baseline_file: str | Path, threshold: float = 0.05
    ) -> None:
        """Compare ``batch`` with the baseline stored in ``baseline_file``; fail on any metric
        whose mean dropped by more than ``threshold``. With ``--assay-update-baseline`` the file
        is (re)written instead and the check passes.

        :raises GateFailure: when a metric regressed, or the file is missing (the message says
            how to create it).
        """
        path = Path(baseline_file)
        if self.update_baselines:
            with atomic_write(path) as handle:
                json.dump(batch_to_wire(batch, with_results=False), handle, indent=2)
                handle.write("\n")
            return
        if not path.is_file():
            raise GateFailure(
                f"no baseline at {path}; run pytest with --assay-update-baseline to create it"
            )
        baseline = json.loads(path.read_text(encoding="utf-8"))
        compared = replay_thresholds(batch, baseline=baseline, regression_threshold=threshold)
        lines = [
            f"regression {r.metric_id}: mean {r.baseline_mean:.3f} -> {r.current_mean:.3f} "
            f"({r.delta:+.3f}, allowed -{threshold:g})"
            for r in compared.regressed
        ]
        if lines:
            raise GateFailure(f"assay: regression against {path}:\n  " + "\n  ".join(lines))
