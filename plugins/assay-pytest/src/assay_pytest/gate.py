"""CI gates: evaluate samples, assert thresholds with a readable per-metric message, compare
with a baseline file checked into the repository."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import assay
from assay.cli import atomic_write
from assay_evaluation import (
    BatchEvalResult,
    Gate,
    GateVerdict,
    baseline_means,
    batch_to_wire,
    error_of,
    evaluate_batch,
    metric_label,
    read_samples,
    replay_thresholds,
    snake_case,
    status_of,
)

__all__ = ["EvalGate", "GateFailure", "failure_report", "load_samples"]

_WORST = 3


class GateFailure(AssertionError):
    """An evaluation gate failed; the message lists each failing metric and regression."""


def load_samples(path: str | Path, **reading: Any) -> list[assay.EvalSample]:
    """Samples from a JSON Lines, JSON array, CSV or Parquet file
    (:func:`assay_evaluation.read_samples`; ``reading`` takes its ``format``, ``column_map``,
    ``strict`` and ``contexts_separator``).

    :raises assay.AssayError: ``MALFORMED_INPUT`` for a file without a sample or a line that is
        not JSON; the sample codes (``MISSING_ANSWER``, ``INVALID_CONTEXTS``, ...) with path
        ``<file> <row>.<field>`` (``golden.jsonl line 3.answer``).
    """
    __tracebackhide__ = True  # a failing test shows the test's line, not the reader's
    try:
        samples = read_samples(path, **reading)
    except assay.AssayError as error:
        where = f"{path} {error.path}" if error.path and error.path != str(path) else str(path)
        raise assay.AssayError(error.code, error.message, where, details=error.details) from None
    if not samples:
        raise assay.AssayError(
            "MALFORMED_INPUT", "no samples: an empty run proves nothing", str(path)
        )
    return samples


def _sample_name(index: int, result: Any) -> str:
    return result.sample.id if result.sample.id is not None else f"#{index}"


def _worst(batch: BatchEvalResult, metric_id: str) -> list[str]:
    """The worst samples of one metric (failed ones lowest score first, then errors), each with
    the reason the metric gave."""
    failing = []
    for index, result in enumerate(batch.results):
        metric = result.metrics.get(metric_id)
        if metric is None:
            continue
        status = status_of(metric)
        if status == "fail":
            reason = metric.signals[0].message if metric.signals else metric.explanation
            failing.append((0, metric.score or 0.0, index, f"{metric.score:.3f} — {reason}"))
        elif status == "error":
            failing.append((1, 0.0, index, f"error — {error_of(metric)}"))
    failing.sort(key=lambda item: item[:2])
    return [
        f"    {_sample_name(index, batch.results[index])}: {text}"
        for _, _, index, text in failing[:_WORST]
    ]


def failure_report(
    batch: BatchEvalResult,
    min_pass_rate: float = 1.0,
    *,
    max_undetermined_rate: float | None = None,
    max_error_rate: float = 0.0,
    gate: Gate | None = None,
) -> list[str]:
    """Lines describing what fails under ``gate`` (default: a :class:`~assay_evaluation.Gate`
    of the other arguments): each reason of its verdict (a metric below its threshold with pass
    rate and mean, errors, undetermined rates, the share of samples passing overall,
    regressions), each metric's followed by its worst samples and the reason the metric gave.
    Empty when nothing fails.

    :raises assay.AssayError: ``MALFORMED_INPUT`` when the verdict decided nothing (no sample,
        no score at all): a usage problem, not a quality failure.
    """
    __tracebackhide__ = True
    gate = gate or Gate(
        min_pass_rate=min_pass_rate,
        max_undetermined_rate=max_undetermined_rate,
        max_error_rate=max_error_rate,
    )
    return _report_lines(batch, gate.check(batch))


def _report_lines(batch: BatchEvalResult, verdict: GateVerdict) -> list[str]:
    """The reasons of ``verdict`` with each failing metric's worst samples below its line."""
    __tracebackhide__ = True
    if verdict.exit_code == assay.ExitCode.USAGE:
        raise assay.AssayError("MALFORMED_INPUT", verdict.reasons[0], "samples")
    lines = []
    for reason in verdict.reasons:
        lines.append(reason)
        metric_id = next(
            (m for m in batch.aggregates if reason.startswith(f"{metric_label(m)}: ")), None
        )
        if metric_id is not None and batch.results_kept:
            lines.extend(_worst(batch, metric_id))
    return lines


_Method = TypeVar("_Method", bound=Callable[..., Any])


def _from_the_test(method: _Method) -> _Method:
    """``method`` with an :class:`assay.AssayError` raised inside the evaluator (an unknown
    metric, a bad setting, a bad row) re-raised from the test's line: pytest then shows the
    test's call and the error, not the evaluator's frames and a chained copy."""

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        try:
            return method(*args, **kwargs)
        except assay.AssayError as error:
            raise assay.AssayError(
                error.code, error.message, error.path, details=error.details
            ) from None

    return wrapper  # type: ignore[return-value]


