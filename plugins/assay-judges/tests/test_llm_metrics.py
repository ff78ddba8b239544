"""Judge-backed metrics through the evaluation runner: decompositions, routing, unusable replies,
the disk cache, the cost tracker and repeats."""

from __future__ import annotations

import json
import re

import pytest

import assay
from assay_evaluation import evaluate, evaluate_batch
from assay_judges import DEFAULT_TEMPLATES, cache_key, judge_from_callable

SAMPLE = {
    "id": "s1",
    "question": "When did Apollo 11 land and who walked first?",
    "answer": "Apollo 11 landed in 1969. Neil Armstrong walked first. It was broadcast on Mars.",
    "contexts": [
        "Apollo 11 landed on the Moon on 20 July 1969.",
        "The recipe needs two eggs.",
        "Neil Armstrong was the first person to walk on the Moon.",
    ],
    "groundTruth": "Apollo 11 landed in July 1969. Neil Armstrong walked first. It carried a "
    "plaque.",
}


class ScriptedJudge:
    """Answers by prompt kind, like a careful model would; records every prompt."""

    def __init__(self):
        self.prompts = []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        if prompt.startswith("Break the ANSWER"):
            return json.dumps(
                [
                    "Apollo 11 landed in 1969.",
                    "Neil Armstrong walked first.",
                    "It was broadcast on Mars.",
                ]
            )
        if prompt.startswith("For each numbered CLAIM"):
            return (
                '[{"claim": 1, "supported": true}, {"claim": 2, "supported": true}, '
                '{"claim": 3, "supported": false}]'
            )
        if prompt.startswith("Rate from 0 to 1"):
            return '{"score": 0.9}'
        if prompt.startswith("Is the CONTEXT useful"):
            return '{"verdict": 0}' if "eggs" in prompt else '{"verdict": 1}'
        if prompt.startswith("For each numbered SENTENCE"):
            return "[true, true, false]"
        raise AssertionError(prompt)


class WordSupport:
    """A heuristic stand-in for faithfulness: share of answer words found in the contexts."""

    id = "faithfulness"
    default_threshold = 0.7
    higher_is_better = True
    requires = frozenset()

    def compute(self, sample, context, threshold):
        words = sample.answer.lower().split()
        known = set(" ".join(sample.contexts).lower().split())
        score = sum(w in known for w in words) / len(words) if words else 0.0
        return assay.MetricResult(
            self.id,
            score,
            score >= threshold,
            threshold,
            "word support",
            details={"mode": "heuristic"},
        )


@pytest.fixture(scope="module")
def registry():
    registry = assay.build_registry(env={"ASSAY_PLUGINS": "judges"})
    registry.register(WordSupport())
    return registry


def run(registry, judge, metrics=None, **options):
    return evaluate(
        SAMPLE,
        metrics or ["faithfulness", "answer_relevance", "context_precision", "context_recall"],
        {"mode": "llm", "judge": judge, **options},
        registry=registry,
    )


def test_decompositions(registry):
    result = run(registry, judge_from_callable(ScriptedJudge(), name="scripted"))
    faith = result.metrics["faithfulness"]
    assert faith.score == pytest.approx(2 / 3)
    assert [s.evidence for s in faith.signals] == ["It was broadcast on Mars."]
    assert faith.details["mode"] == "llm" and faith.details["judge"] == "scripted"
    assert result.metrics["answer_relevance"].score == 0.9
    # verdicts 1, 0, 1: precision@1 = 1, precision@3 = 2/3 -> (1 + 2/3) / 2
    precision = result.metrics["context_precision"]
    assert precision.score == pytest.approx((1 + 2 / 3) / 2)
    assert precision.signals[0].message == "chunks judged not useful: [1]"
    recall = result.metrics["context_recall"]
    assert recall.score == pytest.approx(2 / 3)
    assert recall.signals[0].evidence == "It carried a plaque."
    # 2 (faithfulness) + 1 (relevance) + 3 (one per chunk) + 1 (recall)
    assert result.cost.llm_calls == 7


def test_hybrid_routes_only_the_listed_metrics_to_the_judge(registry):
    script = ScriptedJudge()
    judge = judge_from_callable(script, name="scripted")
    result = evaluate(
        SAMPLE,
        ["faithfulness", "answer_relevance"],
        {"mode": "hybrid", "judge": judge, "metricModes": {"answerRelevance": "llm"}},
        registry=registry,
    )
    assert result.metrics["answer_relevance"].details["mode"] == "llm"
    assert result.metrics["faithfulness"].details["mode"] == "heuristic"
    assert len(script.prompts) == 1


def test_unusable_reply_is_undetermined_with_the_raw_reply_as_evidence(registry):
    judge = judge_from_callable(lambda prompt: "I think it is quite relevant", name="vague")
    result = run(registry, judge, ["answer_relevance", "faithfulness"])
    relevance = result.metrics["answer_relevance"]
    assert (relevance.score, relevance.passed) == (None, None)
    assert relevance.signals[0].evidence == "I think it is quite relevant"
    assert result.metrics["faithfulness"].score is None
    assert result.cost.parse_failures == 2


