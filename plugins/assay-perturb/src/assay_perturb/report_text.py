"""The terminal report: per case invariance, sensitivity, nondeterminism and failures; overall."""

from __future__ import annotations

from typing import Any

from assay_perturb.scoring import RunResult

__all__ = ["FRAMING", "NONDETERMINISM_NOTE", "format_signal", "text_report"]

FRAMING = (
    "Signals are diagnostic, not accuracy: high invariance and high sensitivity say the "
    "pipeline reads substance, not presentation."
)

NONDETERMINISM_NOTE = (
    "note: the baseline itself varies between runs; read signal drops against "
    "the nondeterminism above before blaming a perturbation."
)


def format_signal(value: float | None) -> str:
    """``0.83`` with two decimals, or ``-`` when nothing was scored."""
    return "-" if value is None else f"{value:.2f}"


def _one_line(value: Any, limit: int = 60) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def text_report(run: RunResult) -> str:
    """The report as plain text (no colour codes), ending with a newline."""
    width = max([len("case"), *(len(c.name) for c in run.cases)])
    lines = [
        f"decision field {run.decision_field} ({run.decision_type}, distance {run.distance})",
        "",
        f"{'case':<{width}}  invariance  sensitivity  nondeterminism  failed  baseline",
    ]
    for case in run.cases:
        baseline = _one_line(case.baseline_decision) if case.baseline_ok else "FAILED"
        if case.expected_matches is False:
            baseline += f"  (expected {_one_line(case.expected_decision, 30)})"
        lines.append(
            f"{case.name:<{width}}  {format_signal(case.invariance):>10}  "
            f"{format_signal(case.sensitivity):>11}  {format_signal(case.nondeterminism):>14}  "
            f"{case.failed:>6}  {baseline}"
        )
    lines += [
        "",
        f"overall: invariance {format_signal(run.invariance)}, sensitivity "
        f"{format_signal(run.sensitivity)}, nondeterminism {format_signal(run.nondeterminism)}",
        "by perturbation: "
        + ", ".join(
            f"{s.perturbation} ({s.signal}) {format_signal(s.value)} over {s.scored}"
            for s in run.by_perturbation
        ),
        f"invocations: {run.invocations} planned, {run.executed} run, {run.cached} cached, "
        f"{run.failed} failed",
    ]
    failures = [
        (case.name, o)
        for case in run.cases
        for o in (*case.baseline_runs, *case.variants)
        if not o.ok
    ]
    if failures:
        lines += ["", "failed invocations (excluded from the means):"]
        for name, outcome in failures:
            lines.append(f"  {name} / {outcome.variant}: {_one_line(outcome.failure, 100)}")
            tail = outcome.stderr_tail.strip().splitlines()[-1:] if outcome.stderr_tail else []
            lines += [f"    stderr: {_one_line(t, 100)}" for t in tail]
    if run.nondeterminism:
        lines += ["", NONDETERMINISM_NOTE]
    lines += ["", FRAMING]
    return "\n".join(lines) + "\n"
