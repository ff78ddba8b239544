"""Every example of the route area runs and prints what its header says (examples/route/)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("assay_crag", reason="needs assay-crag installed (uv run --all-packages)")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "route"
ASSAY = Path(sys.executable).parent / "assay"


def _run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=120, check=False
    )


def _example(name: str) -> list[str]:
    done = _run(sys.executable, EXAMPLES / name)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_route_a_retrieval() -> None:
    lines = _example("route_a_retrieval.py")
    assert lines[0] == "overall                0.829"
    assert "composite mode: correct (confidence 0.829)" in lines
    assert '  action: {"type": "use_retrieved"}' in lines
    assert "paper mode: correct (confidence 0.833)" in lines
    assert "  document scores: 0.83, 0.50, 0.00" in lines
    assert sum(line.startswith("  kept strip") for line in lines) == 2
    assert "off-topic retrieval: incorrect (confidence 1.000)" in lines
    assert lines[-1] == "  search query: Eiffel Tower completed tall"


def test_corrective_actions() -> None:
    lines = _example("corrective_actions.py")
    assert lines[1:3] == [
        "  - What is the capital of Australia?",
        "  - When did it become the capital?",
    ]
    assert lines[4:6] == ["  - Who directed Jaws?", "  - Who composed its score?"]
    assert lines[7] == "  - Who wrote Romeo and Juliet?"
    assert (
        "reformulate: Who directed Jaws? Who composed its score? -> directed Jaws composed score"
        in lines
    )
    assert "refine: kept 2 of 4 strips" in lines
    assert lines[-2] == "  [doc 0, 0.75] Canberra is the capital city of Australia."


def test_ab_test() -> None:
    lines = _example("ab_test.py")
    assert lines[0] == "control: n=60 quality 0.6579 latency 39.8 ms"
    assert "quality improvement +3.62%, latency change +30.78%" in lines
    assert "significant at alpha 0.05 (wilcoxon, p 1.5e-08)" in lines
    assert "difference +0.0238, 95% CI [+0.0179, +0.0293], d_z 1.05" in lines
    assert sum(line.startswith("warning: the") and "12 results" in line for line in lines) == 2


def test_quality_alerts() -> None:
    lines = _example("quality_alerts.py")
    assert lines[1].startswith("  warning: Quality score degraded from baseline: mean 0.5842")
    records = [json.loads(line) for line in lines[3:]]
    assert [(r["type"], r["index"]) for r in records] == [("anomaly", 126), ("degradation", 138)]
    assert records[0]["details"]["detector"]["detector"] == "page_hinkley"


def test_cli_on_the_example_files() -> None:
    route = _run(ASSAY, "route", EXAMPLES / "retrieval.json", "--mode", "composite")
    assert (
        route.returncode == 0
        and "classification: correct (confidence 0.829, mode composite)" in route.stdout
    )
    paper = _run(ASSAY, "route", EXAMPLES / "retrieval.json", "--mode", "paper", "--json")
    assert json.loads(paper.stdout)["classification"] == "correct"
    decide = _run(ASSAY, "route", "decide", EXAMPLES / "retrieval.json", "--mode", "composite")
    assert decide.stdout == route.stdout
    ab = _run(ASSAY, "route", "ab", EXAMPLES / "ab_results.jsonl")
    assert ab.returncode == 0 and "significant at alpha 0.05 (wilcoxon, p 1.504e-08)" in ab.stdout
    alerts = _run(
        ASSAY,
        "route",
        "alerts",
        EXAMPLES / "quality_scores.jsonl",
        "--baseline",
        "0.78",
        "--window",
        "30",
    )
    assert alerts.returncode == 1 and "2 alert(s)" in alerts.stdout
    bad = _run(ASSAY, "route", EXAMPLES / "ab_results.jsonl")
    assert bad.returncode == 2 and bad.stderr.startswith("error [MALFORMED_INPUT]")
