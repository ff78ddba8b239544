"""The installed ``assay`` command end to end: gate decide -> sealed chain -> audit verify."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DATA = REPO_ROOT / "examples" / "gate" / "data"


def assay(*args: str) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).parent / "assay"
    return subprocess.run([str(script), *args], capture_output=True, text=True, timeout=120)


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
    assert decided.returncode == 30, decided.stderr  # output 2 fails
    actions = [d["action"] for d in json.loads(decided.stdout)["decisions"]]
    assert actions == ["pass", "escalate", "fail"]

    verified = assay("audit", "verify", str(chain))
    assert (verified.returncode, verified.stdout) == (0, "ok: 3 entries verified\n")

    lines = chain.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2].replace('"action":"fail"', '"action":"pass"')
    chain.write_text("\n".join(lines) + "\n", encoding="utf-8")
    broken = assay("audit", "verify", str(chain))
    assert broken.returncode == 20
    assert broken.stdout.startswith("broken: entry 2 fails (hash)")


def test_decide_exit_codes_follow_the_worst_decision(tmp_path):
    passing = tmp_path / "pass.json"
    passing.write_text(json.dumps([{"factuality": 0.95, "relevance": 0.9}]))
    assert assay("gate", "decide", str(DATA / "history.csv"), str(passing)).returncode == 0
    escalating = tmp_path / "escalate.json"
    escalating.write_text(json.dumps([{"factuality": 0.58, "relevance": 0.52}]))
    assert assay("gate", "decide", str(DATA / "history.csv"), str(escalating)).returncode == 40


def test_input_errors_exit_2_with_a_coded_message(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('[{"factuality": 1.7}]')
    result = assay("gate", "decide", str(DATA / "history.csv"), str(bad))
    assert result.returncode == 2
    assert result.stderr.strip().endswith(
        "error [INVALID_SCORE] [0].factuality: a score must be finite and in [0, 1], got 1.7"
    )


def test_calibrate_reports_fit_and_dependence():
    result = assay("gate", "calibrate", str(DATA / "history.csv"), "--json")
    assert result.returncode == 0
    data = json.loads(result.stdout)
    assert len(data["goodnessOfFit"]) == 4
    assert all(row["fit"]["adequate"] for row in data["goodnessOfFit"])
    assert data["dependence"]["low"]["independenceAssumptionSafe"] is True
