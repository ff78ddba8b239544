"""The Metric and Judge protocols mean what they say: plain classes with exactly the documented
members (no base class, no attrs, no packaging) run through ``evaluate`` and ``evaluate_batch``,
registered at runtime with ``assay.register`` or passed directly; a class given where an
instance is expected is refused with a coded error naming it."""

from __future__ import annotations

import pytest

import assay
from assay_evaluation import create_evaluator, evaluate, evaluate_batch

SAMPLES = [
    {"id": "long", "question": "q", "answer": "one two three four", "contexts": ["c"]},
    {"id": "short", "question": "q", "answer": "one", "contexts": []},
]


class AnswerLength:
    """A Metric exactly as documented: id, default_threshold, higher_is_better, requires,
    compute(sample, context, threshold) -> MetricResult."""

    id = "answer_length"
    default_threshold = 0.5
    higher_is_better = True
    requires = frozenset()

    def compute(self, sample, context, threshold):
        score = min(1.0, len(sample.answer.split()) / 4)
        return assay.MetricResult(self.id, score, score >= threshold, threshold, "words / 4")


class Verbosity:
    """A lower-is-better Metric: passes when ``score <= threshold``."""

    id = "verbosity"
    default_threshold = 0.5
    higher_is_better = False
    requires = frozenset()

    def compute(self, sample, context, threshold):
        score = min(1.0, len(sample.answer.split()) / 4)
        return assay.MetricResult(self.id, score, score <= threshold, threshold, "words / 4")


class AsksTheJudge:
    """A Metric that asks ``context.judge`` for a number and reports the call's cost."""

    id = "judged"
    default_threshold = 0.5
    higher_is_better = True
    requires = frozenset()

    def compute(self, sample, context, threshold):
        reply = context.judge.complete(f"Rate: {sample.answer}")
        score = float(reply.text)
        cost = {
            "llmCalls": 1,
            "inputTokens": reply.prompt_tokens,
            "outputTokens": reply.completion_tokens,
        }
        return assay.MetricResult(
            self.id, score, score >= threshold, threshold, reply.text, details={"cost": cost}
        )


class CountingJudge:
    """A Judge exactly as documented: name, complete(prompt) -> JudgeReply."""

    name = "counting"

    def __init__(self):
        self.prompts = []

    def complete(self, prompt):
        self.prompts.append(prompt)
        return assay.JudgeReply("0.75", prompt_tokens=len(prompt.split()), completion_tokens=1)


@pytest.fixture
def registry(monkeypatch):
    """The process registry with no installed metrics: what assay.register adds is all there is."""
    monkeypatch.setenv("ASSAY_PLUGINS", "evaluation")
    assay.reset_default_registry()
    yield assay.default_registry()
    assay.reset_default_registry()


def test_duck_typed_metrics_registered_at_runtime(registry):
    metric = AnswerLength()
    assert assay.register(metric) is metric
    assay.register(Verbosity())
    assert registry.names("metric") == ["answer_length", "verbosity"]
    result = evaluate(SAMPLES[0], ["answer_length", "verbosity"])
    assert result.metrics["answer_length"].score == 1.0
    assert result.metrics["answer_length"].passed is True
    assert result.metrics["verbosity"].passed is False  # lower is better: 1.0 > 0.5
    assert result.composite_score == 0.5  # the lower-is-better metric counts as 1 - score
    batch = evaluate_batch(SAMPLES)  # no metric set registered: every registered metric
    assert list(batch.aggregates) == ["answer_length", "verbosity"]
    assert [r.metrics["answer_length"].score for r in batch.results] == [1.0, 0.25]
    assert batch.aggregates["verbosity"].pass_rate == 0.5


def test_duck_typed_metrics_passed_directly_without_registration(registry):
    metric = AnswerLength()
    result = evaluate(SAMPLES[1], [metric], {"thresholds": {"answer_length": 0.2}})
    assert result.metrics["answer_length"].score == 0.25
    assert result.metrics["answer_length"].passed is True  # the option's threshold applies
    assert registry.names("metric") == []  # nothing was registered
    batch = evaluate_batch(SAMPLES, [metric, Verbosity()], {"compositeWeights": {"verbosity": 0}})
    assert [r.composite_score for r in batch.results] == [1.0, 0.25]
    evaluator = create_evaluator({"metrics": [metric]})
    assert evaluator.evaluate(SAMPLES[0]).metrics["answer_length"].score == 1.0


def test_duck_typed_judge_passed_directly_and_registered(registry):
    judge = CountingJudge()
    assay.register(AsksTheJudge())
    batch = evaluate_batch(SAMPLES, ["judged"], {"judge": judge})
    assert [r.metrics["judged"].score for r in batch.results] == [0.75, 0.75]
    assert judge.prompts == ["Rate: one two three four", "Rate: one"]
    assert batch.total_cost.llm_calls == 2
    assert batch.total_cost.input_tokens == 7 and batch.total_cost.output_tokens == 2
    assay.register(judge)
    assert registry.lookup("judge", "counting").obj is judge
    by_name = evaluate(SAMPLES[1], ["judged"], {"judge": "counting", "mode": "llm"})
    assert by_name.metrics["judged"].score == 0.75
    assert len(judge.prompts) == 3


def refused(excinfo, name):
    error = excinfo.value
    assert error.code == "INVALID_PLUGIN_OBJECT"
    assert name in str(error) and "is a class" in str(error) and f"{name}()" in str(error)
    return error


def test_a_metric_class_instead_of_an_instance_is_refused(registry):
    with pytest.raises(assay.AssayError) as excinfo:
        evaluate(SAMPLES[0], [AnswerLength])
    assert refused(excinfo, "AnswerLength").path == "metrics[0]"
    with pytest.raises(assay.AssayError) as excinfo:  # the registry refuses it too
        assay.register(AnswerLength)
    refused(excinfo, "AnswerLength")


def test_a_judge_class_instead_of_an_instance_is_refused(registry):
    assay.register(AsksTheJudge())
    with pytest.raises(assay.AssayError) as excinfo:
        evaluate(SAMPLES[0], ["judged"], {"judge": CountingJudge})
    assert refused(excinfo, "CountingJudge").path == "options.judge"
    with pytest.raises(assay.AssayError) as excinfo:  # the registry refuses it too
        assay.register(CountingJudge, kind="judge")
    refused(excinfo, "CountingJudge")


@pytest.mark.parametrize(
    ("item", "code", "message"),
    [
        (42, "UNKNOWN_METRIC", "an id string or a Metric object"),
        (type("NoId", (), {"compute": lambda *a: None})(), "INVALID_PLUGIN_OBJECT", "lacks id"),
    ],
)
def test_other_objects_given_as_metrics_are_refused(registry, item, code, message):
    with pytest.raises(assay.AssayError) as excinfo:
        evaluate(SAMPLES[0], [item])
    assert (excinfo.value.code, excinfo.value.path) == (code, "metrics[0]")
    assert message in str(excinfo.value)
