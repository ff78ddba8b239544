"""``assay score``: score answers from JSON and print their scorecards."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from assay import AssayError, ErrorCode
from assay.cli import EXIT_USAGE, read_json_file, workers_option
from assay.wire import from_json_safe
from assay_scorecard.answer_records import is_answer_record
from assay_scorecard.answers import score_answer_record
from assay_scorecard.engine import create_scorer
from assay_scorecard.jsonl import score_jsonl
from assay_scorecard.render import render_html, render_markdown, render_text
from assay_scorecard.requests import split_request
from assay_scorecard.types import Scorecard
from assay_scorecard.wire import scorecard_to_json

FORMATS = ("text", "markdown", "html", "json")
"""What ``assay score --format`` prints."""
_RENDERERS: dict[str, Callable[[Scorecard], str]] = {
    "text": render_text,
    "markdown": render_markdown,
    "html": render_html,
    "json": lambda scorecard: scorecard_to_json(scorecard, indent=2),
}


@click.command("score")
@click.argument("file", type=click.Path(allow_dash=True, dir_okay=False))
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
    type=click.Path(exists=True, dir_okay=False),
    help="A JSON config used for every input that carries none.",
)
@click.option(
    "--reader",
    metavar="NAME",
    help="The signal reader that derives the signals of answer records (default: the config's "
    "reader, else answer-support).",
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
    workers: int,
) -> None:
    """Score RAG answers and print their confidence scorecards.

    FILE (or - for standard input) holds one JSON object {"inputs": ..., "config": ...} in the
    camelCase JSON input format (a bare inputs object is accepted too), or an answer record
    {"question", "answer", "contexts", "signals"?, "config"?}: the signals are then derived from
    the answer's text by a signal reader, the preset is grounded-v1 unless the config names one,
    and the report lists the answer's unsupported claims (with --json: {"scorecard", "signals",
    "evidence"}). With --jsonl, every line is such an object and every output line is its
    result or {"error": {"code", "message", "path", "line"}}; memory stays constant.

    --format chooses what one scorecard is printed as: text (the default), markdown, html (a
    self-contained fragment, all text escaped) or json (the same as --json).

    Exit codes: 0 scored; 2 bad input or configuration (with --jsonl: any line failed).
    Non-finite numbers are written as {"$float": "NaN"}.
    """
    if as_json and output_format not in (None, "json"):
        raise click.UsageError(f"--json and --format {output_format} ask for different outputs")
    shown = "json" if as_json else output_format or "text"
    if jsonl and output_format not in (None, "json"):
        raise click.UsageError(f"--jsonl writes JSON lines; it takes no --format {output_format}")
    default_config = from_json_safe(read_json_file(config_file)) if config_file else None
    if jsonl:
        _score_stream(ctx, file, default_config or {}, workers, reader)
        return
    record = from_json_safe(read_json_file(file))
    if is_answer_record(record):
        result = score_answer_record(record, default_config, reader=reader)
        click.echo(
            result.to_json(indent=2) if shown == "json" else getattr(result, f"render_{shown}")()
        )
        return
    inputs, config = split_request(record, file)
    scorecard = create_scorer(default_config if config is None else config).compute(inputs)
    click.echo(_RENDERERS[shown](scorecard))


def _score_stream(
    ctx: click.Context, file: str, config: Any, workers: int, reader: str | None
) -> None:
    sink = sys.stdout.buffer
    if file == "-":
        summary = score_jsonl(sys.stdin.buffer, sink, config, workers=workers, reader=reader)
    else:
        try:
            handle = open(file, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise AssayError(ErrorCode.IO_ERROR, f"cannot read {file}: {exc.strerror}") from exc
        with handle:
            summary = score_jsonl(handle, sink, config, workers=workers, reader=reader)
    ctx.exit(EXIT_USAGE if summary.failed else 0)
