"""``assay calibrate``: text, JSON and HTML output, errors with line numbers, exit codes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import assay
from assay.cli import AssayGroup
from assay_calibration.cli import calibrate_command
from assay_calibration.score_bands import analyze_calibration

HISTORY = [
    {"total": 92, "recommendedAction": "answer", "outcome": "correct"},
    {"total": 88, "recommendedAction": "answer", "outcome": "correct"},
    {"total": 76, "recommendedAction": "review", "outcome": "incorrect"},
    {"total": 68, "recommendedAction": "review", "outcome": "correct"},
    {"total": 52, "recommendedAction": "review", "outcome": "incorrect"},
    {"total": 31, "recommendedAction": "abstain", "outcome": "incorrect"},
]


@click.group(cls=AssayGroup)
def root() -> None:
    """Stand-in for the assay root group (same error handling)."""


root.add_command(calibrate_command)


def write_jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(root, ["calibrate", *args], input=stdin)


def test_text_report(tmp_path: Path) -> None:
    result = run(str(write_jsonl(tmp_path / "h.jsonl", HISTORY)), "--target-recall", "0.6")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "calibration of h.jsonl: 6 records, 3 positive (50.0%)"
    assert "[85, 100]         2         2   100.0%       90.0" in lines
    assert "review            3    33.3%" in lines
    assert "recommended policy: answer at >= 85, review at >= 65, abstain below 65" in lines
    assert lines[-1] == "warnings: none"


def test_json_is_the_specification_report_plus_reliability(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "h.jsonl", HISTORY)
    result = run(str(path), "--json", "--min-samples-per-band", "2", "--bins", "5")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["report"] == analyze_calibration(HISTORY, {"minSamplesPerBand": 2}).to_wire()
    assert data["report"]["warnings"][0]["code"] == "low-calibration-sample-size"
    assert len(data["scoreReliability"]["bins"]) == 5
    assert data["config"]["minSamplesPerBand"] == 2


def test_config_file_then_options_override_it(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "h.jsonl", HISTORY)
    config = tmp_path / "c.json"
    config.write_text(
        json.dumps({"positiveOutcomes": ["incorrect"], "targetPrecisionForAnswer": 0.5})
    )
    result = run(str(path), "--json", "--config", str(config), "--positive-outcome", "correct")
    data = json.loads(result.output)
    assert data["config"]["positiveOutcomes"] == ["correct"]
    assert data["config"]["targetPrecisionForAnswer"] == 0.5


def test_html_page_is_self_contained_and_escaped(tmp_path: Path) -> None:
    rows = [*HISTORY, {"total": 60, "outcome": "<script>alert(1)</script>"}]
    path = write_jsonl(tmp_path / "a&b.jsonl", rows)
    page = tmp_path / "out" / "report.html"
    result = run(str(path), "--html", str(page), "--positive-outcome", "<b>ok</b>")
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    assert html.count("<svg") == 2 and "Reliability diagram" in html
    assert "<script" not in html and "<b>ok</b>" not in html
    assert "&lt;b&gt;ok&lt;/b&gt;" in html and "a&amp;b.jsonl" in html
    # no external assets: the only URL is the SVG namespace
    assert set(re.findall(r"https?://[^\"' ]+", html)) == {"http://www.w3.org/2000/svg"}
    assert not re.search(r"\b(src|href)=", html)
    assert f"wrote {page}" in result.output


def test_html_is_deterministic(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "h.jsonl", HISTORY)
    first, second = tmp_path / "1.html", tmp_path / "2.html"
    run(str(path), "--html", str(first))
    run(str(path), "--html", str(second))
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            '{"total": 50, "outcome": "correct"}\n\n{"total": 150, "outcome": "x"}\n',
            "error [INVALID_INPUT] h.jsonl:3.total: must be a finite number from 0 to 100",
        ),
        ('{"total": 50, "outcome": "correct"}\n{oops\n', "error [MALFORMED_INPUT] h.jsonl:2: "),
        ("[1, 2]\n", "error [MALFORMED_INPUT] h.jsonl:1: must be an object"),
        (
            '{"total": 50, "outcome": "correct", "recommendedAction": "escalate"}\n',
            "error [MALFORMED_INPUT] h.jsonl:1.recommendedAction: ",
        ),
        ("\n\n", "error [INVALID_INPUT] h.jsonl: holds no records"),
    ],
)
def test_bad_input_names_the_line_and_exits_2(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "h.jsonl"
    path.write_text(content, encoding="utf-8")
    result = run(str(path))
    assert result.exit_code == 2
    assert message in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bins", "0"], "error [INVALID_CONFIG] bins: "),
        (["--target-precision", "nan"], "error [INVALID_CONFIG] targetPrecisionForAnswer: "),
        (["--min-samples-per-band", "-1"], "error [INVALID_CONFIG] minSamplesPerBand: "),
    ],
)
def test_bad_options_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    result = run(str(write_jsonl(tmp_path / "h.jsonl", HISTORY)), *args)
    assert result.exit_code == 2 and message in result.output


def test_a_dash_reads_the_history_or_the_config_from_stdin(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "h.jsonl", HISTORY)
    text = path.read_text(encoding="utf-8")
    from_file = run(str(path), "--json")
    from_stdin = run("-", "--json", stdin=text)
    assert from_stdin.exit_code == assay.ExitCode.OK, from_stdin.output
    assert json.loads(from_stdin.output) == json.loads(from_file.output)
    assert run("-", stdin=text).output.startswith("calibration of <stdin>: 6 records")
    bad = run("-", stdin='{"total": 500, "outcome": "correct"}\n')
    assert bad.exit_code == assay.ExitCode.USAGE and "<stdin>:1.total" in bad.output
    config = run(str(path), "--json", "--config", "-", stdin='{"minSamplesPerBand": 2}')
    assert json.loads(config.output)["config"]["minSamplesPerBand"] == 2
    both = run("-", "--config", "-", stdin=text)
    assert both.exit_code == assay.ExitCode.USAGE and "only one of HISTORY" in both.output


def test_missing_file_is_an_io_error(tmp_path: Path) -> None:
    result = run(str(tmp_path / "absent.jsonl"))
    assert result.exit_code == 2 and "error [IO_ERROR]" in result.output


def test_failed_run_leaves_an_existing_page_untouched(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    page.write_text("previous", encoding="utf-8")
    path = tmp_path / "h.jsonl"
    path.write_text('{"total": 500, "outcome": "correct"}\n', encoding="utf-8")
    assert run(str(path), "--html", str(page)).exit_code == 2
    assert page.read_text(encoding="utf-8") == "previous"


def test_the_installed_assay_command_has_calibrate(tmp_path: Path) -> None:
    assay_exe = Path(sys.executable).parent / "assay"
    path = write_jsonl(tmp_path / "h.jsonl", HISTORY)
    done = subprocess.run(
        [str(assay_exe), "calibrate", str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["report"]["sampleCount"] == 6


def test_charts_are_well_formed_svg_with_points_where_the_data_says(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    from assay_calibration.probability import reliability_table
    from assay_calibration.svg_charts import PLOT_H, TOP, band_chart, reliability_diagram

    bands = analyze_calibration(HISTORY).bands
    chart = ET.fromstring(band_chart(bands, 0.85))
    ns = {"s": "http://www.w3.org/2000/svg"}
    bars = chart.findall("s:rect[s:title]", ns)  # data bars carry a tooltip; the legend does not
    heights = sorted(float(bar.get("height", "0")) for bar in bars)
    # non-empty bands with rates 0, 0, 0.5, 1 -> bar heights 0, 0, half and full plot height
    assert heights == [0, 0, PLOT_H / 2, PLOT_H]

    table = reliability_table([0.25, 0.25, 0.75, 0.75], [0, 1, 1, 1], bins=2)
    diagram = ET.fromstring(reliability_diagram(table.bins))
    points = diagram.findall("s:circle", ns)
    assert [round(float(p.get("cy", "0")), 1) for p in points] == [
        round(TOP + PLOT_H * 0.5, 1),
        round(TOP, 1),
    ]


EXAMPLE = Path(__file__).parents[3] / "examples" / "calibration" / "history.jsonl"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--target-precision", "2"), "--target-precision: must be a number from 0 to 1"),
        (("--target-precision", "-1"), "--target-precision: must be a number from 0 to 1"),
        (("--target-recall", "5"), "--target-recall: must be a number from 0 to 1"),
    ],
)
def test_impossible_targets_are_refused(args, message) -> None:
    result = run(str(EXAMPLE), *args)
    assert result.exit_code == 2
    assert result.output.startswith(f"error [INVALID_CONFIG] {message} (a share of records), got ")


def test_an_impossible_target_in_the_config_file_names_the_field(tmp_path: Path) -> None:
    config = tmp_path / "c.json"
    config.write_text('{"targetRecallForAbstain": 0.8, "targetPrecisionForAnswer": 2}')
    result = run(str(EXAMPLE), "--config", str(config))
    assert result.exit_code == 2
    assert result.output == (
        "error [INVALID_CONFIG] targetPrecisionForAnswer: must be a number from 0 to 1 "
        "(a share of records), got 2\n"
    )
    # the Python API stays compatible with transparent-confidence 0.3: above 1 is unreachable
    assert analyze_calibration(HISTORY, {"targetPrecisionForAnswer": 1.01}).recommended_policy


def test_an_outcome_of_the_wrong_case_is_warned_about(tmp_path: Path) -> None:
    rows = [*HISTORY, {"total": 50, "outcome": "Correct"}, {"total": 60, "outcome": "Correct"}]
    result = run(str(write_jsonl(tmp_path / "h.jsonl", rows)))
    assert result.exit_code == 0
    assert "8 records, 3 positive" in result.stdout
    assert result.stderr == (
        "warning: outcome 'Correct' (2 record(s)) counts as negative: outcomes are compared "
        "exactly; did you mean 'correct'?\n"
    )
    custom = run(str(write_jsonl(tmp_path / "h.jsonl", rows)), "--positive-outcome", "Correct")
    assert custom.stderr == ""
