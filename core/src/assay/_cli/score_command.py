"""``assay score``: score answers from JSON and print their scorecards."""

from __future__ import annotations

import json
import sys
from collections import deque
from collections.abc import Iterator
from typing import IO, Any

import click

from assay._errors import AssayError, ErrorCode
from assay._scorecard.batch import score_many, split_request
from assay._scorecard.engine import create_scorer
from assay._scorecard.render import render_text
from assay._wire import from_json_safe, scorecard_to_json, to_json_safe
from assay.cli import EXIT_USAGE, read_json_file


def _dumps(value: Any) -> str:
    return json.dumps(to_json_safe(value), ensure_ascii=False, allow_nan=False)


@click.command("score")
@click.argument("file", type=click.Path(allow_dash=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the scorecard in the wire shape.")
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
    "--workers",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="With --jsonl: worker processes (0 = one per CPU).",
)
@click.pass_context
def score_command(
    ctx: click.Context,
    file: str,
    as_json: bool,
    jsonl: bool,
    config_file: str | None,
    workers: int,
) -> None:
    """Score RAG answers and print their confidence scorecards.

    FILE (or - for standard input) holds one JSON object {"inputs": ..., "config": ...} in the
    seed's camelCase wire shape (a bare inputs object is accepted too). With --jsonl, every line
    is such an object and every output line is its scorecard or
    {"error": {"code", "message", "path", "line"}}; memory stays constant.

    Exit codes: 0 scored; 2 bad input or configuration (with --jsonl: any line failed).
    Non-finite numbers are written as {"$float": "NaN"}.
    """
    default_config = from_json_safe(read_json_file(config_file)) if config_file else None
    if jsonl:
        _score_stream(ctx, file, default_config or {}, workers)
        return
    inputs, config = split_request(from_json_safe(read_json_file(file)), file)
    scorecard = create_scorer(default_config if config is None else config).compute(inputs)
    if as_json:
        click.echo(scorecard_to_json(scorecard, indent=2))
    else:
        click.echo(render_text(scorecard))


def _lines(handle: IO[str], line_numbers: deque[int]) -> Iterator[str]:
    """Non-blank lines; each one's number is appended to ``line_numbers`` as it is read."""
    for number, line in enumerate(handle, start=1):
        if line.strip():
            line_numbers.append(number)
            yield line


def _score_stream(ctx: click.Context, file: str, config: Any, workers: int) -> None:
    if file == "-":
        handle: IO[str] = sys.stdin
    else:
        try:
            handle = open(file, encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise AssayError(ErrorCode.IO_ERROR, f"cannot read {file}: {exc.strerror}") from exc
    failed = False
    line_numbers: deque[int] = deque()
    try:
        results = score_many(
            _lines(handle, line_numbers), config, workers=workers, as_json=True, keep_errors=True
        )
        for result in results:
            line = line_numbers.popleft()
            if isinstance(result, AssayError):
                failed = True
                message = result.message
                if result.code == ErrorCode.MALFORMED_INPUT and result.path is None:
                    message = f"line {line}: {message}"
                click.echo(
                    _dumps({"error": {**result.to_dict(), "message": message, "line": line}})
                )
            else:
                click.echo(result)
    finally:
        if handle is not sys.stdin:
            handle.close()
    ctx.exit(EXIT_USAGE if failed else 0)
