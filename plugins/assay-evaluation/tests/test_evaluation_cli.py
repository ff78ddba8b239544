"""``assay eval``: summary table, --json lines, baselines, HTML report, exit codes 0 / 1 / 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import assay
from assay._cli.main import build_cli

sys.path.insert(0, str(Path(__file__).parent))
from test_evaluation_toys import toy_samples

pytestmark = pytest.mark.usefixtures("toy_default_registry")


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "data.jsonl"
    path.write_text("\n".join(json.dumps(s) for s in toy_samples(6)) + "\n\n", encoding="utf-8")
    return path


def run(*args, stdin=None):
    result = CliRunner().invoke(build_cli(), ["eval", *map(str, args)], input=stdin)
    return result.exit_code, result.stdout, result.stderr


LENIENT = (
    "--threshold",
    "word_count=0",
    "--threshold",
    "truth_overlap=0",
    "--threshold",
    "context_count=1",
    "--composite-threshold",
    "0",
)


def test_summary_table_and_exit_0_when_all_thresholds_are_met(data):
    code, out, err = run(data, *LENIENT)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == [
        "metric",
        "threshold",
        "mean",
        "median",
        "min",
        "max",
        "std",
        "pass",
        "undet",
        "error",
    ]
    assert lines[2].split()[:2] == ["word_count", ">=0"]
    assert [line.split()[0] for line in lines[2:6]] == [
        "word_count",
        "truth_overlap",
        "context_count",
        "composite",
    ]
    assert lines[-1] == "6 samples, 0 failed: PASSED"
    assert err == ""  # no progress bar when standard error is not a terminal


def test_exit_1_when_a_threshold_fails(data):
    code, out, _ = run(data)
    assert code == 1
    assert out.splitlines()[-1].endswith("FAILED")


def test_json_lines_per_sample_then_aggregate(data):
    code, out, _ = run(data, "--json", "--metrics", "word_count,truthOverlap")
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 7
    first = lines[0]
    assert set(first) == {"id", "metrics", "compositeScore", "passed"}
    assert first["id"] == "s0"
    assert set(first["metrics"]) == {"word_count", "truth_overlap"}
    assert set(first["metrics"]["word_count"]) == {
        "score",
        "passed",
        "status",
        "explanation",
        "signals",
    }
    assert first["metrics"]["truth_overlap"]["status"] == "undetermined"
    assert first["metrics"]["truth_overlap"]["score"] is None  # s0 has no ground truth
    aggregate = lines[-1]["aggregate"]
    assert set(aggregate["aggregates"]) == {"word_count", "truth_overlap"}
    assert aggregate["passed"] is False and code == 1


def test_baseline_round_trip_and_regression_exit_code(data, tmp_path):
    baseline = tmp_path / "baseline.json"
    code, _, _ = run(data, *LENIENT, "--save-baseline", baseline)
    assert code == 0
    stored = json.loads(baseline.read_text())
    assert "results" not in stored and "word_count" in stored["aggregates"]
    code, out, _ = run(data, *LENIENT, "--baseline", baseline)
    assert code == 0 and "regression word_count" in out
    stored["aggregates"]["word_count"]["mean"] += 0.2
    baseline.write_text(json.dumps(stored))
    code, out, _ = run(data, *LENIENT, "--baseline", baseline)
    assert code == 1
    assert any(
        line.startswith("regression word_count") and line.endswith("REGRESSED")
        for line in out.splitlines()
    )


def test_html_report_is_self_contained_and_escaped(data, tmp_path):
    hostile = {
        "id": "<b>x</b>",
        "question": "<script>alert(1)</script>",
        "answer": "a & b",
        "contexts": [],
    }
    with data.open("a") as handle:
        handle.write(json.dumps(hostile) + "\n")
    report = tmp_path / "report.html"
    code, _, _ = run(data, "--html", report)
    html = report.read_text(encoding="utf-8")
    assert code == 1
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "a &amp; b" in html
    assert html.count("<svg") == 3  # one distribution plot per metric
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "Worst samples" in html and "No baseline given." in html


def test_output_stream_and_resume_from_the_command_line(data, tmp_path):
    out = tmp_path / "results.jsonl"
    code, first, _ = run(data, *LENIENT, "--output", out)
    assert code == 0 and len(out.read_text().splitlines()) == 6
    code, again, _ = run(data, *LENIENT, "--output", out, "--resume")
    assert code == 0 and again == first


def test_worker_processes_give_the_same_table(data):
    _, serial, _ = run(data, *LENIENT)
    code, parallel, _ = run(data, *LENIENT, "--workers", "2")
    assert code == 0 and parallel == serial
    code, automatic, _ = run(data, *LENIENT, "--workers", "auto")
    assert code == 0 and automatic == serial


@pytest.mark.parametrize("value", ["-1", "many"])
def test_workers_outside_the_convention_is_a_usage_error(data, value):
    code, out, err = run(data, "--workers", value)
    assert code == assay.ExitCode.USAGE and out == ""
    assert "--workers" in err and "Traceback" not in err


def test_a_dash_reads_the_samples_from_standard_input(data):
    _, from_file, _ = run(data, *LENIENT, "--json")
    code, from_stdin, err = run("-", *LENIENT, "--json", stdin=data.read_bytes())
    assert code == assay.ExitCode.OK, err
    assert from_stdin == from_file


def test_exit_codes_are_the_shared_table(data):
    assert run(data, *LENIENT)[0] == assay.ExitCode.OK
    assert run(data)[0] == assay.ExitCode.FAILED
    assert run(data, "--metrics", "nope")[0] == assay.ExitCode.USAGE


def test_text_that_is_not_utf8_exits_2_with_a_coded_error(tmp_path):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes('{"question": "caf\u00e9", "answer": "a", "contexts": []}'.encode("latin-1"))
    code, _, err = run(path)
    assert code == 2 and err.startswith("error [MALFORMED_INPUT]"), err
    code, _, err = run("-", stdin=b"\xff\n")
    assert code == 2 and err.startswith("error [MALFORMED_INPUT] -: standard input is not UTF-8")


@pytest.mark.parametrize(
    ("args", "line", "expected"),
    [
        ((), '{"question": "q", "contexts": []}', "error [MISSING_ANSWER] line 8.answer:"),
        (
            (),
            '{"question": "q", "answer": "a", "contexts": [1]}',
            "error [INVALID_CONTEXTS] line 8.contexts[0]:",
        ),
        ((), "{not json", "error [MALFORMED_INPUT] line 8:"),
        (
            ("--threshold", "word_count=1.5"),
            None,
            "error [INVALID_THRESHOLD] --threshold: a threshold is a number in [0, 1], got "
            "word_count=1.5",
        ),
        # 90 meant as a percentage: the flag is named, not the option it becomes
        (
            ("--min-pass-rate", "90"),
            None,
            "error [INVALID_OPTION] --min-pass-rate: a share is a number in [0, 1] (0.9 for "
            "90%), got 90",
        ),
        (("--max-error-rate", "nan"), None, "error [INVALID_OPTION] --max-error-rate: "),
        (("--max-undetermined-rate", "-1"), None, "error [INVALID_OPTION] --max-undetermined-"),
        (
            ("--composite-threshold", "60"),
            None,
            "error [INVALID_THRESHOLD] --composite-threshold: must be a number in [0, 1], got 60",
        ),
        (("--regression-threshold", "5"), None, "error [INVALID_OPTION] --regression-threshold:"),
        (("--threshold", "word_count"), None, "error [INVALID_THRESHOLD] --threshold:"),
        (("--metrics", "nope"), None, "error [UNKNOWN_METRIC] metrics[0]:"),
        (("--mode", "llm"), None, "error [JUDGE_MISCONFIGURED] options.judge:"),
        (("--judge", "nobody"), None, "error [JUDGE_MISCONFIGURED] judge:"),
    ],
)
def test_bad_input_exits_2_with_a_coded_error(data, args, line, expected):
    if line is not None:
        with data.open("a") as handle:
            handle.write(line + "\n")
    code, out, err = run(data, *args)
    assert out == ""
    assert code == 2
    assert err.startswith(expected), err
    assert "Traceback" not in err


def test_a_line_nested_too_deep_exits_2_naming_the_line(data, tmp_path):
    with data.open("a") as handle:  # after 6 good lines and a blank one
        handle.write("[" * 10_000 + "]" * 10_000 + "\n")
    code, out, err = run(data)
    assert (code, out) == (2, "")
    assert err.startswith("error [MALFORMED_INPUT] line 8: JSON nests too deep"), err
    assert "Traceback" not in err
    whole = tmp_path / "deep.json"
    whole.write_text('{"a": ' * 100_000 + "1" + "}" * 100_000)
    code, _, err = run(whole)
    assert code == 2 and err.startswith("error [MALFORMED_INPUT] line 1:"), err


def test_an_integer_too_long_to_read_exits_2_naming_the_line(data):
    with data.open("a") as handle:
        handle.write('{"question": "q", "answer": "a", "contexts": [], "n": ' + "7" * 5000 + "}\n")
    code, out, err = run(data)
    assert (code, out) == (2, "")
    assert err.startswith("error [MALFORMED_INPUT] line 8: holds an integer too long"), err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("text", "kind"), [('"x"', "a string"), ("3", "a number"), ("null", "null")]
)
def test_config_file_that_is_not_an_object_exits_2(data, tmp_path, text, kind):
    config = tmp_path / "eval.json"
    config.write_text(text)
    code, out, err = run(data, "--config", config)
    assert (code, out) == (2, "")
    assert err.startswith(
        f"error [INVALID_OPTION] {config}: the config must be a JSON object, got {kind}"
    ), err
    assert "Traceback" not in err


def test_missing_file_exits_2(tmp_path):
    code, _, err = run(tmp_path / "absent.jsonl")
    assert code == 2 and err.startswith("error [IO_ERROR]")


def test_config_file_sets_metrics_thresholds_and_weights(data, tmp_path):
    config = tmp_path / "eval.json"
    config.write_text(
        json.dumps(
            {
                "metrics": ["word_count", "contextCount"],
                "thresholds": {"word_count": 0, "context_count": 1},
                "compositeWeights": {"word_count": 2},
                "compositeThreshold": 0.1,
            }
        )
    )
    code, out, err = run(data, "--config", config, "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0, err
    assert set(lines[0]["metrics"]) == {"word_count", "context_count"}
    code, _, _ = run(data, "--config", config, "--threshold", "word_count=0.9")
    assert code == 1  # the command line wins over the file


def test_config_file_with_an_unknown_judge_type_exits_2(data, tmp_path):
    config = tmp_path / "eval.json"
    config.write_text(json.dumps({"mode": "llm", "judge": {"type": "nobody", "model": "m"}}))
    code, _, err = run(data, "--config", config)
    assert code == 2 and err.startswith("error [JUDGE_MISCONFIGURED] judge: no judge or judge")


def test_resume_with_new_thresholds_rejudges_without_recomputing(data, tmp_path):
    out = tmp_path / "results.jsonl"
    code, _, _ = run(data, *LENIENT, "--output", out)
    before = out.read_text()
    assert code == 0
    code, text, _ = run(
        data, *LENIENT[:-2], "--composite-threshold", "0.99", "--output", out, "--resume"
    )
    assert code == 1 and text.splitlines()[-1] == "6 samples, 6 failed: FAILED"
    assert out.read_text() == before  # nothing was evaluated again


@pytest.mark.parametrize("option", ["--output", "--html", "--save-baseline"])
@pytest.mark.parametrize("name", ["r.csv", "r.jsonl", "deeper/r.parquet"])
def test_an_output_under_a_file_is_refused_before_evaluating(data, option, name):
    # exit 1 would read as "the gate failed"; nothing is evaluated or printed first
    target = f"{data}/{name}"
    code, out, err = run(data, option, target)
    assert code == assay.ExitCode.USAGE
    assert out == ""
    assert err == (
        f"error [IO_ERROR] {option}: cannot write {target}: {data} is a file, not a folder\n"
    )


def test_an_output_that_is_a_folder_is_an_io_error(data, tmp_path):
    code, out, err = run(data, "--output", tmp_path)
    assert (code, out) == (assay.ExitCode.USAGE, "")
    assert err == f"error [IO_ERROR] --output: cannot write {tmp_path}: it is a folder\n"


@pytest.mark.parametrize("option", ["DATA", "--config", "--baseline"])
def test_a_folder_to_read_is_an_io_error_line_not_a_usage_screen(data, tmp_path, option):
    # click's "Usage: ... Error: Invalid value" screen broke the one-line error convention
    args = [tmp_path] if option == "DATA" else [data, option, tmp_path]
    code, out, err = run(*args)
    assert (code, out) == (assay.ExitCode.USAGE, "")
    assert err.startswith(f"error [IO_ERROR] {tmp_path}: cannot read the file")
    assert "Usage:" not in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("name", ["results.json", "results.txt", "results"])
def test_an_output_name_without_a_known_extension_is_refused_before_evaluating(
    data, tmp_path, name
):
    # results.json used to be written as JSON Lines, which json.load cannot read back
    target = tmp_path / name
    code, out, err = run(data, "--output", target)
    assert (code, out) == (assay.ExitCode.USAGE, "")
    assert err.startswith(f"error [INVALID_OPTION] --output: cannot tell what to write to {target}")
    assert ".jsonl or .ndjson" in err and not target.exists()


@pytest.mark.parametrize("name", ["results.ndjson", "results.JSONL"])
def test_the_results_stream_takes_either_json_lines_extension(data, tmp_path, name):
    target = tmp_path / name
    code, _, err = run(data, *LENIENT, "--output", target)
    assert code == 0, err
    assert [json.loads(line)["key"] for line in target.read_text().splitlines()] == [
        f"s{i}" for i in range(6)
    ]


def test_a_results_stream_that_cannot_be_opened_is_an_io_error(data, tmp_path):
    from assay_evaluation._stream import ResultStream

    with pytest.raises(assay.AssayError) as caught:
        ResultStream(data / "r.jsonl", append=False)
    assert (caught.value.code, caught.value.path) == ("IO_ERROR", str(data / "r.jsonl"))


def test_a_run_of_one_sample_says_one_sample(tmp_path):
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(toy_samples(1)[0]) + "\n", encoding="utf-8")
    code, out, _ = run(path, *LENIENT)
    assert code == 0 and out.splitlines()[-1] == "1 sample, 0 failed: PASSED"


def test_a_threshold_flag_for_a_metric_not_evaluated_is_refused_before_reading(tmp_path):
    # --threshold truth_overlap=0.9 with --metrics word_count gated nothing, silently: the CI
    # job believed it watched truth_overlap
    missing = tmp_path / "never-read.jsonl"
    code, out, err = run(missing, "--metrics", "word_count", "--threshold", "truth_overlap=0.9")
    assert (code, out) == (assay.ExitCode.USAGE, "")
    assert err == (
        "error [INVALID_OPTION] --threshold: a threshold for truth_overlap, which this run does "
        "not evaluate (it evaluates word_count), would gate nothing: add it to --metrics (or "
        "choose a --profile that has it)\n"
    )


def test_a_threshold_in_the_config_for_a_metric_not_evaluated_is_still_allowed(data, tmp_path):
    # a shared config may hold thresholds for more metrics than one run evaluates
    config = tmp_path / "eval.json"
    config.write_text(json.dumps({"thresholds": {"truth_overlap": 0.9, "word_count": 0}}))
    code, _, err = run(
        data, "--metrics", "word_count", "--config", config, "--composite-threshold", "0"
    )
    assert code == 0, err


@pytest.mark.parametrize(
    ("config", "key", "hint"),
    [
        ({"metric": ["word_count"]}, "metric", " (did you mean 'metrics'?)"),
        ({"column_mapping": {"question": "q"}}, "column_mapping", ""),
        ({"executor": "threads"}, "executor", ""),  # a Python object, not a config setting
    ],
)
def test_a_config_key_that_no_config_sets_is_named_with_the_keys_it_can(
    data, tmp_path, config, key, hint
):
    # "metric" used to be refused as options.metric with "did you mean 'metric_modes'?" and a
    # list of Python-only options (clock, executor, on_progress) in place of the config's keys
    path = tmp_path / "eval.json"
    path.write_text(json.dumps(config))
    code, out, err = run(data, "--config", path)
    assert (code, out) == (assay.ExitCode.USAGE, "")
    assert err.startswith(f"error [INVALID_OPTION] {key}: {path} has an unknown key {key!r}{hint}")
    assert "(a config sets: metrics, judge, gate, columnMap, mode, thresholds," in err
    assert "clock" not in err and "onProgress" not in err


def test_a_config_takes_its_keys_in_either_case(data, tmp_path):
    path = tmp_path / "eval.json"
    path.write_text(
        json.dumps(
            {
                "metrics": ["word_count"],
                "thresholds": {"word_count": 0},
                "composite_threshold": 0,
                "regressionThreshold": 0.1,
                "column_map": {"id": "id"},
            }
        )
    )
    code, _, err = run(data, "--config", path)
    assert code == 0, err


@pytest.mark.parametrize(
    "flags",
    [
        ("--metrics", "word_count,truth_overlap"),
        ("--metrics", "word_count", "--metrics", "truth_overlap"),  # the last alone used to win
        ("--metrics", "word_count truth_overlap"),
    ],
)
def test_metrics_comma_separated_repeated_or_spaced_give_the_same_run(data, flags):
    code, out, err = run(data, *flags)
    assert code in (0, 1), err
    rows = [line.split()[0] for line in out.splitlines()[2:4]]
    assert rows == ["word_count", "truth_overlap"]


@pytest.mark.parametrize("given", [("--metrics", ""), ("--metrics", " , ")])
def test_metrics_given_without_an_id_is_refused_before_reading(tmp_path, given):
    # an empty list ran no metric over every sample, then said "all 0 metric results are
    # undetermined or errors"
    code, out, err = run(tmp_path / "never-read.jsonl", *given)
    assert (code, out) == (assay.ExitCode.USAGE, "")
    assert err.startswith("error [INVALID_OPTION] --metrics: no metric id given: name at least")


def test_no_metric_installed_says_what_to_install_before_reading(monkeypatch, tmp_path):
    # assay-evaluation alone (or ASSAY_PLUGINS without faithfulness) ran no metric over every
    # sample, then said "all 0 metric results are undetermined or errors": NOT JUDGED
    from assay_evaluation import evaluate_batch

    monkeypatch.setenv("ASSAY_PLUGINS", "evaluation")
    assay.reset_default_registry()
    try:
        code, out, err = run(tmp_path / "never-read.jsonl")
    finally:
        monkeypatch.undo()
        assay.reset_default_registry()
    assert (code, out) == (assay.ExitCode.USAGE, "")
    assert err.startswith(
        "error [UNKNOWN_METRIC] metrics: no metric is registered, so the default list "
        "(claim_support) cannot run: install assay-faithfulness"
    )
    bare = assay.build_registry(env={"ASSAY_PLUGINS": "evaluation"})
    with pytest.raises(assay.AssayError) as caught:
        evaluate_batch([{"answer": "a", "contexts": []}], registry=bare)
    assert (caught.value.code, caught.value.path) == ("UNKNOWN_METRIC", "metrics")
