"""Every example in examples/evaluation/ runs and prints what its header says."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "evaluation"

pytest.importorskip("assay_faithfulness", reason="the examples use the assay-faithfulness metrics")


def run(*args: str, plugins: str) -> str:
    env = {**os.environ, "ASSAY_PLUGINS": plugins}
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_evaluate_dataset():
    out = run(str(EXAMPLES / "evaluate_dataset.py"), plugins="faithfulness").splitlines()
    assert out[:6] == [
        "rag-1: composite 0.741 fail; lowest answer_relevance 0.397",
        "rag-2: composite 0.209 fail; lowest context_recall 0.000",
        "rag-3: composite 0.386 fail; lowest context_relevance 0.000",
        "rag-4: composite 0.772 fail; lowest answer_relevance 0.412",
        "rag-5: composite 0.332 fail; lowest faithfulness 0.000",
        "rag-6: composite 0.491 fail; lowest context_recall 0.000",
    ]
    assert "context_recall       mean 0.600  pass 50%  null 17%" in out
    assert "answer_correctness   mean 0.473  pass 33%  null 17%" in out
    assert out[-3:] == [
        "passing at default thresholds: 0 of 6",
        "passing after replay at 0.2 / composite 0.4: 2 of 6",
        "regression: faithfulness 0.456 -> 0.356",
    ]


def test_judge_modes():
    pytest.importorskip("assay_judges", reason="the example uses the assay-judges plugin")
    out = run(str(EXAMPLES / "judge_modes.py"), plugins="faithfulness,judges").splitlines()
    assert out == [
        "heuristic faithfulness: 0.296",
        "llm faithfulness: 0.500 (1 of 2 claims are supported by the context.)",
        "  unsupported: The landing was broadcast from Mars.",
        "hybrid faithfulness: heuristic 0.296",
        "hybrid answer_relevance: llm 0.500",
        "first run: 3 judge calls; re-run: 0 calls, 3 cache hits",
        "repeats=3: mean 0.750, spread 0.300, run pass rate 0.667",
    ]


def test_scale_out():
    out = run(str(EXAMPLES / "scale_out.py"), plugins="faithfulness").splitlines()
    assert out == [
        "2 processes give the in-process results: True",
        "lines in the stream after the interruption: 3",
        "resumed run evaluated 3 samples and kept 3 from the stream",
        "aggregates equal the uninterrupted run: True",
    ]


def test_ci_gate_example_passes_with_its_checked_in_baseline():
    pytest.importorskip("assay_pytest", reason="the example uses the assay-pytest plugin")
    out = run(
        "-m",
        "pytest",
        str(EXAMPLES / "ci_gate"),
        "-q",
        "-p",
        "no:cacheprovider",
        plugins="faithfulness",
    )
    assert out.splitlines()[-1].startswith("2 passed")


def test_cli_report_script():
    env = {
        **os.environ,
        "ASSAY_PLUGINS": "evaluation,faithfulness",
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    done = subprocess.run(
        ["sh", str(EXAMPLES / "cli_report.sh")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr
    assert out[0].split()[:3] == ["metric", "threshold", "mean"]
    assert out[2].split()[:3] == ["faithfulness", ">=0.7", "0.356"]
    assert out[out.index("6 samples, 6 failed: FAILED") :] == [
        "6 samples, 6 failed: FAILED",
        "exit code 1",
        "exit code 0",
        "exit code 0",
        "regression faithfulness: 0.356 -> 0.356 (delta +0.000, allowed -0.05) ok",
        "report: 7 inline SVG plots",
    ]
