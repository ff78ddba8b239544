"""Wrong numbers never pass silently: non-finite baselines and thresholds, edited resume files,
empty inputs and duplicated metric ids, through the API and ``assay eval``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import assay
from assay._cli.main import build_cli
from assay_evaluation import evaluate_batch

sys.path.insert(0, str(Path(__file__).parent))
from test_evaluation_toys import toy_samples

pytestmark = pytest.mark.usefixtures("toy_default_registry")


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "data.jsonl"
    path.write_text("\n".join(json.dumps(s) for s in toy_samples(6)) + "\n", encoding="utf-8")
    return path


def run(*args):
    result = CliRunner().invoke(build_cli(), ["eval", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def strict_json(text: str):
    def refuse(constant: str):
        raise AssertionError(f"non-JSON literal {constant} written")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("mean", ["NaN", "-Infinity", "Infinity"])
def test_a_non_finite_baseline_mean_is_refused(data, tmp_path, mean):
    baseline = tmp_path / "baseline.json"
    baseline.write_text('{"aggregates": {"word_count": {"mean": ' + mean + "}}}")
    code, out, err = run(data, "--baseline", baseline, "--json")
    assert code == 2 and out == ""
    assert err.startswith("error [INVALID_BASELINE] baselineResult.aggregates.word_count.mean:")
    with pytest.raises(assay.AssayError) as excinfo:
        evaluate_batch(
            toy_samples(2),
            ["word_count"],
            {"baseline": {"aggregates": {"word_count": {"mean": float(mean)}}}},
        )
    assert excinfo.value.code == "INVALID_BASELINE"


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_a_non_finite_regression_threshold_is_refused(data, tmp_path, value):
    baseline = tmp_path / "baseline.json"
    baseline.write_text('{"aggregates": {"word_count": {"mean": 0.5}}}')
    code, _, err = run(data, "--baseline", baseline, "--regression-threshold", value)
    assert code == 2
    # the flag is named, as for every flag of the command (it was options.regressionThreshold)
    assert err.startswith("error [INVALID_OPTION] --regression-threshold: must be a number in")


def test_json_and_saved_baselines_are_strict_json(data, tmp_path):
    saved = tmp_path / "saved.json"
    code, out, _ = run(data, "--json", "--save-baseline", saved)
    assert code in (0, 1)
    for line in out.splitlines():
        strict_json(line)
    strict_json(saved.read_text())


def test_an_empty_eval_file_is_a_usage_error(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    code, out, err = run(empty)
    assert code == 2 and out == ""
    assert err.startswith("error [MALFORMED_INPUT]")


def _stored(tmp_path: Path, data: Path) -> Path:
    output = tmp_path / "out.jsonl"
    code, _, err = run(data, "--metrics", "word_count", "--output", output)
    assert code in (0, 1), err
    return output


def _edit_first_score(output: Path, raw_score: str) -> None:
    lines = output.read_text().splitlines()
    first = json.loads(lines[0])
    first["result"]["metrics"]["word_count"]["score"] = "SCORE"
    lines[0] = json.dumps(first).replace('"SCORE"', raw_score)
    output.write_text("\n".join(lines) + "\n")


def test_a_resumed_score_out_of_range_is_refused(data, tmp_path):
    output = _stored(tmp_path, data)
    _edit_first_score(output, "1e308")
    code, _, err = run(data, "--metrics", "word_count", "--output", output, "--resume", "--json")
    assert code == 2
    assert err.startswith("error [INVALID_METRIC_RESULT] metrics.word_count.score:")


def test_a_resumed_nan_score_is_undetermined_not_in_the_aggregates(data, tmp_path):
    output = _stored(tmp_path, data)
    _edit_first_score(output, "NaN")
    code, out, _ = run(data, "--metrics", "word_count", "--output", output, "--resume", "--json")
    assert code in (0, 1)
    lines = [strict_json(line) for line in out.splitlines()]
    assert lines[0]["metrics"]["word_count"]["score"] is None
    aggregate = lines[-1]["aggregate"]["aggregates"]["word_count"]
    assert aggregate["count"] == 5 and aggregate["nullRate"] == pytest.approx(1 / 6)


def test_a_metric_requested_twice_gives_two_regression_records():
    baseline = {"aggregates": {"word_count": {"mean": 0.5}}}
    batch = evaluate_batch(toy_samples(3), ["word_count", "word_count"], {"baseline": baseline})
    assert [r.metric_id for r in batch.regressions] == ["word_count", "word_count"]
