"""assay gate decide / bayes-factor / calibrate: output and the gate's exit codes (assay.ExitCode)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from assay import ExitCode
from assay.cli import AssayGroup
from assay.testing import plugin_cli
from assay_audit import read_chain_file, verify_chain
from assay_jeffreys import plugin, to_wire


def _cli() -> AssayGroup:
    return plugin_cli(plugin)


def run(*args: str):
    return CliRunner().invoke(_cli(), list(args))


@pytest.fixture
def files(tmp_path, history, models, write_json):
    return {
        "history": write_json(tmp_path / "history.json", history),
        "passing": write_json(tmp_path / "pass.json", [{"factuality": 0.95, "relevance": 0.9}]),
        "mixed": write_json(
            tmp_path / "mixed.json",
            [{"factuality": 0.95, "relevance": 0.9}, {"factuality": 0.5, "relevance": 0.55}],
        ),
        "failing": write_json(
            tmp_path / "fail.json",
            [{"factuality": 0.5, "relevance": 0.55}, {"factuality": 0.05, "relevance": 0.1}],
        ),
        "models": write_json(tmp_path / "models.json", [to_wire(m) for m in models]),
        "tmp": tmp_path,
    }


def test_decide_exits_0_when_every_output_passes(files):
    result = run("gate", "decide", files["history"], files["passing"])
    assert result.exit_code == 0, result.output
    # 200 labeled outputs per hypothesis vouch for a Bayes factor of 200 / 3 at most
    assert result.output == "0\tpass\tBF=66.6667\tstrong-high\tbayes-factor\n"
    compatible = run("gate", "decide", files["history"], files["passing"], "--compatible")
    assert compatible.exit_code == 0
    assert compatible.output.split("\t")[3] == "decisive-high"


def test_decide_escalates_on_too_little_history(files, history, write_json):
    small = write_json(files["tmp"] / "small.json", history[:10])  # 5 high, 5 low
    result = run("gate", "decide", small, files["passing"])
    assert result.exit_code == ExitCode.GATE_ESCALATE
    assert result.output.split("\t")[1] == "escalate"
    assert result.output.rstrip("\n").endswith("\tinsufficient-history")
    data = json.loads(run("gate", "decide", small, files["passing"], "--json").output)
    assert "5 labeled high and 5 labeled low" in data["decisions"][0]["reason"]
    lowered = run("gate", "decide", small, files["passing"], "--min-history", "5")
    assert lowered.output.rstrip("\n").endswith("\tbayes-factor")
    assert run("gate", "decide", small, files["passing"], "--compatible").exit_code == 0


def test_decide_gate_options_are_checked(files):
    result = run("gate", "decide", files["history"], files["passing"], "--min-history", "-2")
    assert result.exit_code == ExitCode.USAGE
    assert "error [INVALID_CONFIG] --min-history: must be an integer >= 0, got -2" in result.output
    result = run("gate", "decide", files["history"], files["passing"], "--score-model", "gamma")
    assert result.exit_code == ExitCode.USAGE and "Invalid value for '--score-model'" in (
        result.output
    )
    for option, value in (("--score-model", "empirical"), ("--combination", "independent")):
        assert (
            run("gate", "decide", files["history"], files["passing"], option, value).exit_code == 0
        )


def test_decide_exits_40_on_an_escalation_and_30_on_a_fail(files):
    mixed = run("gate", "decide", files["history"], files["mixed"])
    assert mixed.exit_code == ExitCode.GATE_ESCALATE
    assert [line.split("\t")[1] for line in mixed.output.splitlines()] == ["pass", "escalate"]
    failing = run("gate", "decide", files["history"], files["failing"])
    assert failing.exit_code == ExitCode.GATE_FAIL
    assert [line.split("\t")[1] for line in failing.output.splitlines()] == ["escalate", "fail"]


def test_decide_thresholds_move_the_decision(files):
    lenient = run(
        "gate", "decide", files["history"], files["mixed"], "--pass-above", "1", "--fail-below", "1"
    )
    assert lenient.exit_code == ExitCode.GATE_FAIL  # BF of the second output is below 1: fail


def test_decide_json_and_sealed_chain(files):
    chain = files["tmp"] / "chain.jsonl"
    result = run(
        "gate",
        "decide",
        files["history"],
        files["mixed"],
        "--json",
        "--chain",
        str(chain),
        "--timestamp",
        "T0",
    )
    data = json.loads(result.output)
    assert data["counts"] == {"pass": 1, "fail": 0, "escalate": 1}
    assert [d["action"] for d in data["decisions"]] == ["pass", "escalate"]
    entries = read_chain_file(chain)
    assert verify_chain(entries).valid and data["chainHead"] == entries[-1].hash
    assert entries[1].payload["context"] == {"output": 1} and entries[1].timestamp == "T0"


def test_bayes_factor_command(files):
    result = run("gate", "bayes-factor", files["models"], files["failing"], "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert [d["favored"] for d in data] == ["inconclusive", "low"]
    text = run("gate", "bayes-factor", files["models"], files["passing"])
    assert "favors high" in text.output


def test_calibrate_command(files):
    result = run("gate", "calibrate", files["history"], "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert {(r["dimension"], r["hypothesis"]) for r in data["goodnessOfFit"]} == {
        ("factuality", "high"),
        ("factuality", "low"),
        ("relevance", "high"),
        ("relevance", "low"),
    }
    assert all(r["fit"]["adequate"] for r in data["goodnessOfFit"])
    assert data["goodnessOfFit"][0]["params"].keys() == {"a", "b"}
    assert data["dependence"]["high"]["independenceAssumptionSafe"] is True
    assert data["gate"]["sufficientHistory"] and data["gate"]["historyCounts"]["low"] == 200
    assert [d["family"] for d in data["gate"]["dimensions"]] == ["beta", "beta"]
    text = run("gate", "calibrate", files["history"])
    assert "factuality\thigh\tBeta(" in text.output and "independence safe" in text.output
    assert "gate factuality\tbeta\thigh KS=" in text.output and "direction ok" in text.output
    assert "gate history: 200 high, 200 low; needs 30 of each: enough" in text.output


def test_calibrate_names_a_wrong_way_dimension_and_too_little_history(files, write_json):
    flipped = [
        {"scores": {"good": 0.8 - 0.01 * i, "short": 0.1 + 0.01 * i}, "label": "high"}
        for i in range(10)
    ] + [
        {"scores": {"good": 0.2 + 0.01 * i, "short": 0.7 - 0.01 * i}, "label": "low"}
        for i in range(10)
    ]
    text = run("gate", "calibrate", write_json(files["tmp"] / "flip.json", flipped)).output
    assert "gate short\t" in text and "points the wrong way\texcluded: wrong-direction" in text
    assert "needs 30 of each: NOT ENOUGH" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pass-above", "0.5"], "error [INVALID_CONFIG] --pass-above: must be >= 1"),
        (["--fail-below", "2"], "error [INVALID_CONFIG] --fail-below: must be in (0, 1]"),
        (["--fail-below", "abc"], "Invalid value for '--fail-below'"),
    ],
)
def test_bad_flags_exit_2(files, args, message):
    result = run("gate", "decide", files["history"], files["passing"], *args)
    assert result.exit_code == ExitCode.USAGE
    assert message in result.output


def test_bad_files_exit_2(files, write_json):
    missing = str(files["tmp"] / "missing.json")
    result = run("gate", "decide", missing, files["passing"])
    assert result.exit_code == ExitCode.USAGE
    assert f"error [IO_ERROR] {missing}: cannot read file" in result.output
    result = run("gate", "bayes-factor", missing, files["passing"])
    assert f"error [IO_ERROR] {missing}: cannot read file" in result.output
    bad = write_json(files["tmp"] / "bad.json", [{"factuality": 7}])
    result = run("gate", "bayes-factor", files["models"], bad)
    assert (
        result.exit_code == ExitCode.USAGE
        and "error [INVALID_SCORE] [0].factuality:" in result.output
    )


def test_guard_flags_escalate_when_the_history_breaks_an_assumption(files, write_json):
    # A history whose two dimensions are copies of each other within each label.
    copies = [
        {"scores": {"factuality": x, "relevance": x}, "label": label}
        for label, base in (("high", 0.6), ("low", 0.1))
        for x in (base + 0.01 * i for i in range(30))
    ]
    history = write_json(files["tmp"] / "copies.json", copies)
    plain = run("gate", "decide", history, files["passing"], "--json")
    assert plain.exit_code == 0
    guarded = run("gate", "decide", history, files["passing"], "--json", "--require-independence")
    assert guarded.exit_code == ExitCode.GATE_ESCALATE
    decision = json.loads(guarded.output)["decisions"][0]
    assert decision["rationale"] == "assumption-violated"
    assert decision["assumptions"]["dependentPairs"] == ["factuality~relevance"]
    assert run("gate", "decide", files["history"], files["passing"], "--require-fit").exit_code == 0


def test_guard_help_says_which_models_and_dimensions_are_checked():
    text = " ".join(run("gate", "decide", "--help").output.split())
    assert "a Beta fit of the history" not in text
    assert "when a score model that decides fails its KS test" in text
    assert "two dimensions that add evidence correlate" in text
