"""``assay eval DATA.jsonl``: evaluate a dataset, print a summary, gate on thresholds and
regressions.

It follows the conventions of every ``assay`` command (:mod:`assay.cli`): ``-`` as DATA reads
standard input, ``--json`` prints machine-readable lines, ``--workers N|auto`` runs N worker
processes (0 in-process), and the exit codes are :class:`assay.ExitCode`'s: ``OK`` (0) every
threshold met and no regression; ``FAILED`` (1) a threshold failed or a regression was found;
``USAGE`` (2) bad input or configuration (any :class:`~assay.AssayError`).
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import attrs
import click

from assay import AssayError, ErrorCode, ExitCode, default_registry
from assay.cli import OutputPath, atomic_write, read_json_file, workers_option
from assay_evaluation._aggregate import baseline_means
from assay_evaluation._api import evaluate_batch
from assay_evaluation._batch_result import BatchEvalResult
from assay_evaluation._codes import EvaluationErrorCode as Code
from assay_evaluation._columns import SampleFieldWarning
from assay_evaluation._export import OUTPUT_FORMATS, save_results
from assay_evaluation._gate import FAIL_ON, Gate, GateVerdict
from assay_evaluation._judge_config import judge_from_config
from assay_evaluation._options import (
    EvaluateOptions,
    check_scheduler,
    check_timestamp,
    parse_options,
    snake_case,
    suggest,
)
from assay_evaluation._outcome import status_of
from assay_evaluation._plan import resolve_plan
from assay_evaluation._profiles import DEFAULT_METRICS
from assay_evaluation._progress import ProgressLine
from assay_evaluation._readers import FORMATS
from assay_evaluation._summary import summary_text
from assay_evaluation._types import EvalResult
from assay_evaluation._user_modules import PLUGINS_ENV, load_plugins
from assay_evaluation._wire import batch_to_wire

__all__ = ["HTML_WORST", "WORKER_CHUNK", "eval_command", "sample_line"]

HTML_WORST = 10
"""Samples the ``--html`` report shows in full (the worst ones)."""

WORKER_CHUNK = 512
"""Samples per chunk ``assay eval`` sends to workers (``--workers``, ``--scheduler``) unless the
config sets ``chunkSize``."""


def _json_kind(value: Any) -> str:
    """``value``'s JSON type, as a reader of the file would name it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "a string" if isinstance(value, str) else "an array"


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word.title() for word in rest)


# what a config file may set: its own keys, and the options that are no Python object and that
# no flag of this command always sets (--workers, and what --json / --html need kept)
_CONFIG_KEYS = tuple(
    dict.fromkeys(
        _camel(name)
        for name in (
            "metrics",
            "judge",
            "gate",
            "column_map",
            *(f.name for f in attrs.fields(EvaluateOptions)),
        )
        if name not in ("executor", "clock", "on_progress", "keep_results", "keep_worst", "workers")
    )
)


def _read_config(path: str | None) -> dict[str, Any]:
    """The ``--config`` file as a dict (``{}`` without one).

    :raises AssayError: the codes of :func:`~assay.cli.read_json_file`; ``INVALID_OPTION`` when
        the file's top-level value is not a JSON object, or for a key a config cannot set (a
        typo such as ``metric``, or a Python-only option), naming the keys it can.
    """
    if not path:
        return {}
    config = read_json_file(path)
    if not isinstance(config, dict):
        raise AssayError(
            Code.INVALID_OPTION,
            f"the config must be a JSON object, got {_json_kind(config)}",
            path,
        )
    known = {snake_case(key) for key in _CONFIG_KEYS} | {"baseline", "stream_to"}
    for key in config:
        if snake_case(str(key)) not in known:
            raise AssayError(
                Code.INVALID_OPTION,
                f"{path} has an unknown key {key!r}{suggest(str(key), _CONFIG_KEYS)} (a config "
                f"sets: {', '.join(_CONFIG_KEYS)})",
                str(key),
            )
    return dict(config)


def _reading(cli: dict[str, Any]) -> dict[str, Any]:
    """The reading arguments of :func:`~assay_evaluation.evaluate_batch` from the flags."""
    column_map = {
        **cli.pop("config_map"),
        **_pairs(cli.pop("column_map"), "--map", Code.INVALID_OPTION),
    }
    return {
        "format": cli.pop("input_format"),
        "column_map": column_map,
        "strict": cli.pop("strict"),
        "contexts_separator": cli.pop("contexts_separator"),
    }


