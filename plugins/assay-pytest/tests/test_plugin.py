"""The pytest plugin, exercised the way a team uses it: test files run by pytester."""

from __future__ import annotations

import json

import pytest

import assay

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


# The team's conftest: two small metrics registered at runtime in the default registry (no
# installed metric plugin is needed).
TEAM_CONFTEST = """
import assay
import pytest


class Support:
    id = "support"
    default_threshold = 0.7
    higher_is_better = True
    requires = frozenset()

    def compute(self, sample, context, threshold):
        words = sample.answer.lower().rstrip(".").split()
        known = set(" ".join(sample.contexts).lower().rstrip(".").split())
        score = sum(w in known for w in words) / len(words)
        reason = f"{len(words) - round(score * len(words))} answer words not in the context"
        return assay.MetricResult(self.id, score, score >= threshold, threshold, reason,
                                  (assay.MetricSignal("warn", reason),) if score < 1 else ())


class Correct:
    id = "correct"
    default_threshold = 0.5
    higher_is_better = True
    requires = frozenset({"ground_truth"})

    def compute(self, sample, context, threshold):
        if sample.ground_truth is None:
            return assay.MetricResult(self.id, None, None, threshold, "no ground truth")
        score = float(sample.answer == sample.ground_truth)
        return assay.MetricResult(self.id, score, score >= threshold, threshold, "exact match")


@pytest.fixture(autouse=True)
def team_metrics(monkeypatch):
    monkeypatch.setenv("ASSAY_PLUGINS", "")
    assay.reset_default_registry()
    assay.register(Support())
    assay.register(Correct())
    yield
    assay.reset_default_registry()
"""


@pytest.fixture(autouse=True)
def no_installed_metric_plugins(monkeypatch):
    monkeypatch.setenv("ASSAY_PLUGINS", "")
    assay.reset_default_registry()
    yield
    assay.reset_default_registry()


@pytest.fixture
def data(pytester):
    pytester.makeconftest(TEAM_CONFTEST)
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
            batch = assay_gate.evaluate("golden.jsonl", ["support"])
            assay_gate.assert_passes(batch, thresholds={"support": 0.0},
                                     composite_threshold=0.0)
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)


def test_failing_gate_names_metric_threshold_and_worst_sample(pytester, data):
    pytester.makepyfile(
        """
        def test_quality(assay_gate):
            batch = assay_gate.evaluate("golden.jsonl", ["support", "correct"])
            assay_gate.assert_passes(batch, thresholds={"support": 0.5})
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*GateFailure: assay gate failed over 2 samples:*",
            "*support: 1 of 2 samples below threshold 0.5 (pass rate 50.0%, mean 0.500)",
            "*bad: 0.000 — 5 answer words not in the context",
            "*samples passing overall: 50.0% (required 100.0%;*",
        ]
    )
    # "correct" could not score "bad" (no ground truth): undetermined, not failing
    assert "correct: " not in result.stdout.str()


def test_min_pass_rate_tolerates_some_failures(pytester, data):
    pytester.makepyfile(
        """
        def test_quality(assay_gate):
            batch = assay_gate.evaluate("golden.jsonl", ["support"])
            assay_gate.assert_passes(batch, thresholds={"support": 0.5},
                                     composite_threshold=0.5, min_pass_rate=0.5)
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)


