"""Reading calibration history from a JSONL file, with errors that name the line.

One JSON object per line, ``{"total": 0-100, "outcome": "...", "recommendedAction"?: "..."}``;
blank lines are skipped. ``-`` as the path reads standard input (named ``<stdin>`` in errors). The analysis itself is
:func:`assay_calibration.score_bands.analyze_calibration`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

import assay
from assay_calibration.score_bands import (
    CalibrationConfig,
    CalibrationReport,
    analyze_calibration,
    outcome_case_mismatches,
)

__all__ = ["CalibrationRun", "read_history", "run_calibration"]

_SAMPLE_PATH = re.compile(r"^samples\[(\d+)\](?:\.(.*))?$")
STDIN_NAME = "<stdin>"


def _display_name(path: str | Path) -> str:
    return STDIN_NAME if str(path) == "-" else Path(path).name


def read_history(path: str | Path) -> tuple[list[Any], list[int]]:
    """The parsed records of a JSONL file (``-``: standard input) and the 1-based line number
    of each.

    :raises AssayError: ``IO_ERROR`` when the file cannot be read; ``MALFORMED_INPUT`` with path
        ``<file>:<line>`` when a line is not JSON.
    """
    name = _display_name(path)
    from assay.cli import read_text_input

    text = read_text_input(path)
    records: list[Any] = []
    lines: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise assay.AssayError(
                "MALFORMED_INPUT",
                f"not valid JSON: {exc.msg} at column {exc.colno}",
                f"{name}:{number}",
                {"line": number},
            ) from exc
        except (RecursionError, ValueError) as exc:  # deep nesting; a 4,300+ digit integer
            what = (
                "nested too deeply"
                if isinstance(exc, RecursionError)
                else "a number has too many digits"
            )
            raise assay.AssayError(
                "MALFORMED_INPUT", f"not usable JSON: {what}", f"{name}:{number}", {"line": number}
            ) from None
        lines.append(number)
    return records, lines


@attrs.frozen
class CalibrationRun:
    """What ``assay calibrate`` computed for one file.

    Attributes:
        source: the file name shown in reports.
        report: the score-band analysis.
        probabilities: each record's ``total / 100``, in file order.
        outcomes: each record's outcome as 1 (positive) or 0, in file order.
        warnings: what the user should know about the input, such as an outcome that differs
            from a known one only in case (``"Correct"``: counted as negative).
    """

    source: str
    report: CalibrationReport
    probabilities: tuple[float, ...]
    outcomes: tuple[int, ...]
    warnings: tuple[str, ...] = ()


def run_calibration(
    path: str | Path, config: CalibrationConfig | Mapping[str, Any] | None = None
) -> CalibrationRun:
    """Read ``path`` and analyse it; errors in a record name its line.

    :raises AssayError: as :func:`read_history`; ``INVALID_CONFIG`` for the config; the
        record errors of :func:`~assay_calibration.score_bands.analyze_calibration` with the path
        rewritten from ``samples[i].field`` to ``<file>:<line>.field`` (``<file>`` alone when the
        file holds no record).
    """
    name = _display_name(path)
    records, lines = read_history(path)
    try:
        report = analyze_calibration(records, config)
    except assay.AssayError as error:
        raise _located(error, name, lines) from None
    positives = set(report.config.positive_outcomes)
    seen = [record["outcome"] for record in records]
    mismatches = outcome_case_mismatches(seen, positives)
    return CalibrationRun(
        source=name,
        report=report,
        probabilities=tuple(record["total"] / 100 for record in records),
        outcomes=tuple(int(outcome in positives) for outcome in seen),
        warnings=tuple(
            f"outcome {given!r} ({seen.count(given)} record(s)) counts as negative: outcomes "
            f"are compared exactly; did you mean {wanted!r}?"
            for given, wanted in mismatches.items()
        ),
    )


def _located(error: assay.AssayError, name: str, lines: list[int]) -> assay.AssayError:
    if error.path == "samples":
        return assay.AssayError(error.code, "holds no records", name)
    match = _SAMPLE_PATH.match(error.path or "")
    if not match:
        return error
    line = lines[int(match.group(1))]
    field = f".{match.group(2)}" if match.group(2) else ""
    return assay.AssayError(error.code, error.message, f"{name}:{line}{field}", {"line": line})