def _show_field_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """Each unknown column once, as a line on standard error (``warning [UNKNOWN_FIELD] row
    1.questoin: ...``), as soon as it is seen; other warnings as Python shows them."""
    if isinstance(message, SampleFieldWarning):
        click.echo(f"warning [{message.code}] {message}", err=True)
    else:
        _SHOW_WARNING(message, category, filename, lineno, file, line)


_SHOW_WARNING = warnings.showwarning


def _no_samples(data: str) -> AssayError:
    return AssayError(
        ErrorCode.MALFORMED_INPUT,
        "no samples: the input holds no sample (an empty run proves nothing)",
        "standard input" if data == "-" else data,
    )


def sample_line(result: EvalResult, index: int) -> dict[str, Any]:
    """The ``--json`` record of one sample: ``{"id", "metrics": {id: {"score", "passed",
    "status", "explanation", "signals"}}, "compositeScore", "passed"}``; ``status`` is
    ``pass``, ``fail``, ``undetermined`` or ``error``."""
    return {
        "id": result.sample.id if result.sample.id is not None else f"#{index}",
        "metrics": {
            metric_id: {
                "score": metric.score,
                "passed": metric.passed,
                "status": status_of(metric),
                "explanation": metric.explanation,
                "signals": [
                    {"severity": s.severity, "message": s.message, "evidence": s.evidence}
                    for s in metric.signals
                ],
            }
            for metric_id, metric in result.metrics.items()
        },
        "compositeScore": result.composite_score,
        "passed": result.passed,
    }


def _pairs(pairs: tuple[str, ...], option: str, code: str) -> dict[str, str]:
    """``KEY=VALUE`` arguments of a repeatable option as a dict."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise AssayError(code, f"expected KEY=VALUE, got {pair!r}", option)
        out[key.strip()] = value.strip()
    return out


def _parse_thresholds(pairs: tuple[str, ...]) -> dict[str, float]:
    thresholds: dict[str, float] = {}
    for metric_id, value in _pairs(pairs, "--threshold", Code.INVALID_THRESHOLD).items():
        try:
            thresholds[metric_id] = float(value)
        except ValueError:
            raise AssayError(
                Code.INVALID_THRESHOLD,
                f"expected METRIC=NUMBER, got {metric_id}={value}",
                "--threshold",
            ) from None
        if not 0 <= thresholds[metric_id] <= 1:  # also NaN; 80 meant as a percentage
            raise AssayError(
                Code.INVALID_THRESHOLD,
                f"a threshold is a number in [0, 1], got {metric_id}={value}",
                "--threshold",
            )
    return thresholds


def _progress_display(enabled: bool) -> Callable[[int, int], None] | None:
    """``n/total``, rate and ETA on standard error, or ``None`` when not ``enabled``."""
    return ProgressLine(sys.stderr) if enabled else None


def _options(
    config: dict[str, Any], cli: dict[str, Any], registry: Any
) -> tuple[list[str] | None, dict[str, Any]]:
    metrics = config.pop("metrics", None)
    judge_spec = config.pop("judge", None)
    if cli["metrics"]:
        # --metrics a,b, --metrics a --metrics b (the last one alone used to win, silently),
        # or --metrics "a b": an id holds no comma or space
        metrics = [m for given in cli["metrics"] for m in given.replace(",", " ").split()]
    if metrics is not None and not metrics:  # a run of no metric would decide nothing
        raise AssayError(
            Code.INVALID_OPTION,
            "no metric id given: name at least one, or leave the metrics out for the default "
            f"list ({', '.join(DEFAULT_METRICS)})",
            "--metrics" if cli["metrics"] else "metrics",
        )
    if cli["judge"]:
        judge_spec = cli["judge"]
        if cli["judge_model"]:
            judge_spec = {"type": cli["judge"], "model": cli["judge_model"]}
    options = dict(config)
    if cli["profile"]:
        options["profile"] = cli["profile"]
    if cli["mode"]:
        options["mode"] = cli["mode"]
    if cli["threshold"]:
        options["thresholds"] = {**options.get("thresholds", {}), **cli["threshold"]}
    for key in ("composite_threshold", "regression_threshold", "repeats", "judge_cache"):
        if cli[key] is not None:
            if key.endswith("threshold") and not 0 <= cli[key] <= 1:  # also NaN
                raise AssayError(
                    Code.INVALID_THRESHOLD if key == "composite_threshold" else Code.INVALID_OPTION,
                    f"must be a number in [0, 1], got {cli[key]:g}",
                    "--" + key.replace("_", "-"),
                )
            options[key] = cli[key]
    if cli["timestamp"] is not None:
        options["timestamp"] = check_timestamp(cli["timestamp"], "--timestamp")
    options["judge"] = judge_from_config(judge_spec, registry)
    return metrics, options


def _config_map(config: dict[str, Any], path: str | None) -> dict[str, str]:
    """The config's ``columnMap`` (sample field -> column); ``--map`` wins field by field."""
    value = config.pop("columnMap", config.pop("column_map", None)) or {}
    if not isinstance(value, dict):
        raise AssayError(
            Code.INVALID_OPTION, "columnMap maps sample fields to column names", f"{path}.columnMap"
        )
    return value


