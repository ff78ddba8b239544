import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import assay
from assay.cli import AssayGroup
from assay_bridges.catalog import EvaluatorBridge
from assay_bridges.command import bridge_command


def _cli() -> click.Group:
    group = AssayGroup("assay")
    group.add_command(bridge_command)
    return group


def test_registers_the_four_bridges_through_the_entry_point():
    registry = assay.build_registry()
    ours = [r for r in registry.items("bridge") if r.provider.plugin == "bridges"]
    assert [r.name for r in ours] == ["ragas", "deepeval", "trulens", "custom-judge"]
    assert {r.provider.distribution for r in ours} == {"assay-bridges"}
    assert isinstance(registry.get("bridge", "bridges/trulens"), EvaluatorBridge)


def test_bridge_command_prints_signals_per_answer(deepeval_outputs, tmp_path):
    path = tmp_path / "results.json"
    path.write_text(json.dumps(deepeval_outputs["evaluate"]["test_results"]))
    run = CliRunner().invoke(
        _cli(), ["bridge", "deepeval", str(path), "--map", "Token Recall (assay)=faithfulnessScore"]
    )
    assert run.exit_code == 0, run.output
    printed = json.loads(run.output)
    assert [answer["sampleId"] for answer in printed] == [f"halueval_{i}" for i in range(5)]
    assert printed[2]["signals"] == {"faithfulnessScore": 0.0}


def test_bridge_command_merges_into_inputs(trulens_outputs, tmp_path):
    rows = tmp_path / "rows.json"
    rows.write_text(
        json.dumps([trulens_outputs["otel"]["get_records_and_feedback"]["row_for_sample1"]])
    )
    inputs = tmp_path / "inputs.json"
    inputs.write_text(json.dumps({"supportLevel": "high", "candidates": [], "hasConflict": False}))
    run = CliRunner().invoke(
        _cli(),
        [
            "bridge",
            "trulens",
            str(rows),
            "--map",
            "answer_in_context=faithfulnessScore",
            "--inputs",
            str(inputs),
        ],
    )
    assert run.exit_code == 0, run.output
    merged = json.loads(run.output)
    assert merged["inputs"]["faithfulnessScore"] == 2 / 3
    assert [w["path"] for w in merged["warnings"]] == ["token_overlap"]


def test_bridge_command_errors_exit_2(tmp_path):
    path = tmp_path / "two.json"
    path.write_text(json.dumps([{"faithfulnessScore": 0.2}, {"faithfulnessScore": 0.3}]))
    inputs = tmp_path / "inputs.json"
    inputs.write_text('{"candidates": []}')
    cases = [
        (["bridge", "custom-judge", str(path), "--inputs", str(inputs)], "INVALID_INPUT"),
        (
            ["bridge", "custom-judge", str(path), "--inputs", str(inputs), "--sample", "5"],
            "INVALID_INPUT",
        ),
        (["bridge", "ragas", str(path), "--map", "faithfulness"], "INVALID_CONFIG"),
        (["bridge", "nobody", str(path)], "UNKNOWN_NAME"),
        (["bridge", "ragas", str(tmp_path / "missing.json")], "IO_ERROR"),
        (["bridge", "custom-judge", "-", "--inputs", "-"], "INVALID_CONFIG"),
    ]
    for args, code in cases:
        run = CliRunner().invoke(_cli(), args)
        assert run.exit_code == assay.ExitCode.USAGE, (args, run.output)
        assert f"error [{code}]" in run.output


def test_a_dash_reads_standard_input(tmp_path):
    judge = '{"id": "q1", "faithfulnessScore": 0.8, "hasConflict": false}'
    run = CliRunner().invoke(_cli(), ["bridge", "custom-judge", "-", "--json"], input=judge)
    assert run.exit_code == assay.ExitCode.OK, run.output
    assert json.loads(run.output)[0]["signals"] == {"faithfulnessScore": 0.8, "hasConflict": False}
    judge_file = tmp_path / "judge.json"
    judge_file.write_text(judge)
    merged = CliRunner().invoke(
        _cli(),
        ["bridge", "custom-judge", str(judge_file), "--inputs", "-"],
        input='{"supportLevel": "high", "candidates": []}',
    )
    assert merged.exit_code == assay.ExitCode.OK, merged.output
    assert json.loads(merged.output)["inputs"]["faithfulnessScore"] == 0.8


def test_the_installed_assay_command_has_bridge(tmp_path):
    path = tmp_path / "judge.json"
    path.write_text('{"id": "q1", "faithfulnessScore": 0.8, "hasConflict": false}')
    assay_exe = Path(sys.executable).parent / "assay"
    run = subprocess.run(
        [str(assay_exe), "bridge", "custom-judge", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)[0]["signals"] == {"faithfulnessScore": 0.8, "hasConflict": False}


def test_path_reads_one_part_of_a_real_file_and_map_reads_its_columns(trulens_outputs, tmp_path):
    path = tmp_path / "trulens_outputs.json"
    path.write_text(json.dumps(trulens_outputs))
    part = ["--path", "otel.get_records_and_feedback.scores"]
    run = CliRunner().invoke(
        _cli(),
        ["bridge", "trulens", str(path), *part, "--map", "answer_in_context=faithfulnessScore"],
    )
    assert run.exit_code == 0, run.output
    printed = json.loads(run.output)
    assert [a["signals"].get("faithfulnessScore") for a in printed] == pytest.approx(
        [1, 2 / 3, 0, 0, 1]
    )
    assert all(a["warnings"] == [] for a in printed)
    run = CliRunner().invoke(_cli(), ["bridge", "trulens", str(path), "--path", "otel.nope"])
    assert run.exit_code == 2
    assert "error [INVALID_INPUT] --path: otel has no 'nope': its keys are" in run.output


def test_custom_judge_scores_out_of_range_are_dropped_with_a_warning():
    judge = json.dumps([{"faithfulnessScore": 1.9, "answerRelevanceScore": 0.7}])
    run = CliRunner().invoke(_cli(), ["bridge", "custom-judge", "-"], input=judge)
    assert run.exit_code == 0, run.output
    (answer,) = json.loads(run.output)
    assert answer["signals"] == {"answerRelevanceScore": 0.7}
    assert [(w["code"], w["path"]) for w in answer["warnings"]] == [
        ("evaluator-score-out-of-range", "faithfulnessScore")
    ]
