"""Scoring a run exactly as the specification says, on the decision field only.

* invariance = 1 - mean distance(baseline, variant) over variants whose perturbation has signal
  ``"invariance"`` (reorder, pad);
* sensitivity = mean distance(baseline, variant) over ``"sensitivity"`` variants (swap);
* per case and overall (overall: the mean over every scored variant of every case, not a mean
  of case means).

A failed invocation (non-zero exit, timeout, invalid JSON, missing or non-scalar field) is kept
with its reason and stderr tail but excluded from the means; so are the variants of a case whose
baseline failed. The baseline decision is that of the first successful baseline run; extra
baseline runs measure the pipeline's own nondeterminism (mean distance from that decision),
reported beside the signals so that a flaky pipeline is not mistaken for a fragile one.
These are diagnostic signals, not accuracy: they say whether the pipeline reacts to substance
rather than presentation.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

import assay
from assay_perturb.decision import DecisionError, decision_from_output
from assay_perturb.invoke import InvocationResult
from assay_perturb.plan import PlannedCase

__all__ = [
    "CaseResult",
    "Outcome",
    "RunResult",
    "SignalSummary",
    "numeric_scale_warning",
    "read_decision",
    "score_run",
]

OUTPUT_PREVIEW_CHARS = 1000

TINY_CHANGE = 0.05
"""A changed numeric decision scored below this by the relative ``numeric`` distance is as good as
unchanged in the signals: any change of a whole number of 20 or more (a year, an id, a count)
scores at most 1 / 20 = 0.05."""


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


@attrs.frozen
class Outcome:
    """One invocation, read and scored.

    Attributes:
        variant: the variant's name (``"baseline"`` for the reference run).
        perturbation: the perturbation's name (``"baseline"`` for baseline runs).
        signal: ``"invariance"``, ``"sensitivity"`` or ``None`` (baseline).
        description: what was changed.
        chunk_ids: the chunk ids the pipeline received, in order.
        folder: the invocation's folder in the run directory.
        decision: the decision read from the output (``None`` when failed).
        failure: why the invocation counts as failed, or ``None``.
        distance: distance from the baseline decision (``None`` for baselines' reference run,
            failures, and variants of a case whose baseline failed).
        exit_code: the process's exit status (``None``: could not start).
        duration: seconds the call took.
        cached: reused from the run directory.
        stderr_tail: the end of standard error.
        output_preview: the start of standard output (other fields, shown for context only).
        failure_code: a stable code for ``failure``: ``start-failed``, ``timeout``,
            ``output-too-large``, ``exit-code``, ``invalid-json``, ``field-missing``,
            ``not-scalar`` or ``wrong-type`` (``None`` when it did not fail).
    """

    variant: str
    perturbation: str
    signal: str | None
    description: str
    chunk_ids: tuple[str, ...]
    folder: str
    decision: Any
    failure: str | None
    distance: float | None
    exit_code: int | None
    duration: float
    cached: bool
    stderr_tail: str
    output_preview: str
    failure_code: str | None = None

    @property
    def ok(self) -> bool:
        """The invocation produced a valid decision."""
        return self.failure is None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (``results.json``)."""
        return {
            "variant": self.variant,
            "perturbation": self.perturbation,
            "signal": self.signal,
            "description": self.description,
            "chunkIds": list(self.chunk_ids),
            "folder": self.folder,
            "decision": self.decision,
            "failure": self.failure,
            "failureCode": self.failure_code,
            "distance": self.distance,
            "exitCode": self.exit_code,
            "duration": self.duration,
            "cached": self.cached,
            "stderrTail": self.stderr_tail,
        }


