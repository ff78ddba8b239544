"""Every example in examples/calibration/ runs and prints what its header says."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from shared_data import needs_shared

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "calibration"
needs_halueval = needs_shared("data", "halueval_qa_dev.jsonl")


def run(*command: str) -> str:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def python(script: str, *args: str) -> str:
    return run(sys.executable, str(EXAMPLES / script), *args)


def test_make_history_reproduces_the_committed_file(tmp_path: Path) -> None:
    out = tmp_path / "history.jsonl"
    assert python("make_history.py", str(out)) == "wrote 400 records to history.jsonl\n"
    assert out.read_bytes() == (EXAMPLES / "history.jsonl").read_bytes()


def test_score_bands_example() -> None:
    lines = python("score_bands.py").splitlines()
    assert lines[0] == "[0, 40):  28 records,   0.0% positive, average total 28.2"
    assert len([line for line in lines if line.startswith("[")]) == 4
    assert 'recommended policy: {"answerAt": 85, "reviewAt": 65, "abstainBelow": 65}' in lines
    assert "warnings: low-calibration-sample-size" in lines
    assert lines[-1].startswith("as scoring config: ActionPolicyConfig(answer_at=85, review_at=65")


@needs_halueval
def test_support_overlap_example() -> None:
    lines = python("support_overlap.py").splitlines()
    assert lines[0] == "2000 predictions, 1000 positive"
    assert lines[1] == "Brier score 0.2667"
    assert lines[2] == "expected calibration error 0.3561"
    bins = lines[3:]
    assert len(bins) == 10
    assert bins[0] == "0.0-0.1:   82  predicted 0.000  observed 0.720"
    assert bins[-1].startswith("0.9-1.0: 1053") and bins[-1].endswith("observed 0.893")
    middle = [float(line.rsplit(" ", 1)[1]) for line in bins[1:9]]
    assert max(middle) < 0.01  # the middle bins are almost never right


@needs_halueval
def test_drift_stream_example() -> None:
    lines = python("drift_stream.py").splitlines()
    assert lines[0] == "stream: 1200 scores, mean before 0.950, mean after 0.646"
    assert lines[1] == "page_hinkley: 1 event(s)"
    first = json.loads(lines[2])
    assert (first["direction"], first["index"]) == ("decrease", 623)
    assert abs(first["meanBefore"] - 0.94) < 0.01
    assert lines[3] == "cusum: 1 event(s)"
    assert json.loads(lines[4])["index"] == 626
    assert lines[-1] == "update_many agrees with update: True"


def test_specification_scenario_example() -> None:
    lines = python("seed_scenario.py").splitlines()
    assert lines == [
        "live: total 100, action answer (Score 100 meets answerAt threshold (65).)",
        "bands: [0, 40) 0/1, [40, 65) 0/1, [65, 85) 1/2, [85, 101) 2/2",
        'recommended policy: {"answerAt": 85, "reviewAt": 40, "abstainBelow": 40}',
        "warnings: low-calibration-sample-size (bands)",
        "calibrated: total 100, action answer (Score 100 meets answerAt threshold (85).)",
    ]


def test_calibrate_cli_example(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    out = run("bash", str(EXAMPLES / "calibrate.sh"), str(page))
    lines = out.splitlines()
    assert lines[0] == "calibration of history.jsonl: 400 records, 231 positive (57.8%)"
    assert "recommended policy: answer at >= 85, review at >= 65, abstain below 65" in lines
    assert "totals read as probabilities (total/100): Brier 0.1826, ECE 0.1041 (10 bins)" in lines
    assert any("[low-calibration-sample-size]" in line for line in lines)
    assert lines[-1] == f"wrote {page}"
    html = page.read_text(encoding="utf-8")
    assert html.count("<svg") == 2 and "<script" not in html