def test_baseline_file_is_written_then_compared(pytester, data):
    pytester.makepyfile(
        """
        def test_regression(assay_gate):
            batch = assay_gate.evaluate("golden.jsonl", ["support"])
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
    assert set(baseline["aggregates"]) == {"support"}
    pytester.runpytest().assert_outcomes(passed=1)
    baseline["aggregates"]["support"]["mean"] += 0.2
    (pytester.path / "assay-baseline.json").write_text(json.dumps(baseline))
    regressed = pytester.runpytest()
    regressed.assert_outcomes(failed=1)
    regressed.stdout.fnmatch_lines(
        ["*regression support: mean 0.700 -> 0.500 (-0.200, allowed -0.05)"]
    )


def test_a_baseline_of_other_metrics_fails_instead_of_comparing_nothing(pytester, data):
    pytester.makepyfile(
        """
        def test_regression(assay_gate):
            batch = assay_gate.evaluate("golden.jsonl", ["support"])
            assay_gate.assert_no_regression(batch, "assay-baseline.json")
        """
    )
    baseline = {"aggregates": {"faithfulness": {"mean": 0.4}, "answerRelevance": {"mean": 0.3}}}
    (pytester.path / "assay-baseline.json").write_text(json.dumps(baseline))
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*the baseline assay-baseline.json holds none of the metrics evaluated (support; "
            "it holds answer_relevance, faithfulness), so nothing would be compared*"
        ]
    )


def test_the_gate_runs_the_default_metric_list():
    pytest.importorskip("assay_faithfulness", reason="the default metrics are assay-faithfulness's")
    from assay_evaluation import DEFAULT_METRICS
    from assay_pytest import EvalGate

    gate = EvalGate(registry=assay.build_registry(env={"ASSAY_PLUGINS": "faithfulness"}))
    batch = gate.evaluate([GOOD, BAD])
    assert list(batch.aggregates) == list(DEFAULT_METRICS)
    assert [r.passed for r in batch.results] == [True, False]


def test_a_metric_error_fails_the_gate_unless_allowed(pytester, data):
    pytester.makepyfile(
        """
        import assay

        class Flaky:
            id = "flaky"
            default_threshold = 0.0
            higher_is_better = True
            requires = frozenset()

            def compute(self, sample, context, threshold):
                if sample.id == "bad":
                    raise TimeoutError("judge timed out")
                return assay.MetricResult(self.id, 1.0, True, threshold, "ok")

        def test_errors_fail(assay_gate):
            assay.register(Flaky())
            batch = assay_gate.evaluate("golden.jsonl", ["flaky"])
            assay_gate.assert_passes(batch, composite_threshold=0.0)

        def test_errors_allowed(assay_gate):
            assay.register(Flaky())
            batch = assay_gate.evaluate("golden.jsonl", ["flaky"])
            assay_gate.assert_passes(batch, composite_threshold=0.0, min_pass_rate=0.5,
                                     max_error_rate=0.5)

        def test_regression_gate_fails_on_errors_too(assay_gate):
            assay.register(Flaky())
            batch = assay_gate.evaluate("golden.jsonl", ["flaky"])
            assay_gate.assert_no_regression(batch, "never-read.json")
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines(
        [
            "*flaky: 1 of 2 results are errors (allowed 0.0% of all results): "
            "TimeoutError: judge timed out",
            "*bad: error — TimeoutError: judge timed out",
        ]
    )


def test_an_empty_sample_file_is_not_a_quality_failure(pytester, data):
    (pytester.path / "empty.jsonl").write_text("\n")
    pytester.makepyfile(
        """
        import pytest, assay
        def test_quality(assay_gate):
            batch = assay_gate.evaluate([], ["support"])
            with pytest.raises(assay.AssayError) as excinfo:
                assay_gate.assert_passes(batch)
            assert "no samples" in excinfo.value.message
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)


def test_bad_sample_file_reports_the_line(pytester):
    (pytester.path / "broken.jsonl").write_text('{"question": "q", "contexts": []}\n')
    pytester.makepyfile(
        """
        import pytest, assay
        def test_quality(assay_gate):
            with pytest.raises(assay.AssayError) as excinfo:
                assay_gate.evaluate("broken.jsonl")
            assert excinfo.value.code == "MISSING_ANSWER"
            assert excinfo.value.path == "broken.jsonl line 1.answer"
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)


def test_a_failing_gate_points_at_the_test_not_at_the_plugin(pytester, data):
    # the plugin's own frames (its long docstrings, a repr of the whole batch) used to fill
    # the failure; pytest now shows the test's line and the gate's message only
    pytester.makepyfile(
        """
        def test_quality(assay_gate):
            batch = assay_gate.evaluate("golden.jsonl", ["support"])
            assay_gate.assert_passes(batch)

        def test_regression(assay_gate):
            batch = assay_gate.evaluate("golden.jsonl", ["support"])
            assay_gate.assert_no_regression(batch, "missing-baseline.json")

        def test_unknown_metric(assay_gate):
            assay_gate.evaluate("golden.jsonl", ["suport"])

        def test_a_threshold_for_no_metric(assay_gate):
            batch = assay_gate.evaluate("golden.jsonl", ["support"])
            assay_gate.assert_passes(batch, thresholds={"suport": 0.5})

        def test_a_rate_out_of_range(assay_gate):
            batch = assay_gate.evaluate("golden.jsonl", ["support"])
            assay_gate.assert_passes(batch, min_pass_rate=90)
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=5)
    text = result.stdout.str()
    assert "assay_pytest/gate.py" not in text and "assay_evaluation/" not in text
    assert "def assert_passes" not in text and "BatchEvalResult(" not in text
    assert "The above exception was the direct cause" not in text
    result.stdout.fnmatch_lines(
        [
            ">       assay_gate.assert_passes(batch)",
            "E       assay_pytest.gate.GateFailure: assay gate failed over 2 samples:",
            "test_a_failing_gate_points_at_the_test_not_at_the_plugin.py:3: GateFailure",
            "E       assay_pytest.gate.GateFailure: no baseline at missing-baseline.json;*",
            ">       assay_gate.evaluate(*suport*)",
            "E       assay._errors.AssayError: metrics?0?: no metric with id 'suport'*",
            ">       assay_gate.assert_passes(batch, thresholds={*suport*: 0.5})",
            "E       assay._errors.AssayError: thresholds.suport: *",
            ">       assay_gate.assert_passes(batch, min_pass_rate=90)",
            "E       assay._errors.AssayError: gate.minPassRate: must be a number in ?0, 1?, got 90",
        ]
    )


def test_an_unreadable_row_points_at_the_test_and_names_the_file(pytester, data):
    (pytester.path / "table.csv").write_text('kind,question,answer,contexts\nx,q,a,"[c"\n')
    pytester.makepyfile(
        """
        def test_quality(assay_gate):
            assay_gate.evaluate("table.csv", ["support"])
        """
    )
    result = pytester.runpytest("-W", "always")
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "assay_evaluation/" not in text and "assay_pytest/gate.py" not in text
    result.stdout.fnmatch_lines(
        ["E       assay._errors.AssayError: table.csv row 1.contexts: the cell starts like a list*"]
    )
    # the unknown-column warnings name the test's line, not a line of the plugin
    result.stdout.fnmatch_lines(
        ["*test_an_unreadable_row_points_at_the_test_and_names_the_file.py:2: SampleFieldWarning*"]
    )


def test_the_gate_is_listed_in_assay_plugins():
    from assay_pytest import EvalGate

    registry = assay.build_registry(env={"ASSAY_PLUGINS": "pytest"})
    assert registry.get("ci-gate", "pytest") is EvalGate
    record = next(p for p in registry.plugins if p.name == "pytest")
    assert record.status == "ok" and record.registered == ("ci-gate:pytest",)
