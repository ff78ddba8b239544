"""The run configuration, read from ``assay-perturb.yaml`` in the working directory.

Shape (every key but ``pipeline.command`` and ``decision.field`` has a default)::

    pipeline:
      command: python3 answerer.py   # a string (split like a shell would, never run by one)
      timeout: 30                    #   or a list of arguments; seconds per invocation
    decision:
      field: answer.value            # dotted path to a scalar in the pipeline's JSON output
      type: enum                     # enum | string | numeric
      distance: enum                 # optional: a registered distance name (default: type)
    cases: cases                     # the cases directory, relative to the config file
    perturbations:                   # name -> parameters, run in this order
      reorder: {count: 3}
      pad: {count: 2, chunks: 2, source: auto, position: random}
      swap: {mode: all}
    seed: 0
    baseline_runs: 1                 # baseline repeats, to measure the pipeline's nondeterminism
    jobs: 1                          # invocations run in parallel
    cache: true                      # reuse finished invocations with the same command and input

Unknown keys are refused. Every problem raises :class:`assay.AssayError` with code
``INVALID_CONFIG`` and the dotted key path (``IO_ERROR`` when the file cannot be read, as for
every command).
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

import assay

__all__ = [
    "CONFIG_FILE",
    "DECISION_TYPES",
    "PerturbConfig",
    "config_from_mapping",
    "load_config",
]

CONFIG_FILE = "assay-perturb.yaml"
"""The default configuration file name, looked up in the working directory."""

DECISION_TYPES = ("enum", "string", "numeric")
"""Supported decision field types (as the specification says: arrays and nested objects are
unsupported)."""

_DEFAULT_PERTURBATIONS: dict[str, dict[str, Any]] = {"reorder": {}, "pad": {}, "swap": {}}
_TOP_KEYS = {
    "pipeline",
    "decision",
    "cases",
    "perturbations",
    "seed",
    "baseline_runs",
    "jobs",
    "cache",
}


def _strings(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(items)


def _pairs(
    items: Iterable[tuple[str, Mapping[str, Any]]],
) -> tuple[tuple[str, Mapping[str, Any]], ...]:
    return tuple(items)


@attrs.frozen
class PerturbConfig:
    """A validated run configuration.

    Attributes:
        command: the pipeline's argument vector (never run through a shell).
        decision_field: dotted path of the decision in the pipeline's JSON output.
        decision_type: ``"enum"``, ``"string"`` or ``"numeric"``.
        distance: name of the registered distance function (kind ``"distance"``).
        cases_dir: the cases directory (absolute, or relative to the working directory).
        perturbations: ``(name, parameters)`` pairs, in run order.
        seed: the integer every perturbation's random generator derives from.
        timeout: seconds one invocation may take before it is killed and marked failed.
        baseline_runs: how many times each case's baseline is run (>= 1).
        jobs: invocations run in parallel (>= 1).
        cache: whether finished invocations are reused from the run directory.
    """

    command: tuple[str, ...] = attrs.field(converter=_strings)
    decision_field: str
    decision_type: str = "enum"
    distance: str = ""
    cases_dir: str = "cases"
    perturbations: tuple[tuple[str, Mapping[str, Any]], ...] = attrs.field(
        converter=_pairs, factory=lambda: tuple(_DEFAULT_PERTURBATIONS.items())
    )
    seed: int = 0
    timeout: float = 60.0
    baseline_runs: int = 1
    jobs: int = 1
    cache: bool = True

    @property
    def distance_name(self) -> str:
        """The distance to look up: ``distance`` when set, else the decision type."""
        return self.distance or self.decision_type

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form, written to the run directory as the configuration used."""
        return {
            "pipeline": {"command": list(self.command), "timeout": self.timeout},
            "decision": {
                "field": self.decision_field,
                "type": self.decision_type,
                "distance": self.distance_name,
            },
            "cases": self.cases_dir,
            "perturbations": {name: dict(params) for name, params in self.perturbations},
            "seed": self.seed,
            "baseline_runs": self.baseline_runs,
            "jobs": self.jobs,
            "cache": self.cache,
        }


def _bad(path: str, message: str) -> assay.AssayError:
    return assay.AssayError("INVALID_CONFIG", message, path)


