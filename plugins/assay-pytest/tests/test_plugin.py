"""The pytest plugin, exercised the way a team uses it: test files run by pytester."""

from __future__ import annotations

import json

import assay
import pytest

pytest_plugins = ["pytester"]

GOOD = {
    "id": "good",
    "question": "Who wrote Frankenstein?",
    "answer": "Mary Shelley wrote Frankenstein.",
    "contexts": ["Mary Shelley wrote Frankenstein."],
    "groundTruth": "Mary Shelley wrote Frankenstein.",
}
BAD = {
    "id": "bad",
    "question": "Who wrote Frankenstein?",
    "answer": "Bananas are rich in potassium.",
    "contexts": ["Mary Shelley wrote Frankenstein."],
}


@pytest.fixture(autouse=True)
def only_the_faithfulness_plugin(monkeypatch):
    monkeypatch.setenv("ASSAY_PLUGINS", "faithfulness")
    assay.reset_default_registry()
    yield
    assay.reset_default_registry()


@pytest.fixture
def data(pytester):
    path = pytester.path / "golden.jsonl"
    path.write_text(json.dumps(GOOD) + "\n" + json.dumps(BAD) + "\n", encoding="utf-8")
    return path


def test_the_plugin_is_loaded_by_its_entry_point(pytester):
    result = pytester.runpytest("--help")
    result.stdout.fnmatch_lines(["*--assay-update-baseline*"])
    pytester.makepyfile("def test_x(assay_gate): assert type(assay_gate).__name__ == 'EvalGate'")
    pytester.runpytest().assert_outcomes(passed=1)


def test_passing_gate(pytester, data):
    pytester.makepyfile(
        """
        def test_quality(assay_gate):
            batch = assay_gate.evaluate("golden.jsonl", ["faithfulness"])
            assay_gate.assert_passes(batch, thresholds={"faithfulness": 0.0},
                                     composite_threshold=0.0)
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)


def test_failing_gate_names_metric_threshold_and_worst_sample(pytester, data):
    pytester.makepyfile(
        """
        def test_quality(assay_gate):
            batch = assay_gate.evaluate("golden.jsonl", ["faithfulness", "answer_correctness"])
            assay_gate.assert_passes(batch, thresholds={"faithfulness": 0.5})
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*GateFailure: assay gate failed over 2 samples:*",
            "*faithfulness: 1 of 2 samples below threshold 0.5 (pass rate 50.0%, mean *)",
            "*bad: 0.000 — *",
            "*samples passing overall: 50.0% (required 100.0%)*",
        ]
    )
    # answer_correctness could not score "bad" (no ground truth): undetermined, not failing
    assert "answer_correctness: " not in result.stdout.str()


def test_min_pass_rate_tolerates_some_failures(pytester, data):
    pytester.makepyfile(
        """
        def test_quality(assay_gate):
            batch = assay_gate.evaluate("golden.jsonl", ["faithfulness"])
            assay_gate.assert_passes(batch, thresholds={"faithfulness": 0.5},
                                     composite_threshold=0.5, min_pass_rate=0.5)
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)


def test_baseline_file_is_written_then_compared(pytester, data):
    pytester.makepyfile(
        """
        def test_regression(assay_gate):
            batch = assay_gate.evaluate("golden.jsonl", ["faithfulness"])
            assay_gate.assert_no_regression(batch, "assay-baseline.json")
        """
    )
    missing = pytester.runpytest()
    missing.assert_outcomes(failed=1)
    missing.stdout.fnmatch_lines(
        ["*no baseline at assay-baseline.json; run pytest with --assay-update-baseline*"]
    )
    pytester.runpytest("--assay-update-baseline").assert_outcomes(passed=1)
    baseline = json.loads((pytester.path / "assay-baseline.json").read_text())
    assert set(baseline["aggregates"]) == {"faithfulness"}
    pytester.runpytest().assert_outcomes(passed=1)
    baseline["aggregates"]["faithfulness"]["mean"] += 0.2
    (pytester.path / "assay-baseline.json").write_text(json.dumps(baseline))
    regressed = pytester.runpytest()
    regressed.assert_outcomes(failed=1)
    regressed.stdout.fnmatch_lines(
        ["*regression faithfulness: mean * -> * (-0.200, allowed -0.05)"]
    )


def test_bad_sample_file_reports_the_line(pytester):
    (pytester.path / "broken.jsonl").write_text('{"question": "q", "contexts": []}\n')
    pytester.makepyfile(
        """
        import pytest, assay
        def test_quality(assay_gate):
            with pytest.raises(assay.AssayError) as excinfo:
                assay_gate.evaluate("broken.jsonl")
            assert excinfo.value.code == "MISSING_ANSWER"
            assert excinfo.value.path == "broken.jsonl:1.answer"
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)