def _gate(config: dict[str, Any], cli: dict[str, Any]) -> Gate:
    """The gate from ``config["gate"]`` with the command-line flags taking precedence."""
    settings = dict(config.pop("gate", None) or {})
    for key in ("min_pass_rate", "max_undetermined_rate", "max_error_rate"):
        if cli[key] is not None:
            if not 0 <= cli[key] <= 1:  # also NaN; 90 meant as a percentage
                raise AssayError(
                    Code.INVALID_OPTION,
                    f"a share is a number in [0, 1] (0.9 for 90%), got {cli[key]:g}",
                    "--" + key.replace("_", "-"),
                )
            settings[key] = cli[key]
    if cli["gate"]:
        settings["fail_on"] = cli["gate"]
    return Gate.from_mapping(settings)


@click.command("eval")
@click.argument("data")  # a folder is IO_ERROR from the reader, not a click usage error
@click.option(
    "--format",
    "input_format",
    type=click.Choice(FORMATS),
    help="Format of DATA (default: from the extension, else from the first bytes).",
)
@click.option(
    "--map",
    "column_map",
    multiple=True,
    metavar="FIELD=COLUMN",
    help="Read a sample field (question, answer, contexts, ground_truth, id, metadata) from "
    "another column (repeatable).",
)
@click.option(
    "--contexts-separator",
    metavar="SEP",
    help="In a CSV, split a contexts cell that is not a JSON array on SEP.",
)
@click.option("--strict", is_flag=True, help="An unknown column is an error, not a warning.")
@click.option(
    "--plugin",
    "plugins",
    multiple=True,
    metavar="FILE.py",
    help=f"Import a Python file (or module) of your own @metric functions first (repeatable; "
    f"also {PLUGINS_ENV}=a.py{os.pathsep}b.py).",
)
@click.option(
    "--metrics",
    multiple=True,
    metavar="A,B",
    help=f"Comma-separated metric ids, or the option repeated (default: "
    f"{', '.join(DEFAULT_METRICS)}; see --profile).",
)
@click.option(
    "--profile",
    help="A named list of metrics instead of --metrics (default: claim_support; grounded: "
    "answer_support and claim_support; compatible: the seven metrics of rag-eval-node-ts 0.3).",
)
@click.option(
    "--config",
    "config_path",
    help="JSON evaluator config: metrics, thresholds, compositeWeights, mode, judge, ...",
)
@click.option("--mode", type=click.Choice(["heuristic", "llm", "hybrid"]))
@click.option(
    "--threshold",
    "thresholds",
    multiple=True,
    metavar="METRIC=VALUE",
    help="Pass threshold of one metric, in [0, 1] (repeatable).",
)
@click.option("--composite-threshold", type=float)
@click.option("--judge", help="Registered judge or judge factory (e.g. openai, anthropic).")
@click.option("--judge-model", help="Model for the judge factory.")
@click.option(
    "--judge-cache",
    type=click.Path(file_okay=False),
    help="Folder caching judge replies by hash of (judge, prompt).",
)
@click.option("--repeats", type=int, help="Ask the judge this many times per prompt.")
@click.option(
    "--baseline",
    help="A stored result (JSON) to detect regressions against.",
)
@click.option("--regression-threshold", type=float)
@click.option(
    "--min-pass-rate",
    type=float,
    help="Share of samples (and of each metric's scored samples) that must pass (default 1).",
)
@click.option(
    "--max-undetermined-rate",
    type=float,
    help="Largest share of samples a metric may leave undetermined (default: no limit).",
)
@click.option(
    "--max-error-rate",
    type=float,
    help="Largest share of metric results that may be errors (default 0: any error fails).",
)
@click.option(
    "--gate",
    type=click.Choice(FAIL_ON),
    help="What fails the run: all (default) or regression (only a regression vs --baseline).",
)
@click.option(
    "--save-baseline",
    type=OutputPath(),
    help="Write this run's aggregates as a baseline file (exit 0 once written).",
)
@click.option(
    "--output",
    type=OutputPath(),
    help="Every sample's result: FILE.csv or FILE.parquet (a table written at the end) or "
    "FILE.jsonl (streamed as samples finish; --resume continues it).",
)
@click.option("--resume", is_flag=True, help="With --output: skip samples already there.")
@click.option(
    "--timestamp",
    metavar="ISO",
    help="ISO-8601 date-time stamped on every result evaluated (e.g. 2024-05-01T12:00:00Z).",
)
@workers_option
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Evaluate on the dask.distributed cluster whose scheduler is at ADDRESS "
    "(tcp://10.0.0.5:8786); needs assay-evaluation[dask] here and on the workers.",
)
@click.option(
    "--progress",
    "show_progress",
    is_flag=True,
    help="Show n/total, rate and ETA on standard error, and the speed at the end (default: "
    "only on a terminal, and never with --json).",
)
@click.option(
    "--json", "as_json", is_flag=True, help="One JSON line per sample, then one aggregate line."
)
@click.option(
    "--html",
    "html_path",
    type=OutputPath(),
    help="Write a self-contained HTML report here.",
)
@click.pass_context
def eval_command(ctx: click.Context, /, data: str, **cli: Any) -> None:
    """Evaluate the samples in DATA: JSON Lines (the JSON input format compatible with
    rag-eval-node-ts 0.3), a JSON array, CSV or Parquet; - reads standard input. ragas column
    names (user_input, response, retrieved_contexts, reference) are recognised.

    Exit codes: 0 the gate passed (or --save-baseline wrote the baseline), 1 a threshold, pass
    rate, undetermined rate or regression failed, or a metric or judge errored; 2 bad input or
    configuration, or nothing could be scored.
    """
    load_plugins(cli.pop("plugins"))  # before the registry is read: they register metrics
    registry = default_registry()
    config = _read_config(cli["config_path"])
    cli["threshold"] = _parse_thresholds(cli.pop("thresholds"))
    gate = _gate(config, cli)
    cli["config_map"] = _config_map(config, cli["config_path"])
    metrics, options = _options(config, cli, registry)
    reading = _reading(cli)
    if cli["baseline"]:
        options["baseline_result"] = read_json_file(cli["baseline"])
    _preflight(metrics, options, registry, gate, cli["threshold"])
    table = _table_output(cli["output"], cli["resume"])
    if cli["output"] and not table:
        options.update(output=cli["output"], resume=cli["resume"])
    # the summary needs only the aggregates and counts; --json and tables need every result,
    # --html the scores and the worst samples
    options["keep_results"] = bool(cli["as_json"] or table)
    if cli["html_path"]:
        options["keep_worst"] = HTML_WORST
    workers: int = cli["workers"]  # workers_option: 0 in-process, N processes, auto one per CPU
    if cli["scheduler"] is not None:
        if workers:
            raise AssayError(
                Code.INVALID_OPTION,
                "--workers and --scheduler are two places to run: give one",
                "--scheduler",
            )
        options["scheduler"] = check_scheduler(cli["scheduler"], "--scheduler")
    options["workers"] = workers  # worker processes exit when this process is killed
    if workers or cli["scheduler"] is not None:
        # a chunk costs this process about as much as 60 samples' lines: larger chunks keep
        # its share under 5% of the workers' (docs/scaling.md); a config's chunkSize wins
        options.setdefault("chunk_size", options.pop("chunkSize", WORKER_CHUNK))
    shown = cli["show_progress"] or (sys.stderr.isatty() and not cli["as_json"])
    options["on_progress"] = _progress_display(shown)
    with warnings.catch_warnings():
        warnings.simplefilter("always", SampleFieldWarning)
        warnings.showwarning = _show_field_warning
        batch = evaluate_batch(data, metrics, options, registry=registry, **reading)
    if not batch.sample_count:
        raise _no_samples(data)
    if shown and batch.stats is not None:
        click.echo(batch.stats.describe(), err=True)
    if table:
        save_results(batch, table)
    verdict = gate.check(batch)
    word = None
    if cli["save_baseline"]:
        verdict = _save_baseline(batch, gate, verdict, cli["save_baseline"])
        word = "BASELINE SAVED" if verdict.passed else None
    _print(batch, verdict, cli["as_json"], word)
    if cli["html_path"]:
        from assay_evaluation._report_html import render_html

        with atomic_write(cli["html_path"]) as handle:
            name = "standard input" if data == "-" else Path(data).name
            handle.write(render_html(batch, title=f"assay eval {name}", verdict=verdict))
    ctx.exit(verdict.exit_code)


