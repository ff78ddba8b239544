"""``assay perturb``: ``init`` and ``check`` subcommands.

Exit codes, from the one table of every ``assay`` command (:class:`assay.ExitCode`):

* 0 ``OK``: report written (signals may still be concerning);
* 1 ``FAILED``: ``--min-invariance`` / ``--min-sensitivity`` given and the overall signal is below
  it (or could not be computed);
* 2 ``USAGE``: configuration or cases-directory problem (nothing was run);
* 3 ``NO_DECISION``: the decision field is missing or every baseline invocation failed (report
  still written);
* 130 ``INTERRUPTED``: Ctrl-C; finished invocations are kept and a re-run reuses them.

``init`` exits 0 when the example ran and gave a scalar decision, 2 on a configuration problem,
3 when the pipeline failed or the decision field is missing or not a scalar.
Only click, assay and the configuration's bounds are imported here; the work is imported when a
command runs.
"""

from __future__ import annotations

import math
from typing import Any, NoReturn

import click

import assay
from assay import ExitCode
from assay.cli import AssayGroup
from assay_perturb.config import MAX_BASELINE_RUNS, MAX_JOBS

__all__ = ["perturb"]


def _config_problem(ctx: click.Context, error: assay.AssayError) -> NoReturn:
    from assay.cli import format_error

    click.echo(format_error(error), err=True)
    ctx.exit(ExitCode.USAGE)


@click.group("perturb", cls=AssayGroup)
def perturb() -> None:
    """Robustness of a RAG pipeline run as a command: does it read substance, not presentation?

    Perturbs each case's retrieved context (reorder, pad: the decision should hold; swap the key
    evidence for a counterfactual: it should change) and reports invariance and sensitivity.

    Exit codes: 0 ok, 1 a --min-* floor not met, 2 configuration or cases problem, 3 no
    decision (decision field missing or every baseline failed), 130 interrupted.
    """


NUMERIC_NOTE = (
    "note: the numeric distance is relative to the numbers' size (1984 -> 1991 counts 0.0035): "
    "for years, ids or counts, where any change is a change, uncomment "
    "`distance: exact` in assay-perturb.yaml"
)


def _no_decision(ctx: click.Context, message: str) -> NoReturn:
    """``error [NO_DECISION] message`` (its first line; any further lines, such as the end of the
    pipeline's standard error, follow it) and exit 3."""
    from assay.cli import format_error

    click.echo(format_error(assay.AssayError("NO_DECISION", message)), err=True)
    ctx.exit(ExitCode.NO_DECISION)


@perturb.command("init")
@click.option("--command", "command", help="The pipeline command (run without a shell).")
@click.option(
    "--field",
    default="decision",
    show_default=True,
    help="Dotted path of the decision in the pipeline's JSON output.",
)
@click.option(
    "--type",
    "decision_type",
    type=click.Choice(["enum", "string", "numeric"]),
    default="enum",
    show_default=True,
)
@click.option("--cases", default="cases", show_default=True, help="Cases directory.")
@click.option("--force", is_flag=True, help="Overwrite an existing config and example case.")
@click.pass_context
def init_command(
    ctx: click.Context,
    command: str | None,
    field: str,
    decision_type: str,
    cases: str,
    force: bool,
) -> None:
    """Write assay-perturb.yaml and cases/example.md, then run the pipeline on the example.

    Exit 0: ready; 2: configuration problem; 3: the pipeline failed, or the decision field is
    missing or not a scalar (arrays and nested objects are not supported).
    """
    from assay_perturb.init import init_project

    try:
        outcome = init_project(
            command=command, field=field, decision_type=decision_type, cases=cases, force=force
        )
    except assay.AssayError as error:
        _config_problem(ctx, error)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        ctx.exit(ExitCode.INTERRUPTED)
    for path in outcome.wrote:
        click.echo(f"wrote {path}")
    for path in outcome.kept:
        click.echo(f"kept existing {path}")
    if not outcome.ok:
        _no_decision(ctx, outcome.problem or "no decision")
    click.echo(
        f"pipeline ran on the example: decision = {outcome.decision!r} (a scalar). "
        "Next: add cases, then run `assay perturb check`."
    )
    if decision_type == "numeric" and command is not None:
        click.echo(NUMERIC_NOTE)


def _floor(name: str, value: float | None, floor: float | None) -> str | None:
    if floor is None:
        return None
    if value is None:
        return f"{name} could not be computed (no scored variants); floor {floor:g}"
    if value < floor:
        return f"{name} {value:.3f} is below the floor {floor:g}"
    return None


def _option_error(name: str, message: str) -> assay.AssayError:
    return assay.AssayError("INVALID_CONFIG", message, name)


def _option_name(param: click.Parameter | None) -> str:
    return param.opts[0] if param is not None and param.opts else "option"