@attrs.frozen
class CaseResult:
    """One case's signals.

    Attributes:
        name: the case name; ``source``: its file; ``query``: its query.
        baseline_decision: the reference decision (``None`` when every baseline run failed).
        baseline_runs: every baseline run, in order.
        variants: every perturbed variant, in order.
        expected_decision: the decision the case file expects, if any.
        expected_matches: whether the baseline decision equals it (``None``: nothing to compare).
        invariance: 1 - mean distance over invariance variants (``None``: none scored).
        sensitivity: mean distance over sensitivity variants (``None``: none scored).
        nondeterminism: mean distance of extra baseline runs from the reference (``None``: fewer
            than two successful baseline runs).
    """

    name: str
    source: str | None
    query: str
    baseline_decision: Any
    baseline_runs: tuple[Outcome, ...]
    variants: tuple[Outcome, ...]
    expected_decision: Any
    expected_matches: bool | None
    invariance: float | None
    sensitivity: float | None
    nondeterminism: float | None

    @property
    def baseline_ok(self) -> bool:
        """At least one baseline run produced a decision."""
        return any(o.ok for o in self.baseline_runs)

    @property
    def failed(self) -> int:
        """Failed invocations of this case (baseline runs included)."""
        return sum(not o.ok for o in (*self.baseline_runs, *self.variants))

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (``results.json``)."""
        return {
            "name": self.name,
            "source": self.source,
            "query": self.query,
            "baselineDecision": self.baseline_decision,
            "expectedDecision": self.expected_decision,
            "expectedMatches": self.expected_matches,
            "invariance": self.invariance,
            "sensitivity": self.sensitivity,
            "nondeterminism": self.nondeterminism,
            "failed": self.failed,
            "baselineRuns": [o.to_dict() for o in self.baseline_runs],
            "variants": [o.to_dict() for o in self.variants],
        }


@attrs.frozen
class SignalSummary:
    """One perturbation's contribution over the whole run.

    Attributes:
        perturbation: its name; ``signal``: the signal it feeds.
        scored: variants scored; ``failed``: variants whose invocation failed.
        value: 1 - mean distance (invariance) or mean distance (sensitivity); ``None`` if none.
    """

    perturbation: str
    signal: str
    scored: int
    failed: int
    value: float | None


@attrs.frozen
class RunResult:
    """A whole run's signals.

    Attributes:
        cases: per-case results, in case order.
        invariance, sensitivity, nondeterminism: the overall signals (``None``: nothing scored).
        by_perturbation: one summary per perturbation, in configured order.
        decision_field, decision_type, distance: how decisions were read and compared.
        invocations: planned invocations; ``executed``: actually run; ``cached``: reused;
            ``failed``: failed ones.
    """

    cases: tuple[CaseResult, ...]
    invariance: float | None
    sensitivity: float | None
    nondeterminism: float | None
    by_perturbation: tuple[SignalSummary, ...]
    decision_field: str
    decision_type: str
    distance: str
    invocations: int
    executed: int
    cached: int
    failed: int

    @property
    def all_baselines_failed(self) -> bool:
        """No case has a successful baseline run (exit code 2)."""
        return not any(c.baseline_ok for c in self.cases)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form written to ``results.json``."""
        return {
            "signals": {
                "invariance": self.invariance,
                "sensitivity": self.sensitivity,
                "nondeterminism": self.nondeterminism,
            },
            "byPerturbation": [attrs.asdict(s) for s in self.by_perturbation],
            "decision": {
                "field": self.decision_field,
                "type": self.decision_type,
                "distance": self.distance,
            },
            "invocations": {
                "planned": self.invocations,
                "executed": self.executed,
                "cached": self.cached,
                "failed": self.failed,
            },
            "cases": [c.to_dict() for c in self.cases],
        }


def read_decision(
    result: InvocationResult, field: str, decision_type: str
) -> tuple[Any, str | None]:
    """``(decision, None)``, or ``(None, why it failed)`` for one invocation's result."""
    decision, failure, _ = _read_coded(result, field, decision_type)
    return decision, failure


def _read_coded(
    result: InvocationResult, field: str, decision_type: str
) -> tuple[Any, str | None, str | None]:
    if result.error is not None:
        return None, result.error, result.reason or "error"
    if result.exit_code != 0:
        return None, f"exit code {result.exit_code}", "exit-code"
    try:
        return decision_from_output(result.stdout, field, decision_type), None, None
    except DecisionError as exc:
        return None, exc.message, exc.reason
    except (ValueError, RecursionError, OverflowError, MemoryError) as exc:
        # whatever the pipeline printed, one invocation fails, not the run
        return None, f"standard output could not be read: {type(exc).__name__}", "invalid-json"


def _distance(distance: Callable[[Any, Any], float], name: str, a: Any, b: Any) -> float:
    value = float(distance(a, b))
    if not 0.0 <= value <= 1.0:
        raise assay.AssayError(
            "INVALID_DISTANCE",
            f"distance {name!r} returned {value!r} for {a!r} vs {b!r}; it must be in [0, 1]",
            "decision.distance",
        )
    return value


def _expected(expected: Any, decision: Any, decision_type: str) -> bool | None:
    if expected is None or decision is None:
        return None
    if decision_type == "numeric":
        try:
            return float(expected) == float(decision)
        except ValueError:
            return False
    shown = decision if isinstance(decision, str) else json.dumps(decision)
    return str(expected) == shown