def _preflight(
    metrics: list[str] | None,
    options: dict[str, Any],
    registry: Any,
    gate: Gate,
    flag_thresholds: dict[str, float] | None = None,
) -> None:
    """Refuse, before any sample is read, what the options alone show cannot be judged: the
    regression gate without a baseline, a baseline that holds none of the metrics to evaluate,
    a ``--threshold`` for a metric this run does not evaluate (it would gate nothing), and what
    the plan itself refuses (an unknown metric, a judge missing for llm mode).

    :raises AssayError: ``INVALID_OPTION`` (``--gate``, ``--threshold``), ``INVALID_BASELINE``
        (``--baseline``), or the plan's codes.
    """
    baseline = options.get("baseline_result", options.get("baseline"))
    if gate.fail_on == "regression" and baseline is None:
        raise AssayError(
            Code.INVALID_OPTION,
            "the regression gate compares with a baseline: give --baseline FILE (a file "
            "written by --save-baseline)",
            "--gate",
        )
    plan = resolve_plan(metrics, parse_options(options), registry)
    evaluated = [step.metric_id for step in plan.steps]
    running = {snake_case(metric_id) for metric_id in evaluated}
    for metric_id in flag_thresholds or {}:
        if snake_case(metric_id) not in running:
            raise AssayError(
                Code.INVALID_OPTION,
                f"a threshold for {metric_id}, which this run does not evaluate (it evaluates "
                f"{', '.join(evaluated)}), would gate nothing: add it to --metrics "
                "(or choose a --profile that has it)",
                "--threshold",
            )
    if baseline is None:
        return
    held = {snake_case(key) for key in baseline_means(baseline)}
    if not held & running:
        raise AssayError(
            Code.INVALID_BASELINE,
            f"the baseline holds none of the metrics to evaluate ({', '.join(evaluated)}; it "
            f"holds {', '.join(sorted(held)) or 'none'}), so nothing would be compared: "
            "evaluate the baseline's metrics (--profile compatible for the seven of "
            "rag-eval-node-ts 0.3) or save a new baseline",
            "--baseline",
        )


