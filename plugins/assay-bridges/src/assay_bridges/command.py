"""``assay bridge``: an evaluator's output file into scoring signals (and merged inputs).

Exit codes, from the one table of every ``assay`` command (:class:`assay.ExitCode`): 0 ``OK``,
2 ``USAGE`` for bad input or options.
"""

from __future__ import annotations

import json
from typing import Any

import click

import assay
from assay.cli import echo_json, read_text_input
from assay_bridges.catalog import BRIDGE_KIND
from assay_bridges.extraction import SCORE_SIGNALS, describe_shape
from assay_bridges.merge import merge_evaluation_signals

__all__ = ["bridge_command", "parse_metric_maps", "select_part"]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def read_json_strict(path: str, *, allow_nan: bool = False) -> Any:
    """The JSON document of ``path`` (``-``: standard input); NaN and Infinity, which JSON does
    not have, are refused unless ``allow_nan`` (evaluator outputs write NaN for undetermined
    metrics; scoring inputs must not hold it).

    :raises AssayError: ``IO_ERROR`` when unreadable; ``MALFORMED_INPUT`` (path: the file) when
        not UTF-8, not JSON, nested too deeply, or holding an integer over 4,300 digits or NaN.
    """
    text = read_text_input(path)
    try:
        return json.loads(text, parse_constant=None if allow_nan else _reject_constant)
    except json.JSONDecodeError as exc:
        message = f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
    except RecursionError:
        message = "not usable JSON: nested too deeply"
    except ValueError as exc:
        message = (
            f"not valid JSON: {exc}"
            if "JSON number" in str(exc)
            else "not usable JSON: a number has too many digits"
        )
    raise assay.AssayError(assay.ErrorCode.MALFORMED_INPUT, message, path)


def parse_metric_maps(pairs: tuple[str, ...]) -> dict[str, str]:
    """``("answer_in_context=faithfulnessScore", ...)`` -> ``{"answer_in_context": "..."}``.

    :raises AssayError: ``INVALID_CONFIG`` (path ``--map``) for an item without ``=`` or with an
        unknown signal.
    """
    maps: dict[str, str] = {}
    for pair in pairs:
        metric, sep, signal = pair.rpartition("=")
        if not sep or not metric or signal not in SCORE_SIGNALS:
            raise assay.AssayError(
                assay.ErrorCode.INVALID_CONFIG,
                f"expected METRIC=SIGNAL with SIGNAL one of {', '.join(SCORE_SIGNALS)}, "
                f"got {pair!r}",
                "--map",
            )
        maps[metric] = signal
    return maps


def select_part(document: Any, dotted: str) -> Any:
    """The part of ``document`` at the dotted key path ``dotted`` (``evaluate.test_results``; a
    whole-number step indexes a list: ``rows.0``): what an error's "found under" hint names.

    :raises AssayError: ``INVALID_INPUT`` (path ``--path``) naming the first step that is not
        there and what is there instead.
    """
    part = document
    walked: list[str] = []
    for step in dotted.split("."):
        if isinstance(part, dict) and step in part:
            part = part[step]
        elif isinstance(part, list) and step.isdigit() and int(step) < len(part):
            part = part[int(step)]
        else:
            where = ".".join(walked) or "the file"
            there = (
                f"its keys are {', '.join(map(str, part))}"
                if isinstance(part, dict)
                else f"it is {describe_shape(part)}"
            )
            raise assay.AssayError(
                assay.ErrorCode.INVALID_INPUT,
                f"{where} has no {step!r}: {there}",
                "--path",
            )
        walked.append(step)
    return part


@click.command("bridge")
@click.argument("evaluator")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--map",
    "maps",
    multiple=True,
    metavar="METRIC=SIGNAL",
    help="Use an extra metric, e.g. answer_in_context=faithfulnessScore (0-1, higher is better).",
)
@click.option(
    "--path",
    "part",
    metavar="KEY.KEY",
    help="Read only this part of FILE, a dotted key path (a number indexes a list), "
    "e.g. evaluate.test_results.",
)
@click.option(
    "--inputs",
    "inputs_path",
    type=click.Path(dir_okay=False, allow_dash=True),
    metavar="INPUTS.json",
    help="Scoring inputs to fill (never overwritten; - for stdin); prints {inputs, warnings}.",
)
@click.option(
    "--sample",
    type=int,
    default=None,
    help="Which answer of the file to merge with --inputs (0-based); needed when there are several.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print JSON (the output is always JSON; accepted like every command's --json).",
)
def bridge_command(
    evaluator: str,
    file: str,
    maps: tuple[str, ...],
    part: str | None,
    inputs_path: str | None,
    sample: int | None,
    as_json: bool,
) -> None:
    """Read an EVALUATOR's output FILE (JSON; - for stdin) and print the scoring signals.

    EVALUATOR is a registered bridge: ragas, deepeval, trulens, custom-judge (see
    `assay plugins`). Prints a JSON list with one {sampleId, signals, sources, warnings} per
    answer, or with --inputs the merged {inputs, warnings}. Exit 0 on success, 2 on bad input.
    """
    if file == "-" and inputs_path == "-":
        raise assay.AssayError(
            assay.ErrorCode.INVALID_CONFIG,
            "only one of FILE and --inputs can be read from standard input",
            "--inputs",
        )
    bridge = assay.default_registry().get(BRIDGE_KIND, evaluator)
    metrics = parse_metric_maps(maps) if maps else None
    document = read_json_strict(file, allow_nan=True)
    if part is not None:
        document = select_part(document, part)
    results = bridge.extract(document, metrics=metrics)
    if inputs_path is None:
        echo_json([result.to_wire() for result in results])
        return
    if sample is None and len(results) != 1:
        raise assay.AssayError(
            assay.ErrorCode.INVALID_INPUT,
            f"the file holds {len(results)} answers; choose one with --sample",
            "--sample",
        )
    index = 0 if sample is None else sample
    if not 0 <= index < len(results):
        raise assay.AssayError(
            assay.ErrorCode.INVALID_INPUT,
            f"no answer {index}; the file holds {len(results)}",
            "--sample",
        )
    merged = merge_evaluation_signals(read_json_strict(inputs_path), results[index])
    echo_json(merged.to_wire())
