"""``assay score``: score answers from JSON and print their scorecards."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from assay import AssayError, ErrorCode
from assay.cli import EXIT_FAILED, EXIT_USAGE, format_error, read_json_file, workers_option
from assay.wire import from_json_safe
from assay_scorecard.answer_records import is_answer_record
from assay_scorecard.answers import score_answer_record, with_record_id
from assay_scorecard.engine import create_scorer
from assay_scorecard.jsonl import JsonlSummary, score_jsonl
from assay_scorecard.render import render_html, render_markdown, render_text
from assay_scorecard.requests import split_request
from assay_scorecard.types import Scorecard
from assay_scorecard.wire import scorecard_to_json

FAIL_ON = ("review", "abstain")
"""What ``--fail-on`` takes: the best action that fails the run (actions from best to worst:
answer, review, abstain)."""
_AT_OR_BELOW = {"review": ("review", "abstain"), "abstain": ("abstain",)}

FORMATS = ("text", "markdown", "html", "json")
"""What ``assay score --format`` prints."""
_RENDERERS: dict[str, Callable[[Scorecard], str]] = {
    "text": render_text,
    "markdown": render_markdown,
    "html": render_html,
    "json": lambda scorecard: scorecard_to_json(scorecard, indent=2),
}


@click.command("score")
# no exists= / dir_okay= checks: a file that cannot be read is IO_ERROR with the file as its path
# (docs/cli.md), as a missing FILE already is, not click's usage message
@click.argument("file", type=click.Path(allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print the scorecard in the wire shape.")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(FORMATS),
    default=None,
    help="What to print: text (the terminal report, the default), markdown, html (a fragment, "
    "all text escaped) or json (as --json).",
)
@click.option(
    "--jsonl",
    is_flag=True,
    help="Stream: one JSON object per input line, one scorecard (or error record) per output line.",
)
@click.option(
    "--config",
    "config_file",
    type=click.Path(),
    help="A JSON config used for every input that carries none.",
)
@click.option(
    "--reader",
    metavar="NAME",
    help="The signal reader that derives the signals of answer records (default: the config's "
    "reader, else answer-support).",
)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON),
    default=None,
    help="Exit 1 when any answer's recommended action is this or worse (review: review or "
    "abstain; abstain: abstain), so a CI step can gate on the decisions.",
)
@workers_option
@click.pass_context
def score_command(
    ctx: click.Context,
    file: str,
    as_json: bool,
    output_format: str | None,
    jsonl: bool,
    config_file: str | None,
    reader: str | None,
    fail_on: str | None,
    workers: int,
) -> None:
    """Score RAG answers and print their confidence scorecards.

    FILE (or - for standard input) holds one JSON object {"inputs": ..., "config": ...} in the
    camelCase JSON input format (a bare inputs object is accepted too), or an answer record
    {"question", "answer", "contexts", "signals"?, "config"?, "id"?}, also under ragas's or
    DeepEval's names (user_input, response, retrieved_contexts; input, actual_output,
    retrieval_context), whose other sample fields (metadata, groundTruth, reference,
    reference_contexts, ...) are accepted and not read: the signals are derived from
    the answer's text by a signal reader, the preset is grounded-v1 unless the config names one,
    and the report lists the answer's unsupported claims (with --json: {"id"?, "scorecard",
    "signals", "evidence"}, the record's id first when it has one). With --jsonl, every line is
    such an object and every output line is its result or {"error": {"code", "message", "path",
    "line"}}; memory stays constant.

    --format chooses what one scorecard is printed as: text (the default), markdown, html (a
    self-contained fragment, all text escaped) or json (the same as --json).

    Exit codes: 0 scored; 1 with --fail-on, an answer's action is at or below it; 2 bad input
    or configuration (with --jsonl: any line failed, and standard error says how many and why
    the first did). Non-finite numbers are written as {"$float": "NaN"}.
    """
    if as_json and output_format not in (None, "json"):
        raise click.UsageError(f"--json and --format {output_format} ask for different outputs")
    shown = "json" if as_json else output_format or "text"
    if jsonl and output_format not in (None, "json"):
        raise click.UsageError(f"--jsonl writes JSON lines; it takes no --format {output_format}")
    default_config = from_json_safe(read_json_file(config_file)) if config_file else None
    if jsonl:
        summary = _score_stream(file, default_config or {}, workers, reader, fail_on is not None)
        _exit_for(ctx, summary, fail_on)
        return
    record = from_json_safe(read_json_file(file))
    if isinstance(record, list):  # many records in one array: say how to score many
        raise AssayError(
            ErrorCode.MALFORMED_INPUT,
            f"{'standard input' if file == '-' else file} holds a JSON array "
            f"({len(record)} items); assay score reads one JSON object (an answer record or "
            '{"inputs", "config"}), and with --jsonl one object per line: write the array '
            "as JSON Lines (jq -c '.[]')",
        )
    if is_answer_record(record):
        result = score_answer_record(record, default_config, reader=reader)
        click.echo(
            with_record_id(record, result.to_json(indent=2))
            if shown == "json"
            else getattr(result, f"render_{shown}")()
        )
        scorecard = result.scorecard
    else:
        inputs, config = split_request(record, file)
        scorecard = create_scorer(default_config if config is None else config).compute(inputs)
        click.echo(_RENDERERS[shown](scorecard))
    _exit_for(ctx, JsonlSummary(1, 0, 0, actions={scorecard.recommended_action: 1}), fail_on)


def _exit_for(ctx: click.Context, summary: JsonlSummary, fail_on: str | None) -> None:
    """Exit 2 when a line failed (saying so on standard error), else 1 when ``fail_on`` is
    met (saying how often), else return."""
    if summary.first_error is not None:
        first = summary.first_error
        where = f"{first['path']}: " if first.get("path") else ""
        said = f"{where}{first['message']}"
        line = f"line {first['line']}: "
        said = said if said.startswith(line) else line + said  # bad JSON already says its line
        message = f"{summary.failed} of {summary.rows} lines failed; first: {said}"
        click.echo(format_error(AssayError(first["code"], message)), err=True)
        ctx.exit(EXIT_USAGE)
    if fail_on is None:
        return
    counts = {action: summary.actions.get(action, 0) for action in _AT_OR_BELOW[fail_on]}
    if any(counts.values()):
        found = ", ".join(f"{count} {action}" for action, count in counts.items() if count)
        click.echo(f"failed: {found} of {summary.rows} answers (--fail-on {fail_on})", err=True)
        ctx.exit(EXIT_FAILED)


def _score_stream(
    file: str, config: Any, workers: int, reader: str | None, count_actions: bool
) -> JsonlSummary:
    sink = sys.stdout.buffer
    options: dict[str, Any] = {"workers": workers, "reader": reader, "count_actions": count_actions}
    if file == "-":
        return score_jsonl(sys.stdin.buffer, sink, config, **options)
    try:
        handle = open(file, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise AssayError(
            ErrorCode.IO_ERROR, f"cannot read the file: {exc.strerror}", str(file)
        ) from exc
    with handle:
        return score_jsonl(handle, sink, config, **options)
