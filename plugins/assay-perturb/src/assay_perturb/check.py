"""``assay perturb check`` as a function: plan, execute, score, and write the run directory.

Run directory layout (``./assay-perturb/`` by default)::

    config.yaml            the configuration text used for the last run
    config.json            the configuration as resolved (defaults and overrides applied)
    invocations/<case>/<variant>/
        input.json         what the pipeline received (also on its standard input)
        stdout.txt, stderr.txt
        result.json        key, exit code, timed out, duration, error (written last)
    results.json           every decision, distance and signal
    report.html            the self-contained HTML report
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

import assay
from assay.cli import atomic_write
from assay_perturb.cases import load_cases, select_names
from assay_perturb.config import PerturbConfig
from assay_perturb.distances import DISTANCE_KIND
from assay_perturb.execute import execute
from assay_perturb.invoke import Invocation, InvocationResult
from assay_perturb.plan import plan_cases
from assay_perturb.report_html import html_report
from assay_perturb.scoring import RunResult, read_decision, score_run

__all__ = ["RUN_DIR", "distance_function", "run_check"]

RUN_DIR = "assay-perturb"
"""The run directory's default name, in the working directory."""


def distance_function(registry: assay.Registry, name: str) -> Callable[[Any, Any], float]:
    """The distance registered as ``name`` (kind ``"distance"``).

    :raises assay.AssayError: ``INVALID_CONFIG`` (path ``decision.distance``) when none is.
    """
    try:
        return registry.get(DISTANCE_KIND, name)  # type: ignore[no-any-return]
    except assay.AssayError as exc:
        raise assay.AssayError("INVALID_CONFIG", exc.message, "decision.distance") from exc


def _write_json(path: Path, value: Any) -> None:
    with atomic_write(path) as handle:
        json.dump(value, handle, indent=2, ensure_ascii=False, allow_nan=False)
        handle.write("\n")


def run_check(
    config: PerturbConfig,
    *,
    workdir: str | Path = ".",
    run_dir: str | Path = RUN_DIR,
    config_text: str | None = None,
    only: Iterable[str] = (),
    jobs: int | None = None,
    use_cache: bool | None = None,
    baseline_runs: int | None = None,
    registry: assay.Registry | None = None,
    on_result: Callable[[Invocation, InvocationResult], None] | None = None,
    on_stop: Callable[[str], None] | None = None,
    floors: Mapping[str, float | None] | None = None,
) -> RunResult:
    """Run every selected case's baseline and variants through the pipeline and score them.

    :param workdir: where the pipeline runs and relative paths (cases, run dir) start.
    :param run_dir: the run directory (relative to ``workdir`` unless absolute).
    :param config_text: the configuration file's text, stored as ``config.yaml``.
    :param only: case names to run (all when empty); other cases still serve as padding.
    :param jobs, use_cache, baseline_runs: override the configuration when not ``None``.
    :param registry: where perturbations and distances are looked up (default: the process-wide
        registry, which includes objects registered at runtime with :func:`assay.register`).
    :param floors: CI floors (``{"invariance": 0.9}``), shown as passed or failed in the report.
    :param on_result, on_stop: progress callbacks (see :func:`assay_perturb.execute.execute`).
    :return: the scored run; ``results.json`` and ``report.html`` are written before returning.
    :raises assay.AssayError: ``INVALID_CONFIG`` (unknown perturbation, parameter or distance),
        ``CASES_DIR`` / ``MALFORMED_CASE`` / ``INVALID_INPUT`` (cases), before any invocation.
    :raises assay_perturb.execute.Interrupted: Ctrl-C, SIGTERM or SIGHUP during the run.
    """
    registry = registry or assay.default_registry()
    config = attrs.evolve(
        config,
        jobs=config.jobs if jobs is None else jobs,
        cache=config.cache if use_cache is None else use_cache,
        baseline_runs=config.baseline_runs if baseline_runs is None else baseline_runs,
    )
    workdir = Path(workdir).resolve()
    run_path = workdir / run_dir
    distance = distance_function(registry, config.distance_name)
    everything = load_cases(workdir / config.cases_dir)  # all of them: padding material
    wanted = select_names([c.name for c in everything], only, config.cases_dir)
    selected = [c for c in everything if c.name in wanted]
    planned = plan_cases(config, selected, everything, registry, workdir, config.baseline_runs)
    run_path.mkdir(parents=True, exist_ok=True)
    if config_text is not None:
        with atomic_write(run_path / "config.yaml") as handle:
            handle.write(config_text)
    _write_json(run_path / "config.json", config.to_dict())
    invocations = [item.invocation for plan in planned for item in plan.all]
    results = execute(
        invocations,
        config.command,
        run_dir=run_path,
        workdir=workdir,
        timeout=config.timeout,
        jobs=config.jobs,
        use_cache=config.cache,
        on_result=on_result,
        on_stop=on_stop,
        accept=lambda result: (
            read_decision(result, config.decision_field, config.decision_type)[1] is None
        ),
    )
    run = score_run(
        planned,
        results,
        field=config.decision_field,
        decision_type=config.decision_type,
        distance_name=config.distance_name,
        distance=distance,
    )
    _write_json(run_path / "results.json", run.to_dict())
    with atomic_write(run_path / "report.html") as handle:
        handle.write(html_report(run, config.command, floors))
    return run