class _Count(click.IntRange):
    """A whole number from 1 to ``maximum`` (the configuration file's bound for the same key);
    anything else is ``INVALID_CONFIG`` naming the option (exit 2)."""

    def __init__(self, maximum: int) -> None:
        super().__init__(1, maximum)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            raise _option_error(
                _option_name(param),
                f"must be a whole number from {self.min} to {self.max}, got {value!r}",
            ) from None


class _Fraction(click.FloatRange):
    """A number from 0 to 1 (``nan`` refused); anything else is ``INVALID_CONFIG`` (exit 2)."""

    def __init__(self) -> None:
        super().__init__(0.0, 1.0)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            number = super().convert(value, param, ctx)
        except click.BadParameter:
            number = math.nan
        if not 0.0 <= number <= 1.0:  # also refuses nan, which a range check lets through
            raise _option_error(_option_name(param), f"must be a number from 0 to 1, got {value!r}")
        return number


@perturb.command("check")
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, allow_dash=True),
    default="assay-perturb.yaml",
    show_default=True,
    help="The YAML configuration; - reads it from standard input (cases relative to the "
    "working directory).",
)
@click.option(
    "--run-dir",
    type=click.Path(file_okay=False),
    default="assay-perturb",
    show_default=True,
    help="Folder for the invocations, results.json and report.html (also the cache).",
)
@click.option("--only", multiple=True, help="Run only this case (repeatable).")
@click.option(
    "--jobs",
    type=_Count(MAX_JOBS),
    help="Pipeline invocations run at the same time (each is its own process already; this is "
    "concurrency, not --workers). Default: the configuration's jobs.",
)
@click.option("--no-cache", is_flag=True, help="Run every invocation, ignoring the cache.")
@click.option(
    "--baseline-runs",
    type=_Count(MAX_BASELINE_RUNS),
    help="Baseline repeats per case (measures the pipeline's nondeterminism).",
)
@click.option("--min-invariance", type=_Fraction(), help="Exit 1 below this overall invariance.")
@click.option("--min-sensitivity", type=_Fraction(), help="Exit 1 below this overall sensitivity.")
@click.option("--quiet", is_flag=True, help="No progress lines on standard error.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the results (as written to results.json) instead of the text report.",
)
@click.pass_context
def check_command(
    ctx: click.Context,
    config_path: str,
    run_dir: str,
    only: tuple[str, ...],
    jobs: int | None,
    no_cache: bool,
    baseline_runs: int | None,
    min_invariance: float | None,
    min_sensitivity: float | None,
    quiet: bool,
    as_json: bool,
) -> None:
    """Run every case's baseline and variants through the pipeline; print and write the report.

    Exit 0: report written; 1: a --min-* floor not met; 2: configuration or cases problem;
    3: decision field missing or every baseline failed; 130: interrupted.
    """
    from assay.cli import echo_json
    from assay_perturb.check import run_check
    from assay_perturb.config import load_config
    from assay_perturb.report_text import text_report
    from assay_perturb.scoring import numeric_scale_warning

    done = [0]

    def progress(invocation: Any, result: Any) -> None:
        done[0] += 1
        if not quiet and not result.cached:
            status = "ok" if result.completed else "FAILED"
            click.echo(f"[{done[0]}] {invocation.case} / {invocation.variant}: {status}", err=True)

    try:
        floors = {"invariance": min_invariance, "sensitivity": min_sensitivity}
        config, text = load_config(config_path)
        run = run_check(
            config,
            run_dir=run_dir,
            config_text=text,
            only=only,
            jobs=jobs,
            use_cache=False if no_cache else None,
            baseline_runs=baseline_runs,
            on_result=progress,
            on_stop=lambda message: click.echo(message, err=True),
            floors=floors,
        )
    except assay.AssayError as error:
        _config_problem(ctx, error)
    except KeyboardInterrupt as stop:
        finished = getattr(stop, "finished", done[0])
        word = "interrupted" if getattr(stop, "signal_name", "SIGINT") == "SIGINT" else "terminated"
        click.echo(
            f"{word}: {finished} finished invocation(s) kept in {run_dir}/; a re-run reuses them",
            err=True,
        )
        ctx.exit(ExitCode.INTERRUPTED)
    if as_json:
        echo_json(run.to_dict())
    else:
        click.echo(text_report(run), nl=False)
    click.echo(f"report: {run_dir}/report.html, results: {run_dir}/results.json", err=as_json)
    warning = numeric_scale_warning(run)
    if warning:
        click.echo(f"warning: {warning}", err=True)
    if run.all_baselines_failed:
        reasons = sorted({o.failure or "" for c in run.cases for o in c.baseline_runs})
        _no_decision(ctx, "every baseline invocation failed (" + "; ".join(reasons)[:500] + ")")
    problems = [
        p
        for p in (
            _floor("invariance", run.invariance, floors["invariance"]),
            _floor("sensitivity", run.sensitivity, floors["sensitivity"]),
        )
        if p
    ]
    for problem in problems:
        click.echo(f"FAILED: {problem}", err=True)
    if problems:
        ctx.exit(ExitCode.FAILED)
