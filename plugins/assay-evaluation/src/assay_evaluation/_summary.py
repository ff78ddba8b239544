"""The plain-text summary ``assay eval`` prints: one row per metric with its threshold, the
statistics, pass / undetermined / error rates, then regressions, judge cost, why the run failed
and the verdict."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay import ExitCode
from assay_evaluation._gate import GateVerdict, metric_counts
from assay_evaluation._profiles import metric_label

if TYPE_CHECKING:
    from assay_evaluation._batch_result import BatchEvalResult

__all__ = ["summary_text", "verdict_word"]


def _threshold(value: float | None, higher_is_better: bool) -> str:
    if value is None:
        return "-"
    return f"{'>=' if higher_is_better else '<='}{value:g}"


def summary_text(batch: BatchEvalResult, verdict: GateVerdict, word: str | None = None) -> str:
    """The summary table and verdict of ``batch`` (see the module docstring); ``word`` replaces
    :func:`verdict_word` on the last line."""
    counts = metric_counts(batch)
    labels = [metric_label(m) for m in batch.aggregates]
    width = max([22, *(len(label) + 2 for label in labels)])
    header = f"{'metric':<{width}}{'threshold':>10}{'mean':>7}{'median':>8}{'min':>7}{'max':>7}"
    header += f"{'std':>7}{'pass':>8}{'undet':>8}{'error':>8}"
    lines = [header, "-" * len(header)]
    samples = batch.sample_count or 1
    rows = [
        (label, a, counts[m].higher_is_better, counts[m].errors)
        for label, (m, a) in zip(labels, batch.aggregates.items(), strict=True)
    ]
    rows.append(("composite", batch.composite_aggregate, True, 0))
    for label, a, higher, errors in rows:
        undetermined = a.null_rate - errors / samples
        stats = [a.mean, a.median, a.min, a.max, a.std_dev]
        shown = [f"{x:.3f}" for x in stats] if a.count else ["-"] * 5  # no score: no statistic
        lines.append(
            f"{label:<{width}}{_threshold(a.threshold, higher):>10}{shown[0]:>7}{shown[1]:>8}"
            f"{shown[2]:>7}{shown[3]:>7}{shown[4]:>7}{a.pass_rate:>8.1%}"
            f"{undetermined:>8.1%}{errors / samples:>8.1%}"
        )
    if any(a.count < batch.sample_count for a in batch.aggregates.values()):
        lines.append(f"(pass, undet, error: shares of all {batch.sample_count} samples)")
    for r in batch.regressions or ():
        mark = "REGRESSED" if r.regressed else "ok"
        allowed = (
            ""
            if r.threshold is None
            else f", allowed {'-' if r.higher_is_better else '+'}{r.threshold:g}"
        )
        lines.append(
            f"regression {metric_label(r.metric_id)}: {r.baseline_mean:.3f} -> "
            f"{r.current_mean:.3f} (delta {r.delta:+.3f}{allowed}) {mark}"
        )
    cost = batch.total_cost
    if cost.llm_calls or cost.cache_hits or cost.parse_failures:
        lines.append(
            f"judge: {cost.llm_calls} calls, {cost.input_tokens} input / {cost.output_tokens} "
            f"output tokens, {cost.cache_hits} cache hits, {cost.parse_failures} parse failures"
        )
    if verdict.reasons:
        lines.append("why:" if not verdict.passed else "notes:")
        lines.extend(f"  - {reason}" for reason in verdict.reasons)
    errors = sum(c.errors for c in counts.values())
    tail = f", {errors} metric errors" if errors else ""
    lines.append(
        f"{batch.sample_count} sample{'' if batch.sample_count == 1 else 's'}, "
        f"{batch.failed_count} failed{tail}: " + (word or verdict_word(verdict))
    )
    return "\n".join(lines)


def verdict_word(verdict: GateVerdict) -> str:
    """The last word of the summary, one per exit code: ``PASSED`` (0), ``FAILED`` (1, the gate
    failed) or ``NOT JUDGED`` (2: nothing could be judged, e.g. no score at all)."""
    if verdict.passed:
        return "PASSED"
    return "NOT JUDGED" if verdict.exit_code == ExitCode.USAGE else "FAILED"
