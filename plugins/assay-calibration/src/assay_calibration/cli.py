"""``assay calibrate FILE.jsonl``: score-band calibration report from labelled history.

Exit codes, from the one table of every ``assay`` command (:class:`assay.ExitCode`): 0 ``OK``
(report produced); 2 ``USAGE`` for bad input, configuration or usage (``error [CODE] path:
message`` on standard error, the path naming ``<file>:<line>`` for a bad record). ``-`` reads
HISTORY or the --config file from standard input (one of them at most).
"""

from __future__ import annotations

from typing import Any

import click

import assay
from assay.cli import atomic_write, echo_json, read_json_file

__all__ = ["calibrate_command"]

OPTION_NAMES = {
    "targetPrecisionForAnswer": "--target-precision",
    "targetRecallForAbstain": "--target-recall",
}
"""The option that sets a configuration field, named in its errors."""


def _config(
    config_file: str | None,
    positive_outcomes: tuple[str, ...],
    min_samples: float | None,
    target_precision: float | None,
    target_recall: float | None,
) -> dict[str, Any]:
    """The camelCase CalibrationConfig of the JSON input format: the file's keys, then the
    options over them."""
    config: dict[str, Any] = {}
    if config_file is not None:
        try:
            loaded = read_json_file(config_file)
        except (RecursionError, ValueError):  # deep nesting; a 4,300+ digit integer
            raise assay.AssayError(
                "MALFORMED_INPUT",
                "not usable JSON: nested too deeply or a huge number",
                config_file,
            ) from None
        if not isinstance(loaded, dict):
            raise assay.AssayError("INVALID_CONFIG", "must be a JSON object", config_file)
        config.update(loaded)
    overrides = {
        "positiveOutcomes": list(positive_outcomes) or None,
        "minSamplesPerBand": min_samples,
        "targetPrecisionForAnswer": target_precision,
        "targetRecallForAbstain": target_recall,
    }
    given = {key: value for key, value in overrides.items() if value is not None}
    config.update(given)
    from assay_calibration.score_bands import check_targets

    check_targets(config, {key: OPTION_NAMES[key] for key in given if key in OPTION_NAMES})
    return config


@click.command("calibrate")
@click.argument("history", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--config",
    "config_file",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="JSON file with a CalibrationConfig (bands, positiveOutcomes, ...).",
)
@click.option(
    "--positive-outcome",
    "positive_outcomes",
    multiple=True,
    help="An outcome counted as positive (repeatable; default correct, accepted).",
)
@click.option(
    "--min-samples-per-band",
    "min_samples",
    type=float,
    help="Warn when a band holds fewer records.",
)
@click.option(
    "--target-precision",
    type=float,
    help="Positive rate, from 0 to 1, a band needs to set answerAt (default 0.85).",
)
@click.option(
    "--target-recall",
    type=float,
    help="Share of negatives, from 0 to 1, abstainBelow must sit above (default: keep 40).",
)
@click.option(
    "--bins",
    default=10,
    show_default=True,
    type=int,
    help="Bins of the reliability table (total / 100 read as a probability).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False),
    help="Also write a self-contained HTML page (charts inline) to this path.",
)
def calibrate_command(
    history: str,
    config_file: str | None,
    positive_outcomes: tuple[str, ...],
    min_samples: float | None,
    target_precision: float | None,
    target_recall: float | None,
    bins: int,
    as_json: bool,
    html_path: str | None,
) -> None:
    """Calibrate score bands against labelled history in HISTORY (JSONL; - reads stdin).

    Each line is {"total": 0-100, "outcome": "correct|incorrect|accepted|rejected|escalated",
    "recommendedAction": "answer|review|abstain" (optional)}. Prints bands with positive rates,
    outcomes per recommended action, a recommended policy, and the totals read as probabilities
    (Brier score, expected calibration error). --json prints {"report", "scoreReliability",
    "config"}; --html writes a page with a band chart and a reliability diagram.
    Exit 0, or 2 on bad input or options.
    """
    if history == "-" and config_file == "-":
        raise assay.AssayError(
            "INVALID_CONFIG", "only one of HISTORY and --config can be read from stdin", "config"
        )
    from assay_calibration.history import run_calibration
    from assay_calibration.probability import reliability_table
    from assay_calibration.report_text import render_text

    config = _config(config_file, positive_outcomes, min_samples, target_precision, target_recall)
    run = run_calibration(history, config)
    reliability = reliability_table(run.probabilities, run.outcomes, bins=bins)
    if html_path is not None:
        from assay_calibration.report_html import render_html

        with atomic_write(html_path) as handle:
            handle.write(render_html(run.source, run.report, reliability))
    if as_json:
        echo_json(
            {
                "report": run.report.to_wire(),
                "scoreReliability": reliability.to_dict(),
                "config": run.report.config.to_wire(),
            }
        )
    else:
        click.echo(render_text(run.source, run.report, reliability), nl=False)
        if html_path is not None:
            click.echo(f"wrote {html_path}")
    for warning in run.warnings:
        click.echo(f"warning: {warning}", err=True)
