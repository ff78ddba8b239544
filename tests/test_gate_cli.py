"""The installed ``assay`` command end to end: gate decide -> sealed chain -> audit verify."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from assay import ExitCode

REPO_ROOT = Path(__file__).resolve().parents[1]
DATA = REPO_ROOT / "examples" / "gate" / "data"


def assay(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).parent / "assay"
    return subprocess.run(
        [str(script), *args], capture_output=True, text=True, timeout=120, input=stdin
    )


def test_decide_seals_decisions_and_verify_detects_tampering(tmp_path):
    chain = tmp_path / "chain.jsonl"
    decided = assay(
        "gate",
        "decide",
        str(DATA / "history.csv"),
        str(DATA / "outputs.json"),
        "--chain",
        str(chain),
        "--timestamp",
        "2026-01-01T00:00:00Z",
        "--json",
    )
    assert decided.returncode == ExitCode.GATE_FAIL == 30, decided.stderr  # output 2 fails
    actions = [d["action"] for d in json.loads(decided.stdout)["decisions"]]
    assert actions == ["pass", "escalate", "fail"]

    verified = assay("audit", "verify", str(chain))
    assert verified.returncode == ExitCode.OK
    assert verified.stdout.startswith("ok: 3 entries verified")

    lines = chain.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2].replace('"action":"fail"', '"action":"pass"')
    chain.write_text("\n".join(lines) + "\n", encoding="utf-8")
    broken = assay("audit", "verify", str(chain))
    assert broken.returncode == ExitCode.BROKEN_CHAIN == 20
    assert broken.stdout.startswith("broken: entry 2 fails (hash)")


def test_decide_exit_codes_follow_the_worst_decision(tmp_path):
    passing = tmp_path / "pass.json"
    passing.write_text(json.dumps([{"factuality": 0.95, "relevance": 0.9}]))
    assert (
        assay("gate", "decide", str(DATA / "history.csv"), str(passing)).returncode == ExitCode.OK
    )
    escalating = tmp_path / "escalate.json"
    escalating.write_text(json.dumps([{"factuality": 0.58, "relevance": 0.52}]))
    assert assay("gate", "decide", str(DATA / "history.csv"), str(escalating)).returncode == (
        ExitCode.GATE_ESCALATE
    )


def test_input_errors_exit_2_with_a_coded_message(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('[{"factuality": 1.7}]')
    result = assay("gate", "decide", str(DATA / "history.csv"), str(bad))
    assert result.returncode == ExitCode.USAGE
    assert result.stderr.strip().endswith(
        "error [INVALID_SCORE] [0].factuality: a score must be finite and in [0, 1], got 1.7"
    )


def test_calibrate_reports_fit_and_dependence():
    result = assay("gate", "calibrate", str(DATA / "history.csv"), "--json")
    assert result.returncode == ExitCode.OK
    data = json.loads(result.stdout)
    assert len(data["goodnessOfFit"]) == 4
    assert all(row["fit"]["adequate"] for row in data["goodnessOfFit"])
    assert data["dependence"]["low"]["independenceAssumptionSafe"] is True


def test_a_dash_reads_standard_input_json_or_csv():
    history = (DATA / "history.csv").read_text(encoding="utf-8")
    from_file = assay("gate", "calibrate", str(DATA / "history.csv"), "--json")
    from_stdin = assay("gate", "calibrate", "-", "--json", stdin=history)
    assert from_stdin.returncode == ExitCode.OK, from_stdin.stderr
    assert from_stdin.stdout == from_file.stdout

    outputs = (DATA / "outputs.json").read_text(encoding="utf-8")
    decided = assay("gate", "decide", str(DATA / "history.csv"), "-", "--json", stdin=outputs)
    assert decided.returncode == ExitCode.GATE_FAIL
    assert [d["action"] for d in json.loads(decided.stdout)["decisions"]] == [
        "pass",
        "escalate",
        "fail",
    ]
    both = assay("gate", "decide", "-", "-", stdin=outputs)
    assert both.returncode == ExitCode.USAGE
    assert "only one file can be read from standard input" in both.stderr


def test_a_history_without_labeled_rows_is_refused_by_decide_and_calibrate(tmp_path):
    header_only = tmp_path / "header.csv"
    header_only.write_text("factuality,relevance,label\n", encoding="utf-8")
    empty = tmp_path / "empty.json"
    empty.write_text("[]", encoding="utf-8")
    for history in (header_only, empty):
        for command in (("decide", str(history), str(DATA / "outputs.json")), ("calibrate",)):
            args = command if command[0] == "decide" else (*command, str(history))
            result = assay("gate", *args)
            assert result.returncode == ExitCode.USAGE, result.stdout
            assert result.stderr.startswith(f"error [INVALID_OBSERVATION] {history}: ")
            assert "no labeled row" in result.stderr


def test_a_hypothesis_without_labeled_rows_is_warned_about(tmp_path):
    rows = (DATA / "history.csv").read_text(encoding="utf-8").splitlines()
    only_high = tmp_path / "high.csv"
    only_high.write_text("\n".join(r for r in rows if not r.endswith(",low")) + "\n")
    result = assay("gate", "decide", str(only_high), str(DATA / "outputs.json"), "--compatible")
    assert result.returncode in (ExitCode.OK, ExitCode.GATE_FAIL, ExitCode.GATE_ESCALATE)
    assert f"warning: {only_high}: no output is labeled 'low'" in result.stderr
    full = assay("gate", "decide", str(DATA / "history.csv"), str(DATA / "outputs.json"))
    assert "warning" not in full.stderr


def test_file_and_option_errors_name_the_file_and_the_option(tmp_path):
    missing = str(tmp_path / "missing.csv")
    for args in (
        ("decide", missing, str(DATA / "outputs.json")),
        ("decide", str(DATA / "history.csv"), missing),
        ("calibrate", missing),
        ("bayes-factor", missing, str(DATA / "outputs.json")),
    ):
        result = assay("gate", *args)
        assert result.returncode == ExitCode.USAGE
        assert result.stderr.startswith(f"error [IO_ERROR] {missing}: cannot read file")
    history, outputs = str(DATA / "history.csv"), str(DATA / "outputs.json")
    for args, option in (
        (("decide", history, outputs, "--pass-above", "0.5"), "--pass-above"),
        (("decide", history, outputs, "--fail-below", "3"), "--fail-below"),
        (("calibrate", history, "--threshold", "2"), "--threshold"),
        (("calibrate", history, "--alpha", "1"), "--alpha"),
    ):
        result = assay("gate", *args)
        assert result.returncode == ExitCode.USAGE
        assert result.stderr.startswith(f"error [INVALID_CONFIG] {option}: "), result.stderr


def test_bayes_factor_refuses_an_unknown_model_field_and_says_which_way_it_leans(tmp_path):
    from assay_jeffreys import fit_gate, load_history, to_wire

    wire = [to_wire(m) for m in fit_gate(load_history(DATA / "history.csv")).models]
    good = tmp_path / "models.json"
    good.write_text(json.dumps(wire), encoding="utf-8")
    result = assay("gate", "bayes-factor", str(good), str(DATA / "outputs.json"))
    assert result.returncode == ExitCode.OK
    leanings = [line.split("\t")[3] for line in result.stdout.splitlines()]
    assert set(leanings) <= {"favors high quality", "favors low quality", "favors neither"}
    assert "favors neither" in leanings  # outputs.json holds a borderline output
    wire[0]["wieght"] = 1
    typo = tmp_path / "typo.json"
    typo.write_text(json.dumps(wire), encoding="utf-8")
    result = assay("gate", "bayes-factor", str(typo), str(DATA / "outputs.json"))
    assert result.returncode == ExitCode.USAGE
    assert result.stderr.startswith("error [INVALID_CONFIG] models[0]: unknown field(s) 'wieght'")
    assert "(did you mean 'weight'?)" in result.stderr
