"""CI semantics: errors are never a pass, pass-rate / undetermined-rate / error-rate gates, the
regression-only gate, and the exit codes of ``assay eval`` (0 passed, 1 failed, 2 nothing was
decided)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import assay
from assay._cli.main import build_cli
from assay_evaluation import Gate, evaluate, evaluate_batch, replay_thresholds
from assay_evaluation._summary import summary_text

sys.path.insert(0, str(Path(__file__).parent))
from test_evaluation_toys import FunctionMetric, WordCount, toy_registry, toy_samples


def _raising(sample, context, threshold):
    if sample.id in ("s1", "s4"):
        raise TimeoutError("the model did not answer in 30 s")
    return WordCount().compute(sample, context, threshold)


def _judge_failed(sample, context, threshold):
    """What a judge-backed metric returns when its judge failed after its retries."""
    return assay.MetricResult(
        "judged",
        None,
        None,
        threshold,
        "the judge failed [JUDGE_ERROR: transport]",
        (assay.MetricSignal("error", "connection refused"),),
        {"judgeFailures": [{"code": "JUDGE_ERROR", "message": "connection refused"}]},
    )


@pytest.fixture
def registry():
    registry = toy_registry()
    registry.register(FunctionMetric("flaky", _raising, default_threshold=0.0))
    registry.register(FunctionMetric("judged", _judge_failed))
    return registry


def test_a_metric_that_raises_is_an_error_not_a_crash_and_never_a_pass(registry):
    batch = evaluate_batch(toy_samples(6), ["flaky"], {"compositeThreshold": 0}, registry=registry)
    failed = batch.results[1].metrics["flaky"]
    assert failed.score is None and failed.passed is None
    assert failed.details["error"]["type"] == "TimeoutError"
    assert "the model did not answer" in failed.explanation
    assert [r.passed for r in batch.results] == [True, False, True, True, False, True]
    assert batch.aggregates["flaky"].errors == 2
    assert batch.counts.metric_errors == {"flaky": 2}
    verdict = batch.check()
    assert (verdict.passed, verdict.exit_code) == (False, 1)
    assert verdict.reasons[0] == (
        "flaky: 2 of 6 results are errors (allowed 0.0% of all results): "
        "TimeoutError: the model did not answer in 30 s"
    )
    tolerant = batch.check(max_error_rate=0.5, min_pass_rate=0.6)
    assert tolerant.passed and tolerant.exit_code == 0


def test_a_failed_judge_counts_as_an_error_and_nothing_scored_exits_2(registry):
    batch = evaluate_batch(toy_samples(3), ["judged"], registry=registry)
    verdict = batch.check()
    assert verdict.exit_code == 2
    assert verdict.reasons[0].startswith("no score could be computed: all 3 metric results")
    assert "connection refused" in verdict.reasons[0]
    mixed = evaluate_batch(
        toy_samples(3), ["word_count", "judged"], {"compositeThreshold": 0}, registry=registry
    )
    assert mixed.check(min_pass_rate=0).exit_code == 1  # scores exist, errors still fail


def test_undetermined_by_design_is_not_an_error(registry):
    batch = evaluate_batch(
        toy_samples(6),
        ["truth_overlap", "word_count"],
        {"compositeThreshold": 0, "thresholds": {"word_count": 0}},
        registry=registry,
    )
    assert batch.aggregates["truth_overlap"].errors == 0
    verdict = batch.check(max_undetermined_rate=0.2)
    assert (
        "truth_overlap: 2 of 6 samples undetermined (33.3%, allowed 20.0%): no ground truth"
        in verdict.reasons
    )
    assert batch.check(max_undetermined_rate=0.5).passed


def test_min_pass_rate_names_metric_threshold_and_rates(registry):
    batch = evaluate_batch(
        toy_samples(10), ["word_count"], {"compositeThreshold": 0}, registry=registry
    )
    assert not batch.passed  # every sample must pass for the batch's own flag
    strict = batch.check()
    assert strict.reasons == (
        "word_count: 3 of 10 samples below threshold 0.5 (pass rate 70.0%, mean 0.640)",
        "samples passing overall: 70.0% (required 100.0%; a sample passes when no metric "
        "fails or errs and its composite is at least 0)",
    )
    assert batch.check(min_pass_rate=0.7).passed
    assert batch.check(Gate(min_pass_rate=0.75)).exit_code == 1


def test_regression_only_gate_ignores_thresholds(registry):
    baseline = evaluate_batch(toy_samples(10), ["word_count"], registry=registry)
    batch = evaluate_batch(
        toy_samples(10), ["word_count"], {"baselineResult": baseline}, registry=registry
    )
    assert not batch.check().passed
    assert batch.check(fail_on="regression").passed
    worse = {"aggregates": {"word_count": {"mean": 0.9}}}
    regressed = evaluate_batch(
        toy_samples(10), ["word_count"], {"baselineResult": worse}, registry=registry
    )
    verdict = regressed.check(fail_on="regression")
    # the reason names the allowed drop, so a reader sees why -0.260 fails
    assert verdict.reasons == (
        "word_count regressed: mean 0.900 -> 0.640 (delta -0.260; allowed: a drop of at most 0.05)",
    )
    looser = replay_thresholds(regressed, baseline=worse, regression_threshold=0.3)
    assert looser.check(fail_on="regression").passed
    assert looser.regressions[0].threshold == 0.3
    no_baseline = evaluate_batch(toy_samples(3), ["word_count"], registry=registry)
    assert no_baseline.check(fail_on="regression").exit_code == 2


def test_a_lower_is_better_metric_regresses_when_its_mean_rises(registry):
    from assay_evaluation import metric

    metric(lambda s: 0.4, name="noise", threshold=0.5, higher_is_better=False, registry=registry)
    baseline = {"aggregates": {"noise": {"mean": 0.2}}}
    batch = evaluate_batch(
        toy_samples(3),
        ["noise"],
        {"baselineResult": baseline, "regressionThreshold": 0.1},
        registry=registry,
    )
    assert batch.check(fail_on="regression").reasons == (
        "noise regressed: mean 0.200 -> 0.400 (delta +0.200; allowed: a rise of at most 0.1)",
    )
    assert "(delta +0.200, allowed +0.1) REGRESSED" in summary_text(batch, batch.check())
    html = batch.to_html()
    assert "<th>allowed</th>" in html and "<td>+0.200</td><td>+0.1</td>" in html


def test_an_empty_batch_decides_nothing(registry):
    assert evaluate_batch([], registry=registry).check().exit_code == 2


@pytest.mark.parametrize(
    ("settings", "path"),
    [
        ({"min_pass_rate": 1.5}, "gate.minPassRate"),
        ({"max_error_rate": -0.1}, "gate.maxErrorRate"),
        ({"max_undetermined_rate": "x"}, "gate.maxUndeterminedRate"),
        ({"fail_on": "thresholds"}, "gate.failOn"),
        ({"minPassrate": 1}, "gate.minPassrate"),
    ],
)
def test_bad_gate_settings_are_coded_errors(settings, path):
    with pytest.raises(assay.AssayError) as caught:
        Gate.from_mapping(settings)
    assert (caught.value.code, caught.value.path) == ("INVALID_OPTION", path)


def test_a_sample_without_a_question_leaves_question_metrics_undetermined(registry):
    registry.register(
        FunctionMetric(
            "asks",
            lambda s, c, t: assay.MetricResult("asks", 0.0, False, t, "scored"),
            requires=frozenset({"question"}),
        )
    )
    result = evaluate(
        {"answer": "a b", "contexts": ["c"]}, ["asks", "word_count"], registry=registry
    )
    assert result.metrics["asks"].score is None
    assert result.metrics["asks"].explanation == (
        "asks needs the sample's question, and this sample has none."
    )
    assert result.metrics["word_count"].score == pytest.approx(0.2)
    explicit = evaluate(
        {"question": "", "answer": "a b", "contexts": []}, ["asks"], registry=registry
    )
    assert explicit.metrics["asks"].score == 0.0  # an explicit "" is scored as given


# ----------------------------------------------------------------------------- assay eval
@pytest.fixture
def cli_registry(toy_default_registry):
    assay.register(FunctionMetric("flaky", _raising, default_threshold=0.0))


def run(*args):
    result = CliRunner().invoke(build_cli(), ["eval", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "data.jsonl"
    path.write_text("\n".join(json.dumps(s) for s in toy_samples(10)) + "\n", encoding="utf-8")
    return path


@pytest.mark.usefixtures("cli_registry")
def test_cli_errors_fail_the_run_and_are_named(data):
    code, out, _ = run(data, "--metrics", "flaky", "--composite-threshold", "0")
    assert code == 1
    assert "  - flaky: 2 of 10 results are errors" in out
    assert out.splitlines()[-1] == "10 samples, 2 failed, 2 metric errors: FAILED"
    code, _, _ = run(
        data,
        "--metrics",
        "flaky",
        "--composite-threshold",
        "0",
        "--max-error-rate",
        "0.2",
        "--min-pass-rate",
        "0.8",
    )
    assert code == 0


@pytest.mark.usefixtures("cli_registry")
def test_cli_min_pass_rate_and_json_gate_record(data):
    code, out, _ = run(data, "--metrics", "word_count", "--composite-threshold", "0")
    assert code == 1 and "word_count: 3 of 10 samples below threshold 0.5" in out
    code, out, _ = run(
        data,
        "--metrics",
        "word_count",
        "--composite-threshold",
        "0",
        "--min-pass-rate",
        "0.7",
        "--json",
    )
    assert code == 0
    gate = json.loads(out.splitlines()[-1])["aggregate"]["gate"]
    assert gate == {"passed": True, "exitCode": 0, "reasons": []}


@pytest.mark.usefixtures("cli_registry")
def test_cli_save_baseline_exits_0_then_regression_gate(data, tmp_path):
    baseline = tmp_path / "baseline.json"
    code, out, _ = run(data, "--metrics", "word_count", "--save-baseline", baseline)
    assert code == 0, out
    assert out.splitlines()[-1] == "10 samples, 4 failed: BASELINE SAVED"
    assert json.loads(baseline.read_text())["aggregates"]["word_count"]["threshold"] == 0.5
    code, _, _ = run(
        data, "--metrics", "word_count", "--baseline", baseline, "--gate", "regression"
    )
    assert code == 0
    stored = json.loads(baseline.read_text())
    stored["aggregates"]["word_count"]["mean"] = 0.9
    baseline.write_text(json.dumps(stored))
    code, out, _ = run(
        data, "--metrics", "word_count", "--baseline", baseline, "--gate", "regression"
    )
    assert code == 1 and "word_count regressed: mean 0.900 -> 0.640" in out
    # known from the options alone: refused before any sample is evaluated
    code, out, err = run(data, "--metrics", "word_count", "--gate", "regression")
    assert (code, out) == (2, "")
    assert err == (
        "error [INVALID_OPTION] --gate: the regression gate compares with a baseline: give "
        "--baseline FILE (a file written by --save-baseline)\n"
    )
    code, out, err = run(data, "--metrics", "word_count,flaky", "--baseline", baseline)
    assert code == 1  # a baseline holding one of the metrics compares that one
    stored["aggregates"] = {"other_metric": stored["aggregates"]["word_count"]}
    baseline.write_text(json.dumps(stored))
    code, out, err = run(data, "--metrics", "word_count", "--baseline", baseline)
    assert (code, out) == (2, "")
    assert err.startswith(
        "error [INVALID_BASELINE] --baseline: the baseline holds none of the metrics to "
        "evaluate (word_count; it holds other_metric)"
    )


@pytest.mark.usefixtures("cli_registry")
def test_cli_says_not_judged_when_nothing_could_be_scored(data, tmp_path):
    # exit 2 is not a failed gate: the last line must not say FAILED
    assay.register(FunctionMetric("silent", lambda sample, context, threshold: None))
    html = tmp_path / "r.html"
    code, out, err = run(data, "--metrics", "silent", "--html", html)
    assert (code, err) == (2, "")
    assert out.splitlines()[-1].endswith(": NOT JUDGED")
    assert "no score could be computed" in out
    assert '<span class="und">not judged</span>' in html.read_text("utf-8")


@pytest.mark.usefixtures("cli_registry")
def test_cli_does_not_save_a_baseline_full_of_errors(data, tmp_path):
    baseline = tmp_path / "baseline.json"
    code, out, _ = run(data, "--metrics", "flaky", "--save-baseline", baseline)
    assert code == 1 and "the baseline was not written" in out
    assert not baseline.exists()


@pytest.mark.usefixtures("cli_registry")
def test_table_and_why_say_which_samples_a_pass_rate_counts(data):
    # every third toy sample has no ground truth: truth_overlap leaves it undetermined
    code, out, _ = run(data, "--metrics", "truth_overlap", "--threshold", "truth_overlap=1")
    assert code == 1
    lines = out.splitlines()
    row = next(line for line in lines if line.startswith("truth_overlap"))
    assert "(pass, undet, error: shares of all 10 samples)" in lines
    why = next(line for line in lines if line.startswith("  - truth_overlap:"))
    assert why.startswith("  - truth_overlap: ")
    assert "of the 6 scored; " in why and "of all 10 samples, mean" in why
    share_of_all = why.split("; ")[1].split(" of all")[0]
    assert share_of_all == row.split()[-3]  # the why line's share of all = the table's pass


def test_a_baseline_can_be_the_path_of_a_saved_baseline_file(registry, tmp_path):
    # what assay eval --save-baseline writes, handed over as a path: it used to be refused with
    # "a baseline needs an 'aggregates' object"
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps({"aggregates": {"word_count": {"mean": 0.9}}}), encoding="utf-8")
    for baseline in (path, str(path)):
        batch = evaluate_batch(
            toy_samples(10), ["word_count"], {"baselineResult": baseline}, registry=registry
        )
        assert [r.metric_id for r in batch.regressed] == ["word_count"]
        assert replay_thresholds(batch, baseline=baseline).regressed == batch.regressed
    with pytest.raises(assay.AssayError) as caught:
        evaluate_batch(
            toy_samples(2),
            ["word_count"],
            {"baseline": tmp_path / "missing.json"},
            registry=registry,
        )
    assert (caught.value.code, caught.value.path) == ("IO_ERROR", str(tmp_path / "missing.json"))


def test_a_batch_shows_as_one_line_not_every_result(registry):
    batch = evaluate_batch(
        toy_samples(500),
        ["word_count"],
        {"baselineResult": {"aggregates": {"word_count": {"mean": 0.9}}}},
        registry=registry,
    )
    shown = repr(batch)
    assert shown == str(batch) and "\n" not in shown and len(shown) < 300
    agg = batch.aggregates["word_count"]
    assert shown == (
        f"<BatchEvalResult 500 samples; {batch.failed_count} failed; passed=False; "
        f"word_count: mean {agg.mean:.3f}, pass rate {agg.pass_rate:.1%}; composite: mean "
        f"{batch.composite_aggregate.mean:.3f}, pass rate "
        f"{batch.composite_aggregate.pass_rate:.1%}; regressed=['word_count']>"
    )
    assert repr(evaluate_batch([], registry=registry)).endswith("composite: no score>")
