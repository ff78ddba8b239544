"""The evaluation runner: thresholds, tri-state, composite, aggregates, regressions, replay,
options and errors, with small metrics of our own (test_evaluation_toys)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

import assay
from assay_evaluation import (
    EvaluateOptions,
    SampleContext,
    create_evaluator,
    error_of,
    evaluate,
    evaluate_batch,
    replay_thresholds,
    status_of,
    summarize,
)

sys.path.insert(0, str(Path(__file__).parent))
from test_evaluation_toys import (
    ContextCount,
    CountingMetric,
    FunctionMetric,
    TruthOverlap,
    WordCount,
    toy_registry,
    toy_samples,
)

SAMPLE = {
    "id": "a",
    "question": "q?",
    "answer": "alpha beta gamma delta",
    "contexts": ["one", "two"],
    "groundTruth": "alpha zeta",
}


@pytest.fixture
def registry():
    return toy_registry()


def codes_of(excinfo):
    return excinfo.value.code, excinfo.value.path


# ----------------------------------------------------------------------------- single sample
def test_evaluate_scores_thresholds_and_composite(registry):
    result = evaluate(SAMPLE, registry=registry)
    assert list(result.metrics) == ["word_count", "truth_overlap", "context_count"]
    assert result.metrics["word_count"].score == pytest.approx(0.4)
    assert result.metrics["word_count"].passed is False
    assert result.metrics["truth_overlap"].score == 0.5
    assert result.metrics["truth_overlap"].passed is True  # inclusive
    assert result.metrics["context_count"].score == pytest.approx(0.2)
    assert result.metrics["context_count"].passed is True  # lower is better: 0.2 <= 0.3
    # composite: lower-is-better contributes 1 - score
    assert result.composite_score == pytest.approx((0.4 + 0.5 + 0.8) / 3)
    assert result.passed is False  # word_count failed
    assert result.sample.id == "a"


def test_threshold_overrides_decide_pass(registry):
    result = evaluate(
        SAMPLE,
        options={"thresholds": {"word_count": 0.4}, "compositeThreshold": 0.5},
        registry=registry,
    )
    assert result.metrics["word_count"].threshold == 0.4
    assert result.metrics["word_count"].passed is True
    assert result.passed is True


def test_undetermined_is_not_a_failure_and_stays_out_of_composite(registry):
    sample = {**SAMPLE, "groundTruth": ""}  # empty ground truth counts as missing
    result = evaluate(sample, options={"thresholds": {"word_count": 0.1}}, registry=registry)
    overlap = result.metrics["truth_overlap"]
    assert (overlap.score, overlap.passed) == (None, None)
    assert result.composite_score == pytest.approx((0.4 + 0.8) / 2)
    assert result.passed is True


def test_composite_weights_zero_negative_and_duplicates(registry):
    weighted = evaluate(
        SAMPLE,
        ["word_count", "context_count"],
        {"composite_weights": {"word_count": 3, "context_count": 1}},
        registry=registry,
    )
    assert weighted.composite_score == pytest.approx((3 * 0.4 + 0.8) / 4)
    zero = evaluate(
        SAMPLE, ["word_count"], {"compositeWeights": {"wordCount": 0}}, registry=registry
    )
    assert zero.composite_score is None and zero.passed is False
    twice = evaluate(SAMPLE, ["word_count", "word_count", "context_count"], registry=registry)
    assert list(twice.metrics) == ["word_count", "context_count"]
    assert twice.composite_score == pytest.approx((0.4 + 0.4 + 0.8) / 3)
    negative = evaluate(
        SAMPLE,
        ["word_count", "context_count"],
        {"compositeWeights": {"word_count": -1, "context_count": 2.5}},
        registry=registry,
    )
    assert negative.composite_score == pytest.approx((-0.4 + 2.5 * 0.8) / 1.5)


def test_camel_case_ids_resolve_to_registered_ids(registry):
    result = evaluate(
        SAMPLE, ["wordCount", "truthOverlap"], {"thresholds": {"wordCount": 0.2}}, registry=registry
    )
    assert list(result.metrics) == ["word_count", "truth_overlap"]
    assert result.metrics["word_count"].threshold == 0.2


def test_default_metric_set_is_used_when_registered(registry):
    registry.register(("context_count", "word_count"), kind="metric-set", name="default")
    result = evaluate(SAMPLE, registry=registry)
    assert list(result.metrics) == ["context_count", "word_count"]


def test_metrics_share_work_through_the_context(registry):
    seen = []

    def record(sample, context, threshold):
        seen.append(context.shared("words", lambda: list(sample.answer.split())))
        return assay.MetricResult("r", 1.0, True, threshold, "ok")

    registry.register(FunctionMetric("r1", record))
    registry.register(FunctionMetric("r2", record))
    evaluate(SAMPLE, ["r1", "r2"], registry=registry)
    evaluate({**SAMPLE, "answer": "other"}, ["r1", "r2"], registry=registry)
    assert seen[0] is seen[1]  # computed once per sample
    assert seen[2] is seen[3] and seen[2] == ["other"]  # and not leaked across samples


def test_sample_context_computes_each_key_once():
    context = SampleContext({"heuristic": {}}, judge=None)
    calls = []
    assert context.shared("k", lambda: calls.append(1) or 5) == 5
    assert context.shared("k", lambda: calls.append(1) or 6) == 5
    assert calls == [1] and context.computed == 1


def _constant_metric(score):
    return FunctionMetric(
        "constant",
        lambda sample, context, threshold: assay.MetricResult(
            "constant", score, True, threshold, "constant"
        ),
    )


def test_nan_score_becomes_undetermined_with_a_signal(registry):
    registry.register(_constant_metric(math.nan))
    result = evaluate(SAMPLE, ["constant", "word_count"], registry=registry)
    constant = result.metrics["constant"]
    assert (constant.score, constant.passed) == (None, None)
    assert "NaN" in constant.signals[-1].message


def test_metric_breaking_its_contract_is_its_error_result_not_a_crash(registry):
    registry.register(_constant_metric(1.5))
    result = evaluate(SAMPLE, ["constant", "word_count"], registry=registry)
    constant = result.metrics["constant"]
    assert status_of(constant) == "error" and constant.passed is None
    assert constant.details["error"]["code"] == "INVALID_METRIC_RESULT"
    assert error_of(constant) == (
        "INVALID_METRIC_RESULT: metric 'constant' returned score 1.5; a score is in [0, 1] or None"
    )
    assert status_of(result.metrics["word_count"]) != "error"  # the others go on
    assert result.passed is False


def test_metric_pass_flag_is_recomputed_from_score_and_threshold(registry):
    registry.register(_constant_metric(0.2))  # claims passed=True at 0.2 < 0.5
    assert evaluate(SAMPLE, ["constant"], registry=registry).metrics["constant"].passed is False


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize(
    ("sample", "code", "path"),
    [
        ({"question": "q", "contexts": []}, "MISSING_ANSWER", "sample.answer"),
        ({"question": "q", "answer": 3, "contexts": []}, "MISSING_ANSWER", "sample.answer"),
        (
            {"question": "q", "answer": "a", "contexts": ["x", 2]},
            "INVALID_CONTEXTS",
            "sample.contexts[1]",
        ),
        ({"question": "q", "answer": "a", "contexts": "x"}, "INVALID_CONTEXTS", "sample.contexts"),
        ({"question": "q", "answer": "a"}, "INVALID_CONTEXTS", "sample.contexts"),
        (
            {"question": "q", "answer": "a", "contexts": [], "extra": 1},
            "INVALID_SAMPLE",
            "sample.extra",
        ),
        ("text", "INVALID_SAMPLE", "sample"),
    ],
)
def test_bad_samples_raise_coded_errors(registry, sample, code, path):
    with pytest.raises(assay.AssayError) as excinfo:
        evaluate(sample, registry=registry, strict=True)
    assert codes_of(excinfo) == (code, path)


def test_bad_sample_in_a_batch_names_its_position(registry):
    samples = [*toy_samples(3), {"question": "q", "contexts": []}]
    with pytest.raises(assay.AssayError) as excinfo:
        evaluate_batch(samples, registry=registry)
    assert codes_of(excinfo) == ("MISSING_ANSWER", "samples[3].answer")


@pytest.mark.parametrize(
    ("metrics", "options", "code", "path"),
    [
        (["nope"], None, "UNKNOWN_METRIC", "metrics[0]"),
        (None, {"thresholds": {"nope": 0.5}}, "UNKNOWN_METRIC", "options.thresholds.nope"),
        (
            None,
            {"compositeWeights": {"nope": 1}},
            "UNKNOWN_METRIC",
            "options.compositeWeights.nope",
        ),
        (
            None,
            {"thresholds": {"word_count": 1.5}},
            "INVALID_THRESHOLD",
            "options.thresholds.word_count",
        ),
        (
            None,
            {"thresholds": {"word_count": -0.1}},
            "INVALID_THRESHOLD",
            "options.thresholds.word_count",
        ),
        (None, {"compositeThreshold": 2}, "INVALID_THRESHOLD", "options.compositeThreshold"),
        (None, {"mode": "llm"}, "JUDGE_MISCONFIGURED", "options.judge"),
        (None, {"judge": lambda prompt: "1"}, "JUDGE_MISCONFIGURED", "options.judge"),
        (None, {"judge": "missing"}, "JUDGE_MISCONFIGURED", "options.judge"),
        (None, {"mode": "fast"}, "INVALID_OPTION", "options.mode"),
        (None, {"bogus": 1}, "INVALID_OPTION", "options.bogus"),
        (None, {"concurrency": 0}, "INVALID_OPTION", "options.concurrency"),
        (
            None,
            {"metricModes": {"word_count": "magic"}},
            "INVALID_OPTION",
            "options.metricModes.word_count",
        ),
    ],
)
def test_bad_options_raise_coded_errors(registry, metrics, options, code, path):
    with pytest.raises(assay.AssayError) as excinfo:
        evaluate(SAMPLE, metrics, options, registry=registry)
    assert codes_of(excinfo) == (code, path)


def test_an_llm_override_needs_an_llm_metric_of_that_id(registry):
    class EchoJudge:
        name = "echo"

        def complete(self, prompt):
            return assay.JudgeReply("1")

    with pytest.raises(assay.AssayError) as excinfo:
        evaluate(
            SAMPLE,
            ["word_count"],
            {"mode": "hybrid", "judge": EchoJudge(), "metricModes": {"word_count": "llm"}},
            registry=registry,
        )
    assert codes_of(excinfo) == ("UNKNOWN_METRIC", "metrics[0]")


def test_modes_route_metrics_between_heuristic_and_llm_kinds(registry):
    class EchoJudge:
        name = "echo"

        def complete(self, prompt):
            return assay.JudgeReply("0.9")

    def judged(sample, context, threshold):
        score = float(context.judge.complete(sample.answer).text)
        return assay.MetricResult(
            "word_count",
            score,
            None,
            threshold,
            "judged",
            details={"cost": {"llmCalls": 1, "inputTokens": 7}},
        )

    registry.register(FunctionMetric("word_count", judged), kind="llm-metric", name="word_count")
    judge = EchoJudge()
    llm = evaluate(
        SAMPLE,
        ["word_count", "context_count"],
        {"mode": "llm", "judge": judge},
        registry=registry,
    )
    assert llm.metrics["word_count"].score == 0.9  # has an llm-metric: judged
    assert llm.metrics["context_count"].score == pytest.approx(0.2)  # none: heuristic
    assert (llm.cost.llm_calls, llm.cost.input_tokens) == (1, 7)
    pinned = evaluate(
        SAMPLE,
        ["word_count"],
        {"mode": "llm", "judge": judge, "metricModes": {"wordCount": "heuristic"}},
        registry=registry,
    )
    assert pinned.metrics["word_count"].score == pytest.approx(0.4)
    hybrid = evaluate(SAMPLE, ["word_count"], {"mode": "hybrid", "judge": judge}, registry=registry)
    assert hybrid.metrics["word_count"].score == pytest.approx(0.4)  # heuristic unless routed
    routed = evaluate(
        SAMPLE,
        ["word_count"],
        {"mode": "hybrid", "judge": judge, "metricModes": {"word_count": "llm"}},
        registry=registry,
    )
    assert routed.metrics["word_count"].score == 0.9
    one_llm = evaluate(
        SAMPLE,
        ["word_count"],
        {"judge": judge, "metricModes": {"word_count": "llm"}},
        registry=registry,
    )
    assert one_llm.metrics["word_count"].score == 0.9


# ----------------------------------------------------------------------------- batches
def test_summarize_matches_hand_computed_statistics():
    odd = summarize("m", [0.5, 0.1, 0.3], passed=2, nulls=1, total=4)
    assert (odd.mean, odd.median, odd.min, odd.max) == pytest.approx((0.3, 0.3, 0.1, 0.5))
    assert odd.std_dev == pytest.approx(math.sqrt(((0.2**2) * 2) / 3))
    assert (odd.pass_rate, odd.null_rate, odd.count) == (0.5, 0.25, 3)
    even = summarize("m", [0.4, 0.1, 0.2, 0.3], passed=0, nulls=0, total=4)
    assert even.median == pytest.approx(0.25)
    empty = summarize("m", [], passed=0, nulls=2, total=2)
    assert (empty.mean, empty.median, empty.std_dev, empty.null_rate) == (0, 0, 0, 1.0)


def test_batch_aggregates_pass_rates_and_overall_pass(registry):
    samples = toy_samples(9)
    batch = evaluate_batch(samples, registry=registry)
    assert [r.sample.id for r in batch.results] == [s["id"] for s in samples]
    overlap = batch.aggregates["truth_overlap"]
    assert overlap.null_rate == pytest.approx(3 / 9)  # every third sample has no ground truth
    assert overlap.count == 6 and overlap.mean == 0.5
    singles = [evaluate(s, registry=registry) for s in samples]
    words = [r.metrics["word_count"].score for r in singles]
    assert batch.aggregates["word_count"].mean == pytest.approx(sum(words) / 9)
    assert batch.aggregates["word_count"].pass_rate == pytest.approx(
        sum(r.metrics["word_count"].passed for r in singles) / 9
    )
    assert batch.composite_aggregate.pass_rate == pytest.approx(sum(r.passed for r in singles) / 9)
    assert batch.passed is all(r.passed for r in singles)
    assert batch.regressions is None


def test_empty_batch_is_not_passed(registry):
    batch = evaluate_batch([], registry=registry)
    assert batch.passed is False and batch.results == ()
    assert batch.aggregates["word_count"].mean == 0


def test_regressions_against_a_wire_baseline(registry):
    current = evaluate_batch(toy_samples(6), ["word_count", "context_count"], registry=registry)
    words = current.aggregates["word_count"].mean
    contexts = current.aggregates["context_count"].mean
    baseline = {
        "aggregates": {
            "wordCount": {"mean": words + 0.1},
            "context_count": {"mean": contexts - 0.1},
            "other": {"mean": 1.0},
        }
    }
    batch = evaluate_batch(
        toy_samples(6),
        ["word_count", "context_count"],
        {"baselineResult": baseline, "regressionThreshold": 0.05},
        registry=registry,
    )
    by_id = {r.metric_id: r for r in batch.regressions}
    assert list(by_id) == ["word_count", "context_count"]
    assert by_id["word_count"].regressed is True
    assert by_id["word_count"].delta == pytest.approx(-0.1)
    assert by_id["context_count"].regressed is True  # lower is better: it went up by 0.1
    relaxed = evaluate_batch(
        toy_samples(6),
        ["word_count"],
        {"baselineResult": baseline, "regressionThreshold": 0.2},
        registry=registry,
    )
    assert relaxed.regressed == []


def test_baseline_without_aggregates_is_refused(registry):
    with pytest.raises(assay.AssayError) as excinfo:
        evaluate_batch(
            toy_samples(2), options={"baselineResult": {"results": []}}, registry=registry
        )
    assert excinfo.value.code == "INVALID_BASELINE"


def test_replay_rejudges_without_recomputing(registry):
    counting = CountingMetric(WordCount())
    registry = assay.build_registry(load_entry_points=False)
    registry.register(counting)
    registry.register(TruthOverlap())
    batch = evaluate_batch(toy_samples(9), registry=registry)
    calls = len(counting.calls)
    strict = replay_thresholds(batch, {"wordCount": 0.95}, composite_threshold=0.0)
    assert len(counting.calls) == calls
    for before, after in zip(batch.results, strict.results, strict=True):
        word = after.metrics["word_count"]
        assert word.score == before.metrics["word_count"].score
        assert word.threshold == 0.95 and word.passed is (word.score >= 0.95)
        assert after.composite_score == before.composite_score
    assert strict.aggregates["word_count"].pass_rate == pytest.approx(
        sum(r.metrics["word_count"].score >= 0.95 for r in batch.results) / 9
    )
    same = replay_thresholds(batch)
    assert same == batch
    single = replay_thresholds(batch.results[0], {"truth_overlap": 1.0})
    assert single.metrics["truth_overlap"].passed is (
        single.metrics["truth_overlap"].score == 1.0
        if single.metrics["truth_overlap"].score is not None
        else None
    )
    with pytest.raises(assay.AssayError) as excinfo:
        replay_thresholds(batch, {"nope": 0.5})
    assert excinfo.value.code == "UNKNOWN_METRIC"
    with pytest.raises(assay.AssayError) as excinfo:
        replay_thresholds(batch, {"word_count": 7})
    assert excinfo.value.code == "INVALID_THRESHOLD"


def test_integer_id_beyond_10_to_the_18_is_an_invalid_sample(registry):
    # str() of a 5,000-digit int raised a bare ValueError
    with pytest.raises(assay.AssayError) as excinfo:
        evaluate({**SAMPLE, "id": 10**5000}, ["word_count"], registry=registry)
    assert codes_of(excinfo) == ("INVALID_SAMPLE", "sample.id")
    assert "10**18" in excinfo.value.message
    with pytest.raises(assay.AssayError) as excinfo:
        evaluate({**SAMPLE, "id": -(10**18) - 1}, ["word_count"], registry=registry)
    assert codes_of(excinfo) == ("INVALID_SAMPLE", "sample.id")
    at_limit = evaluate({**SAMPLE, "id": 10**18}, ["word_count"], registry=registry)
    assert at_limit.sample.id == str(10**18)


def test_evaluator_call_options_that_are_not_a_mapping_are_refused(registry):
    evaluator = create_evaluator({"metrics": ["word_count"]}, registry=registry)
    with pytest.raises(assay.AssayError) as excinfo:
        evaluator.evaluate(SAMPLE, options=[])  # type: ignore[arg-type]
    assert codes_of(excinfo) == ("INVALID_OPTION", "options")


def test_replay_thresholds_that_are_not_a_mapping_are_refused(registry):
    result = evaluate(SAMPLE, ["word_count"], registry=registry)
    with pytest.raises(assay.AssayError) as excinfo:
        replay_thresholds(result, thresholds=1.5)  # type: ignore[arg-type]
    assert codes_of(excinfo) == ("INVALID_THRESHOLD", "thresholds")


def test_create_evaluator_merges_config_and_call_options(registry):
    evaluator = create_evaluator(
        {
            "metrics": ["word_count", "truth_overlap"],
            "thresholds": {"word_count": 0.4},
            "compositeThreshold": 0.3,
        },
        registry=registry,
    )
    assert evaluator.config.thresholds == {"word_count": 0.4}
    result = evaluator.evaluate(SAMPLE)
    assert list(result.metrics) == ["word_count", "truth_overlap"]
    assert result.metrics["word_count"].passed is True and result.passed is True
    stricter = evaluator.evaluate(SAMPLE, options={"thresholds": {"truthOverlap": 0.9}})
    assert stricter.metrics["truth_overlap"].passed is False
    assert stricter.metrics["word_count"].threshold == 0.4  # merged key by key
    assert stricter.composite_threshold == 0.3  # kept from config
    other = evaluator.evaluate(SAMPLE, ["context_count"])
    assert list(other.metrics) == ["context_count"]
    typed = evaluator.evaluate(SAMPLE, options=EvaluateOptions(composite_threshold=0.99))
    assert typed.composite_threshold == 0.99 and typed.metrics["word_count"].threshold == 0.4
    batch = evaluator.evaluate_batch(toy_samples(3))
    assert list(batch.aggregates) == ["word_count", "truth_overlap"]
    with pytest.raises(assay.AssayError) as excinfo:
        create_evaluator({"metrics": ["nope"]}, registry=registry)
    assert excinfo.value.code == "UNKNOWN_METRIC"
    with pytest.raises(assay.AssayError) as excinfo:
        create_evaluator({"thresholds": {"word_count": 3}}, registry=registry)
    assert excinfo.value.code == "INVALID_THRESHOLD"
    assert ContextCount().higher_is_better is False


def test_a_result_that_honours_the_contract_is_kept_as_is(registry):
    returned = []

    def exact(sample, context, threshold):
        returned.append(assay.MetricResult("exact", 0.75, True, threshold, "exact"))
        return returned[-1]

    registry.register(FunctionMetric("exact", exact))
    assert evaluate(SAMPLE, ["exact"], registry=registry).metrics["exact"] is returned[0]
    relabelled = evaluate(SAMPLE, ["exact"], {"thresholds": {"exact": 0.8}}, registry=registry)
    assert relabelled.metrics["exact"].passed is False  # at 0.8 the runner's verdict wins


def test_judge_options_accept_registered_names_and_factory_specs(registry):
    class FixedJudge:
        def __init__(self, name):
            self.name = name

        def complete(self, prompt):
            return assay.JudgeReply("0.9")

    def judged(sample, context, threshold):
        score = float(context.judge.complete("p").text)
        return assay.MetricResult("word_count", score, None, threshold, context.judge.name)

    registry.register(FunctionMetric("word_count", judged), kind="llm-metric", name="word_count")
    registry.register(FixedJudge("house-judge"), kind="judge")
    registry.register(
        lambda settings: FixedJudge(f"built:{settings['model']}"),
        kind="judge-factory",
        name="builder",
    )
    by_name = evaluate(
        SAMPLE, ["word_count"], {"mode": "llm", "judge": "house-judge"}, registry=registry
    )
    assert by_name.metrics["word_count"].explanation == "house-judge"
    by_spec = evaluate(
        SAMPLE,
        ["word_count"],
        {"mode": "llm", "judge": {"type": "builder", "model": "m1"}},
        registry=registry,
    )
    assert by_spec.metrics["word_count"].explanation == "built:m1"
    with pytest.raises(assay.AssayError) as excinfo:
        evaluate(
            SAMPLE, ["word_count"], {"mode": "llm", "judge": {"model": "m1"}}, registry=registry
        )
    assert codes_of(excinfo) == ("JUDGE_MISCONFIGURED", "options.judge")