def numeric_scale_warning(run: RunResult) -> str | None:
    """A warning when the ``numeric`` distance scored changed decisions as almost unchanged
    (below :data:`TINY_CHANGE`): it is relative to the numbers' size, so a year that moves from
    1984 to 1991 counts 0.0035 and a pipeline that changes its answer on every swap reads as
    insensitive. ``None`` when the distance is another one or no such change was scored."""
    if run.distance != "numeric":
        return None
    tiny = [
        (case.baseline_decision, outcome)
        for case in run.cases
        for outcome in case.baseline_runs + case.variants
        if outcome.distance is not None
        and 0.0 < outcome.distance < TINY_CHANGE
        and outcome.decision != case.baseline_decision
    ]
    if not tiny:
        return None
    before, first = tiny[0]
    return (
        f"{len(tiny)} changed decision(s) scored below {TINY_CHANGE:g} by the numeric distance, "
        f"which is relative to the numbers' size (e.g. {before!r} -> {first.decision!r}: "
        f"{first.distance:.4f}); for years, ids or counts, where any change is a change, set "
        "decision.distance: exact"
    )


def score_run(
    planned: Sequence[PlannedCase],
    results: Mapping[str, InvocationResult],
    *,
    field: str,
    decision_type: str,
    distance_name: str,
    distance: Callable[[Any, Any], float],
) -> RunResult:
    """Read every decision, compute distances from each case's baseline, and aggregate.

    :param results: invocation results by invocation key (every planned key present).
    :raises assay.AssayError: ``INVALID_DISTANCE`` when the distance leaves [0, 1].
    """
    cases = []
    pooled: dict[str, list[float]] = {"invariance": [], "sensitivity": []}
    repeats: list[float] = []
    per_perturbation: dict[str, tuple[str, list[float], list[int]]] = {}
    for plan in planned:
        outcomes = []
        reference: Any = None
        found = False
        for item in plan.all:
            result = results[item.invocation.key]
            decision, failure, code = _read_coded(result, field, decision_type)
            dist = None
            if failure is None and item.signal is None and not found:
                reference, found = decision, True
            elif failure is None and found:
                dist = _distance(distance, distance_name, reference, decision)
            outcomes.append(
                Outcome(
                    variant=item.variant.name,
                    perturbation=item.variant.perturbation,
                    signal=item.signal,
                    description=item.variant.description,
                    chunk_ids=tuple(c.id for c in item.variant.chunks),
                    folder=item.invocation.folder,
                    decision=decision,
                    failure=failure,
                    failure_code=code,
                    distance=dist,
                    exit_code=result.exit_code,
                    duration=result.duration,
                    cached=result.cached,
                    stderr_tail=result.stderr_tail,
                    output_preview=result.stdout[:OUTPUT_PREVIEW_CHARS],
                )
            )
        baseline_runs = outcomes[: len(plan.baselines)]
        variants = outcomes[len(plan.baselines) :]
        extra = [o.distance for o in baseline_runs if o.distance is not None]
        repeats += extra
        by_signal: dict[str, list[float]] = {"invariance": [], "sensitivity": []}
        for outcome in variants:
            assert outcome.signal is not None
            entry = per_perturbation.setdefault(outcome.perturbation, (outcome.signal, [], [0]))
            if outcome.distance is not None:
                by_signal[outcome.signal].append(outcome.distance)
                entry[1].append(outcome.distance)
            elif not outcome.ok:
                entry[2][0] += 1
        for signal, values in by_signal.items():
            pooled[signal] += values
        invariance = _mean(by_signal["invariance"])
        cases.append(
            CaseResult(
                name=plan.case.name,
                source=plan.case.source,
                query=plan.case.query,
                baseline_decision=reference,
                baseline_runs=tuple(baseline_runs),
                variants=tuple(variants),
                expected_decision=plan.case.expected_decision,
                expected_matches=_expected(
                    plan.case.expected_decision, reference if found else None, decision_type
                ),
                invariance=None if invariance is None else 1.0 - invariance,
                sensitivity=_mean(by_signal["sensitivity"]),
                nondeterminism=_mean(extra),
            )
        )
    overall_invariance = _mean(pooled["invariance"])
    summaries = []
    for name, (signal, values, failed) in per_perturbation.items():
        mean = _mean(values)
        value = None if mean is None else (1.0 - mean if signal == "invariance" else mean)
        summaries.append(SignalSummary(name, signal, len(values), failed[0], value))
    used = [results[i.invocation.key] for p in planned for i in p.all]
    return RunResult(
        cases=tuple(cases),
        invariance=None if overall_invariance is None else 1.0 - overall_invariance,
        sensitivity=_mean(pooled["sensitivity"]),
        nondeterminism=_mean(repeats),
        by_perturbation=tuple(summaries),
        decision_field=field,
        decision_type=decision_type,
        distance=distance_name,
        invocations=len(used),
        executed=sum(not r.cached for r in used),
        cached=sum(r.cached for r in used),
        failed=sum(c.failed for c in cases),
    )