def _mapping(value: Any, path: str, allowed: set[str]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _bad(path, f"must be a mapping, got {type(value).__name__}")
    unknown = sorted(set(map(str, value)) - allowed)
    if unknown:
        raise _bad(
            f"{path}.{unknown[0]}" if path else unknown[0],
            f"unknown key (allowed: {', '.join(sorted(allowed))})",
        )
    return value


MAX_TIMEOUT_SECONDS = 86_400.0
"""Longest ``pipeline.timeout``: a day."""
MAX_BASELINE_RUNS = 100
"""Most ``baseline_runs`` (repeated baselines measure nondeterminism; a hundred is plenty)."""
MAX_JOBS = 256
"""Most ``jobs`` (pipeline invocations at the same time)."""


def _number(value: Any, path: str, *, integer: bool, minimum: float, maximum: float) -> Any:
    kinds = (int,) if integer else (int, float)
    if (
        isinstance(value, bool)
        or not isinstance(value, kinds)
        or (isinstance(value, float) and not math.isfinite(value))  # .inf and .nan
        or not minimum <= value <= maximum  # an int of any size compares without overflow
    ):
        kind = "an integer" if integer else "a number"
        shown = repr(value) if len(repr(value)) <= 40 else f"{repr(value)[:37]}..."
        raise _bad(path, f"must be {kind} from {minimum:g} to {maximum:g}, got {shown}")
    return value


def _command(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        try:
            argv = shlex.split(value)
        except ValueError as exc:
            raise _bad("pipeline.command", f"cannot split the command: {exc}") from exc
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        argv = list(value)
    else:
        raise _bad("pipeline.command", "must be a string or a list of strings")
    if not argv or not argv[0]:
        raise _bad("pipeline.command", "is empty")
    return tuple(argv)


def config_from_mapping(data: Any) -> PerturbConfig:
    """Validate a parsed configuration mapping; see the module docstring for the shape.

    :raises assay.AssayError: ``INVALID_CONFIG`` with the dotted path of the first problem.
    """
    top = _mapping(data, "", _TOP_KEYS)
    pipeline = _mapping(top.get("pipeline"), "pipeline", {"command", "timeout"})
    if "command" not in pipeline:
        raise _bad("pipeline.command", "is required")
    decision = _mapping(top.get("decision"), "decision", {"field", "type", "distance"})
    field = decision.get("field")
    if not isinstance(field, str) or not field or any(not p for p in field.split(".")):
        raise _bad("decision.field", f"must be a dotted path such as 'answer.value', got {field!r}")
    decision_type = decision.get("type", "enum")
    if decision_type not in DECISION_TYPES:
        raise _bad(
            "decision.type",
            f"must be one of {', '.join(DECISION_TYPES)} (arrays and "
            f"nested objects are not supported), got {decision_type!r}",
        )
    distance = decision.get("distance") or ""
    if not isinstance(distance, str):
        raise _bad("decision.distance", "must be the name of a registered distance")
    cases = top.get("cases", "cases")
    if not isinstance(cases, str) or not cases:
        raise _bad("cases", "must be the path of the cases directory")
    perturbations = top.get("perturbations", _DEFAULT_PERTURBATIONS)
    if not isinstance(perturbations, Mapping) or not perturbations:
        raise _bad("perturbations", "must map at least one perturbation name to its parameters")
    pairs = []
    for name, params in perturbations.items():
        params = {} if params is None else params
        if not isinstance(params, Mapping):
            raise _bad(f"perturbations.{name}", "parameters must be a mapping (or empty)")
        pairs.append((str(name), dict(params)))
    cache = top.get("cache", True)
    if not isinstance(cache, bool):
        raise _bad("cache", f"must be true or false, got {cache!r}")
    seed = top.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) >= 10**100:
        raise _bad("seed", f"must be an integer with at most 100 digits, got {str(seed)[:40]!r}")
    return PerturbConfig(
        command=_command(pipeline["command"]),
        decision_field=field,
        decision_type=decision_type,
        distance=distance,
        cases_dir=cases,
        perturbations=pairs,
        seed=seed,
        timeout=float(
            _number(
                pipeline.get("timeout", 60),
                "pipeline.timeout",
                integer=False,
                minimum=0.001,
                maximum=MAX_TIMEOUT_SECONDS,
            )
        ),
        baseline_runs=_number(
            top.get("baseline_runs", 1),
            "baseline_runs",
            integer=True,
            minimum=1,
            maximum=MAX_BASELINE_RUNS,
        ),
        jobs=_number(top.get("jobs", 1), "jobs", integer=True, minimum=1, maximum=MAX_JOBS),
        cache=cache,
    )


def load_config(path: str | Path = CONFIG_FILE) -> tuple[PerturbConfig, str]:
    """Read and validate the YAML configuration at ``path`` (``-``: standard input).

    :return: the configuration (``cases_dir`` resolved against the file's folder, or the working
        directory for standard input) and the file's text (kept in the run directory as the
        configuration used).
    :raises assay.AssayError: ``IO_ERROR`` when missing or unreadable (``MALFORMED_INPUT`` when
        not UTF-8 text); ``INVALID_CONFIG``
        when not YAML (path ``file:line``) or not a valid configuration.
    """
    import yaml  # type: ignore[import-untyped]  # lazy: keeps `assay plugins` fast

    from assay.cli import read_text_input

    file = Path(path)
    where_file = "<stdin>" if str(path) == "-" else str(file)
    try:
        text = read_text_input(path)
    except assay.AssayError as error:  # as every command says it: IO_ERROR, MALFORMED_INPUT
        hint = "; run `assay perturb init` to write a starter" if error.code == "IO_ERROR" else ""
        raise assay.AssayError(error.code, error.message + hint, error.path) from error
    try:
        data = yaml.safe_load(text)
    except (RecursionError, ValueError) as exc:  # nested too deeply, an integer too long
        message = f"not usable YAML ({exc.__class__.__name__}: {str(exc)[:100]})"
        raise assay.AssayError("INVALID_CONFIG", message, where_file) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{where_file}:{mark.line + 1}" if mark is not None else where_file
        raise assay.AssayError("INVALID_CONFIG", f"not valid YAML: {exc}", where) from exc
    try:
        config = config_from_mapping(data if data is not None else {})
    except assay.AssayError as exc:
        raise assay.AssayError(exc.code, f"{exc.message} (in {where_file})", exc.path) from exc
    base = Path() if str(path) == "-" else file.parent
    return attrs.evolve(config, cases_dir=str(base / config.cases_dir)), text