def test_judge_failure_is_undetermined_not_a_failure(registry):
    def broken(prompt):
        raise ConnectionError("down")

    result = run(registry, judge_from_callable(broken, name="broken"), ["answer_relevance"])
    relevance = result.metrics["answer_relevance"]
    assert relevance.passed is None and relevance.signals[0].severity == "error"
    assert "ConnectionError" in relevance.signals[0].message


def test_disk_cache_makes_a_rerun_free(registry, tmp_path):
    script = ScriptedJudge()
    judge = judge_from_callable(script, name="scripted")
    first = run(registry, judge, judgeCache=str(tmp_path))
    second = run(registry, judge, judgeCache=str(tmp_path))
    assert first.cost.llm_calls == 7 and second.cost.llm_calls == 0
    assert second.cost.cache_hits == 7
    assert len(script.prompts) == 7
    assert {k: v.score for k, v in first.metrics.items()} == {
        k: v.score for k, v in second.metrics.items()
    }
    prompt = script.prompts[0]
    key = cache_key("scripted", prompt)
    assert (tmp_path / key[:2] / f"{key}.json").is_file()
    other = judge_from_callable(ScriptedJudge(), name="another-model")
    assert run(registry, other, judgeCache=str(tmp_path)).cost.llm_calls == 7


def test_repeats_report_mean_spread_and_pass_rate(registry):
    replies = iter(["0.2", "0.8", "0.9", "oops"])
    judge = judge_from_callable(lambda prompt: next(replies), name="noisy")
    result = run(
        registry, judge, ["answer_relevance"], repeats=4, thresholds={"answer_relevance": 0.5}
    )
    relevance = result.metrics["answer_relevance"]
    assert relevance.score == pytest.approx((0.2 + 0.8 + 0.9) / 3)
    assert relevance.details["scores"] == [0.2, 0.8, 0.9]
    assert relevance.details["spread"] == pytest.approx(0.7)
    assert relevance.details["runPassRate"] == 0.5  # 2 of 4 runs pass; the unusable one doesn't
    assert result.cost.llm_calls == 4 and result.cost.parse_failures == 1
    assert "spread 0.700" in relevance.explanation


def test_prompt_overrides(registry):
    script = ScriptedJudge()
    judge = judge_from_callable(lambda p: script(p) if p.startswith("Rate") else "0.4", "j")
    template = "Score relevance of {answer!r} to {question!r} as a bare number."
    result = run(
        registry, judge, ["answer_relevance"], promptOverrides={"answerRelevance": template}
    )
    assert result.metrics["answer_relevance"].score == 0.4
    with pytest.raises(assay.AssayError) as excinfo:
        run(
            registry,
            judge,
            ["answer_relevance"],
            promptOverrides={"answer_relevance": "uses {nothing}"},
        )
    assert excinfo.value.path == "options.promptOverrides.answer_relevance.rate"
    with pytest.raises(assay.AssayError) as excinfo:
        run(registry, judge, ["faithfulness"], promptOverrides={"faithfulness": {"x": "y"}})
    assert excinfo.value.path == "options.promptOverrides.faithfulness.x"


def test_default_templates_name_only_the_fields_their_step_provides():
    fields = {
        name
        for steps in DEFAULT_TEMPLATES.values()
        for t in steps.values()
        for name in re.findall(r"(?<!\{)\{(\w+)\}(?!\})", t)
    }
    assert fields <= {"question", "answer", "context", "chunk", "claims", "sentences", "count"}


def test_batch_cost_is_summed_across_samples(registry):
    judge = judge_from_callable(ScriptedJudge(), name="scripted")
    batch = evaluate_batch(
        [SAMPLE, {**SAMPLE, "id": "s2"}],
        ["answer_relevance"],
        {"mode": "llm", "judge": judge},
        registry=registry,
    )
    assert batch.total_cost.llm_calls == 2


def test_callable_judge_contract():
    judge = judge_from_callable(lambda p: assay.JudgeReply("x", 3, 1))
    assert judge.name == "callable:<lambda>"
    assert judge.complete("p").prompt_tokens == 3
    with pytest.raises(assay.AssayError) as excinfo:
        judge_from_callable(lambda p: 3).complete("p")
    assert excinfo.value.code == "JUDGE_ERROR"
    with pytest.raises(assay.AssayError) as excinfo:
        judge_from_callable("not callable")
    assert excinfo.value.code == "JUDGE_MISCONFIGURED"


def test_registry_holds_llm_metrics_and_judge_factories(registry):
    assert registry.names("llm-metric") == [
        "faithfulness",
        "answer_relevance",
        "context_precision",
        "context_recall",
    ]
    assert registry.names("judge-factory") == ["openai", "anthropic"]
    assert isinstance(registry.get("llm-metric", "faithfulness"), assay.Metric)