class EvalGate:
    """What the ``assay_gate`` fixture hands a test.

    :param update_baselines: write baseline files instead of comparing (``--assay-update-baseline``).
    :param registry: where metrics are looked up (default: the process registry).
    """

    def __init__(self, update_baselines: bool = False, registry: assay.Registry | None = None):
        self.update_baselines = update_baselines
        self.registry = registry

    @_from_the_test
    def evaluate(
        self,
        samples: Any,
        metrics: Sequence[str] | None = None,
        options: Mapping[str, Any] | None = None,
        **reading: Any,
    ) -> BatchEvalResult:
        """:func:`assay_evaluation.evaluate_batch` over ``samples``: a file path (JSON Lines, a
        JSON array, CSV, Parquet), a DataFrame, a ``Dataset`` or an iterable of samples;
        ``reading`` takes ``column_map``, ``strict``, ``format`` and ``contexts_separator``.

        :raises assay.AssayError: what :func:`~assay_evaluation.evaluate_batch` raises, shown
            from the test's line (the evaluator's own frames are left out of the traceback).
        """
        __tracebackhide__ = True
        if isinstance(samples, str | Path):
            samples = load_samples(samples, **reading)
            reading = {}
        return evaluate_batch(samples, metrics, options, registry=self.registry, **reading)

    @_from_the_test
    def assert_passes(
        self,
        batch: BatchEvalResult,
        thresholds: Mapping[str, float] | None = None,
        composite_threshold: float | None = None,
        min_pass_rate: float = 1.0,
        *,
        max_undetermined_rate: float | None = None,
        max_error_rate: float = 0.0,
        gate: Gate | None = None,
    ) -> None:
        """Fail unless, for every metric, at least ``min_pass_rate`` of the samples it could
        score pass (undetermined samples are not failures), at least that share of samples
        pass overall, no metric leaves more than ``max_undetermined_rate`` of the samples
        undetermined, at most ``max_error_rate`` of the metric results are errors (a metric
        that raised, a judge that failed: by default any error fails), and no regression was
        flagged; or unless ``gate`` (an :class:`assay_evaluation.Gate`) passes, when given.
        ``thresholds`` and ``composite_threshold`` re-judge the stored scores first (nothing is
        recomputed).

        :raises GateFailure: with one line per failing rule and the worst samples of each
            failing metric.
        :raises assay.AssayError: ``MALFORMED_INPUT`` when there is no sample or no score at
            all (nothing was decided).
        """
        __tracebackhide__ = True  # the failure points at the test's line
        if thresholds or composite_threshold is not None:
            batch = replay_thresholds(batch, thresholds, composite_threshold)
        lines = failure_report(
            batch,
            min_pass_rate,
            max_undetermined_rate=max_undetermined_rate,
            max_error_rate=max_error_rate,
            gate=gate,
        )
        if lines:
            raise GateFailure(
                f"assay gate failed over {len(batch.results)} samples:\n  " + "\n  ".join(lines)
            )

    @_from_the_test
    def assert_no_regression(
        self,
        batch: BatchEvalResult,
        baseline_file: str | Path,
        threshold: float = 0.05,
        *,
        max_error_rate: float = 0.0,
    ) -> None:
        """Compare ``batch`` with the baseline stored in ``baseline_file``; fail on any metric
        whose mean dropped by more than ``threshold``, and on metric errors (more than
        ``max_error_rate`` of the results; by default any). Thresholds do not matter here: this
        is the regression-only gate. With ``--assay-update-baseline`` the file is (re)written
        instead and the check passes, unless the batch holds errors (a baseline of failed judge
        calls is no reference).

        :raises GateFailure: when a metric regressed or errored, the file is missing (the
            message says how to create it), or the baseline holds none of the batch's metrics
            (nothing would be compared: a baseline of another metric list).
        :raises assay.AssayError: ``MALFORMED_INPUT`` when there is no sample or no score at
            all.
        """
        __tracebackhide__ = True  # the failure points at the test's line
        path = Path(baseline_file)
        errors = _report_lines(batch, Gate(max_error_rate=max_error_rate).check_errors(batch))
        if errors:
            raise GateFailure(
                f"assay: metric errors over {len(batch.results)} samples:\n  " + "\n  ".join(errors)
            )
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
        _check_shared_metrics(batch, baseline_means(baseline), path)
        compared = replay_thresholds(batch, baseline=baseline, regression_threshold=threshold)
        lines = [
            f"regression {r.metric_id}: mean {r.baseline_mean:.3f} -> {r.current_mean:.3f} "
            f"({r.delta:+.3f}, allowed -{threshold:g})"
            for r in compared.regressed
        ]
        if lines:
            raise GateFailure(f"assay: regression against {path}:\n  " + "\n  ".join(lines))


def _check_shared_metrics(
    batch: BatchEvalResult, baseline: Mapping[str, float], path: Path
) -> None:
    """Fail when the baseline holds none of the batch's metrics: every comparison would be
    skipped and the gate would pass having checked nothing (a baseline written for another
    metric list, such as the seven of rag-eval-node-ts 0.3 before the default list changed)."""
    __tracebackhide__ = True
    ran = list(batch.aggregates)
    stored = {snake_case(metric_id) for metric_id in baseline}
    if any(metric_id in stored for metric_id in ran):
        return
    raise GateFailure(
        f"assay: the baseline {path} holds none of the metrics evaluated "
        f"({', '.join(ran)}; it holds {', '.join(sorted(stored)) or 'none'}), so nothing "
        "would be compared: evaluate the baseline's metrics (for the seven of "
        "rag-eval-node-ts 0.3, options={'profile': 'compatible'}) or rewrite it with "
        "--assay-update-baseline"
    )
