"""``assay perturb init``: a commented starter configuration, one example case, and a first
pipeline run on that example to check that the decision field exists and is a scalar."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs

import assay
from assay_perturb.cases import parse_case
from assay_perturb.config import CONFIG_FILE, PerturbConfig, load_config
from assay_perturb.decision import DecisionError, decision_from_output
from assay_perturb.invoke import run_invocation
from assay_perturb.plan import plan_cases

__all__ = ["EXAMPLE_CASE", "InitOutcome", "init_project", "starter_config"]

EXAMPLE_CASE = """\
# Example case: refund window for annual plans
<!-- One case per file. Sections: Query, Context (one ### <chunk-id> per chunk), Key evidence
     (chunk ids), Counterfactual (one ### <chunk-id> per key-evidence chunk), and optionally
     Padding and Expected decision. -->

## Query
How many days do customers have to request a refund on an annual plan?

## Context

### refund-policy
Annual plans can be refunded within 30 days of purchase. Monthly plans are not refundable.

### shipping
Hardware orders ship within 5 business days from our warehouse.

### support-hours
Support answers tickets from 9:00 to 17:00 on weekdays.

## Key evidence
- refund-policy

## Counterfactual

### refund-policy
Annual plans can be refunded within 90 days of purchase. Monthly plans are not refundable.

## Padding

### garden
The office garden is watered every Tuesday morning by the facilities team.

### parking
Visitor parking is on level two of the north garage.

## Expected decision
30
"""


def starter_config(command: str, field: str, decision_type: str, cases: str) -> str:
    """The commented starter ``assay-perturb.yaml`` (values JSON-quoted, which YAML reads)."""
    return f"""\
# assay perturb configuration (read from the working directory by `assay perturb check`).
pipeline:
  # Run without a shell. The variant arrives as JSON on standard input and in the file
  # named by $ASSAY_PERTURB_INPUT:
  #   {{"case", "variant", "perturbation", "query", "chunks": [{{"id", "text"}}]}}
  # Standard output must be a JSON document holding the decision field.
  command: {json.dumps(command)}
  timeout: 60            # seconds per invocation; a timeout marks that invocation failed

decision:
  field: {json.dumps(field)}   # dotted path to a scalar in the output, e.g. answer.value
  type: {decision_type}           # enum | string (0 if equal else 1) | numeric (relative gap)
  # distance: exact      # optional: any registered distance function, by name; exact (0 if
  #                      # equal else 1) suits numbers where any change counts: years, ids, counts

cases: {json.dumps(cases)}       # one Markdown file per case

perturbations:           # run in this order; remove one to skip it
  reorder:
    count: 3             # distinct permutations of the context chunks
  pad:
    count: 2             # padded variants
    chunks: 2            # irrelevant chunks added per variant
    source: auto         # case (## Padding) | others (other cases' chunks) | filler | auto
    position: random     # start | end | random
  swap:
    mode: all            # all: one variant swapping every key chunk | each: one per chunk

seed: 0                  # same value, same variants
baseline_runs: 1         # >1 measures the pipeline's own nondeterminism
jobs: 1                  # invocations in parallel (--jobs)
cache: true              # reuse finished invocations with unchanged command and input
"""


@attrs.frozen
class InitOutcome:
    """What ``init`` did.

    Attributes:
        wrote: files written (existing ones are kept, not overwritten, without ``force``).
        kept: files that already existed and were kept.
        ok: whether the pipeline ran and produced a scalar decision.
        decision: that decision (``None`` when not ok).
        problem: why not ok (exit code 2), with the stderr tail when the pipeline failed.
    """

    wrote: tuple[str, ...]
    kept: tuple[str, ...]
    ok: bool
    decision: Any = None
    problem: str | None = None


def _write_new(path: Path, text: str, force: bool, wrote: list[str], kept: list[str]) -> None:
    from assay.cli import atomic_write

    if path.exists() and not force:
        kept.append(str(path))
        return
    with atomic_write(path) as handle:
        handle.write(text)
    wrote.append(str(path))


def init_project(
    workdir: str | Path = ".",
    *,
    command: str | None,
    field: str,
    decision_type: str = "enum",
    cases: str = "cases",
    run_dir: str = "assay-perturb",
    force: bool = False,
) -> InitOutcome:
    """Write the starter config and example case (unless present), then run the example once.

    :param command: the pipeline command; may be omitted when a configuration already exists.
    :raises assay.AssayError: ``CONFIG_NOT_FOUND`` when there is neither a configuration nor a
        command; ``INVALID_CONFIG`` / ``MALFORMED_CASE`` when what is on disk is invalid.
    """
    root = Path(workdir).resolve()
    config_path = root / CONFIG_FILE
    wrote: list[str] = []
    kept: list[str] = []
    if command is None and (force or not config_path.exists()):
        raise assay.AssayError(
            "CONFIG_NOT_FOUND",
            "no configuration yet: pass --command (the pipeline to run) and --field",
            str(config_path),
        )
    if command is not None:
        _write_new(
            config_path, starter_config(command, field, decision_type, cases), force, wrote, kept
        )
    config, _ = load_config(config_path)
    example = Path(config.cases_dir) / "example.md"
    _write_new(example, EXAMPLE_CASE, force, wrote, kept)
    case = parse_case(example.read_text(encoding="utf-8"), str(example))
    registry = assay.default_registry()
    plan = plan_cases(attrs.evolve(config, perturbations=()), [case], [case], registry, root, 1)
    invocation = plan[0].baselines[0].invocation
    result = run_invocation(
        invocation, config.command, run_dir=root / run_dir, workdir=root, timeout=config.timeout
    )
    return _judge(result, config, wrote, kept)


def _judge(result: Any, config: PerturbConfig, wrote: list[str], kept: list[str]) -> InitOutcome:
    tail = result.stderr_tail.strip()
    if not result.completed:
        why = result.error or f"exit code {result.exit_code}"
        problem = f"the pipeline failed on the example case: {why}"
        if tail:
            problem += f"\nstderr (tail):\n{tail}"
        return InitOutcome(tuple(wrote), tuple(kept), False, problem=problem)
    try:
        value = decision_from_output(result.stdout, config.decision_field, config.decision_type)
    except DecisionError as exc:
        return InitOutcome(tuple(wrote), tuple(kept), False, problem=exc.message)
    return InitOutcome(tuple(wrote), tuple(kept), True, decision=value)
