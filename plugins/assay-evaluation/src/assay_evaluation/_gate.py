"""Whether a batch is good enough to ship: the gate a CI job fails on.

A :class:`Gate` turns a :class:`~assay_evaluation.BatchEvalResult` into a
:class:`GateVerdict`: passed or not, the exit code of ``assay eval``, and one sentence per
reason, each naming the metric, its threshold and the numbers that made the run fail.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

from assay import AssayError, ExitCode
from assay_evaluation._aggregate import BatchTally
from assay_evaluation._codes import EvaluationErrorCode as Code
from assay_evaluation._options import snake_case
from assay_evaluation._profiles import metric_label

if TYPE_CHECKING:
    from assay_evaluation._batch_result import BatchEvalResult

__all__ = ["FAIL_ON", "Gate", "GateVerdict", "MetricCounts", "metric_counts"]

FAIL_ON = ("all", "regression")
"""What fails a run besides errors: ``"all"`` (thresholds, pass rates, undetermined rates and
regressions) or ``"regression"`` (only a regression against the baseline)."""


def _rate(name: str) -> Any:
    def check(_instance: Any, _attribute: Any, value: Any) -> None:
        if value is None and name == "maxUndeterminedRate":
            return
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            raise AssayError(
                Code.INVALID_OPTION, f"must be a number in [0, 1], got {value!r}", f"gate.{name}"
            )

    return check


def _fail_on(_instance: Any, _attribute: Any, value: Any) -> None:
    if value not in FAIL_ON:
        raise AssayError(
            Code.INVALID_OPTION,
            f"must be one of {', '.join(FAIL_ON)}, got {value!r}",
            "gate.failOn",
        )


@attrs.frozen(kw_only=True)
class Gate:
    """What makes an evaluation run fail.

    Attributes:
        min_pass_rate: the share of samples that must pass overall, and, for each metric, the
            share of the samples it could score that must meet its threshold (default 1.0:
            every one). A sample with an error never passes.
        max_undetermined_rate: per metric, the largest share of samples it may leave
            undetermined by design (no ground truth, no question); ``None`` (default): no limit.
        max_error_rate: the largest share of metric results that may be errors (a metric that
            raised, a judge that failed or answered something unparsable); default 0: any error
            fails the run.
        fail_on: ``"all"`` (default) or ``"regression"``: fail only on a regression against the
            baseline (and on errors), whatever the thresholds say.

    :raises AssayError: ``INVALID_OPTION`` (path ``gate.<field>``) for a rate outside [0, 1]
        or an unknown ``fail_on``.
    """

    min_pass_rate: float = attrs.field(default=1.0, validator=_rate("minPassRate"))
    max_undetermined_rate: float | None = attrs.field(
        default=None, validator=_rate("maxUndeterminedRate")
    )
    max_error_rate: float = attrs.field(default=0.0, validator=_rate("maxErrorRate"))
    fail_on: str = attrs.field(default="all", validator=_fail_on)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None, path: str = "gate") -> Gate:
        """A gate from ``{"minPassRate", "maxUndeterminedRate", "maxErrorRate", "failOn"}``
        (camelCase or snake_case; ``None`` values mean the default).

        :raises AssayError: ``INVALID_OPTION`` for an unknown key or a bad value.
        """
        if values is None:
            return cls()
        if not isinstance(values, Mapping):
            raise AssayError(Code.INVALID_OPTION, "the gate must be an object", path)
        known = {field.name for field in attrs.fields(cls)}
        settings = {}
        for key, value in values.items():
            name = snake_case(str(key))
            if name not in known:
                raise AssayError(
                    Code.INVALID_OPTION,
                    f"unknown gate setting {key!r} (known: minPassRate, maxUndeterminedRate, "
                    "maxErrorRate, failOn)",
                    f"{path}.{key}",
                )
            if value is not None:
                settings[name] = value
        return cls(**settings)

    def check(self, batch: BatchEvalResult) -> GateVerdict:
        """The verdict on ``batch``. Exit code 2 (nothing was decided) when the batch has no
        sample, when no metric could score any sample, when the regression gate has no
        baseline, or when a baseline was given that holds none of the batch's metrics (a
        baseline of another metric list would compare nothing); 1 when a rule fails; else 0."""
        verdict = self.check_errors(batch)
        if verdict.exit_code == ExitCode.USAGE:
            return verdict
        reasons = list(verdict.reasons)
        if self.fail_on == "regression" and batch.regressions is None:
            return GateVerdict.usage("the regression gate needs a baseline to compare with")
        if batch.regressions == ():
            return GateVerdict.usage(
                f"the baseline holds none of the metrics evaluated ({', '.join(batch.aggregates)})"
                ", so nothing was compared: evaluate the baseline's metrics (--profile "
                "compatible for the seven of rag-eval-node-ts 0.3) or save a new baseline"
            )
        if self.fail_on != "regression":
            reasons += self._threshold_reasons(batch, metric_counts(batch))
        reasons += [
            f"{metric_label(r.metric_id)} regressed: {r.describe()}" for r in batch.regressed
        ]
        return GateVerdict.of(reasons)

    def check_errors(self, batch: BatchEvalResult) -> GateVerdict:
        """Only the rules that hold in every mode: the batch has samples, some score was
        computed, and the share of errors is at most ``max_error_rate``."""
        if batch.sample_count == 0:
            return GateVerdict.usage("no samples: an empty run proves nothing")
        counts = metric_counts(batch)
        total = sum(c.results for c in counts.values())
        errors = sum(c.errors for c in counts.values())
        if not any(c.determined for c in counts.values()):
            first = next((c.first_error for c in counts.values() if c.first_error), None)
            why = f" (first error: {first})" if first else ""
            return GateVerdict.usage(
                f"no score could be computed: all {total} metric results are undetermined or "
                f"errors{why}"
            )
        if not total or errors / total <= self.max_error_rate:
            return GateVerdict.of([])
        allowed = f"allowed {self.max_error_rate:.1%} of all results"
        return GateVerdict.of(
            [
                f"{metric_label(m)}: {c.errors} of {c.results} results are errors ({allowed}): "
                f"{c.first_error}"
                for m, c in counts.items()
                if c.errors
            ]
        )

    def _threshold_reasons(
        self, batch: BatchEvalResult, counts: Mapping[str, MetricCounts]
    ) -> list[str]:
        required = "" if self.min_pass_rate == 1 else f", required {self.min_pass_rate:.1%}"
        reasons = []
        for metric_id, c in counts.items():
            aggregate = batch.aggregates[metric_id]
            if (
                c.failed
                and c.determined
                and (c.determined - c.failed) / c.determined < (self.min_pass_rate)
            ):
                side = "below" if c.higher_is_better else "above"
                reasons.append(
                    f"{metric_label(metric_id)}: {c.failed} of {c.determined} samples {side} "
                    f"threshold {_threshold(aggregate.threshold)} (pass rate "
                    f"{_pass_rates(c, batch.sample_count)}, mean {aggregate.mean:.3f}"
                    f"{required})"
                )
            limit = self.max_undetermined_rate
            undetermined = c.results - c.determined - c.errors
            if limit is not None and undetermined / batch.sample_count > limit:
                example = f": {c.first_undetermined}" if c.first_undetermined else ""
                reasons.append(
                    f"{metric_label(metric_id)}: {undetermined} of {batch.sample_count} samples "
                    f"undetermined ({undetermined / batch.sample_count:.1%}, allowed "
                    f"{limit:.1%}){example}"
                )
        passing = (batch.sample_count - batch.failed_count) / batch.sample_count
        if passing < self.min_pass_rate:
            composite = _threshold(batch.composite_aggregate.threshold)
            reasons.append(
                f"samples passing overall: {passing:.1%} (required {self.min_pass_rate:.1%}; "
                f"a sample passes when no metric fails or errs and its composite is at least "
                f"{composite})"
            )
        return reasons


def _pass_rates(c: MetricCounts, samples: int) -> str:
    """The pass rate over the scored samples (what the gate judges); when some were not scored,
    also over all samples (what the summary table's ``pass`` column shows), each named."""
    passed = c.determined - c.failed
    if c.determined == samples:
        return f"{passed / c.determined:.1%}"
    return (
        f"{passed / c.determined:.1%} of the {c.determined} scored; "
        f"{passed / samples:.1%} of all {samples} samples"
    )


def _threshold(value: float | None) -> str:
    return "?" if value is None else f"{value:g}"


@attrs.frozen
class GateVerdict:
    """The outcome of :meth:`Gate.check`.

    Attributes:
        passed: the gate passed.
        exit_code: what ``assay eval`` exits with: 0 passed, 1 a rule failed, 2 nothing was
            decided (no sample, no score at all, no baseline for the regression gate).
        reasons: one sentence per failed rule (empty when passed).
    """

    passed: bool
    exit_code: int
    reasons: tuple[str, ...] = ()

    @classmethod
    def of(cls, reasons: list[str]) -> GateVerdict:
        """Passed (exit code 0) without reasons, else failed (exit code 1)."""
        code = ExitCode.FAILED if reasons else ExitCode.OK
        return cls(passed=not reasons, exit_code=int(code), reasons=tuple(reasons))

    @classmethod
    def usage(cls, reason: str) -> GateVerdict:
        """A verdict that decided nothing (exit code 2)."""
        return cls(passed=False, exit_code=int(ExitCode.USAGE), reasons=(reason,))


@attrs.frozen
class MetricCounts:
    """One metric's outcomes over a batch.

    Attributes:
        results: samples with a result for this metric.
        determined: results with a score.
        failed: scored results below the threshold (above, when lower is better).
        errors: results that are errors.
        higher_is_better: the metric's direction.
        first_error: the first error's message, if any.
        first_undetermined: the first undetermined-by-design result's explanation, if any.
    """

    results: int
    determined: int
    failed: int
    errors: int
    higher_is_better: bool = True
    first_error: str | None = None
    first_undetermined: str | None = None


def metric_counts(batch: BatchEvalResult) -> dict[str, MetricCounts]:
    """Per metric id, the outcome counts of ``batch`` (from its ``counts``, or counted from its
    results for a batch built by hand)."""
    counts = batch.counts or BatchTally.of(batch.results, list(batch.aggregates)).counts()
    return {
        metric_id: MetricCounts(
            results=batch.sample_count,
            determined=aggregate.count,
            failed=counts.metric_failures.get(metric_id, 0),
            errors=counts.metric_errors.get(metric_id, aggregate.errors),
            higher_is_better=counts.higher_is_better.get(metric_id, True),
            first_error=counts.first_errors.get(metric_id),
            first_undetermined=counts.first_undetermined.get(metric_id),
        )
        for metric_id, aggregate in batch.aggregates.items()
    }