def _table_output(path: str | None, resume: bool) -> str | None:
    """``path`` when ``--output`` names a table (``.csv``, ``.parquet``: written once, at the
    end); ``None`` for the results stream (``.jsonl``, ``.ndjson``).

    :raises AssayError: ``INVALID_OPTION`` for another extension (``results.json`` would hold
        JSON Lines, not the JSON array its name promises), or ``--resume`` with a table.
    """
    if not path:
        return None
    suffix = Path(path).suffix.lower()
    if suffix not in OUTPUT_FORMATS:
        raise AssayError(
            Code.INVALID_OPTION,
            f"cannot tell what to write to {path}: the file name must end in .jsonl or .ndjson "
            "(the results stream, one JSON object per line), .csv or .parquet",
            "--output",
        )
    if suffix not in (".csv", ".parquet"):
        return None
    if resume:
        raise AssayError(
            Code.INVALID_OPTION,
            "--resume continues a results stream: give --output a .jsonl file",
            "--resume",
        )
    return path


def _save_baseline(
    batch: BatchEvalResult, gate: Gate, verdict: GateVerdict, path: str
) -> GateVerdict:
    """Write ``batch``'s aggregates to ``path`` unless it holds too many errors (or nothing was
    scored). A baseline is a reference: thresholds and regressions do not stop it (they are
    kept as notes), and the run then exits 0."""
    errors = gate.check_errors(batch)
    if not errors.passed:
        return attrs.evolve(errors, reasons=(*errors.reasons, "the baseline was not written"))
    with atomic_write(path) as handle:
        json.dump(batch_to_wire(batch, with_results=False), handle, indent=2)
        handle.write("\n")
    note = f"baseline written to {path} (thresholds and regressions do not fail this run)"
    return GateVerdict(True, int(ExitCode.OK), (*verdict.reasons, note))


def _print(
    batch: BatchEvalResult, verdict: GateVerdict, as_json: bool, word: str | None = None
) -> None:
    if not as_json:
        click.echo(summary_text(batch, verdict, word))
        return
    for index, result in enumerate(batch.results):
        click.echo(json.dumps(sample_line(result, index), ensure_ascii=False))
    summary = batch_to_wire(batch, with_results=False)
    summary["gate"] = {
        "passed": verdict.passed,
        "exitCode": verdict.exit_code,
        "reasons": list(verdict.reasons),
    }
    click.echo(json.dumps({"aggregate": summary}, ensure_ascii=False))
