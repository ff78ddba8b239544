"""evaluate() reuses its last plan only while everything the plan was resolved from is
unchanged: the registry, the metric ids or objects, their members and the options."""

from __future__ import annotations

import pytest

import assay
from assay_evaluation import evaluate
from assay_evaluation._options import parse_options
from assay_evaluation._plan_memo import PlanMemo

SAMPLE = assay.EvalSample(question="q?", answer="one two three", contexts=["c"])


class Length:
    """A metric object with plain, changeable members."""

    requires = frozenset()

    def __init__(self, metric_id: str = "length", threshold: float = 0.5) -> None:
        self.id = metric_id
        self.default_threshold = threshold
        self.higher_is_better = True

    def compute(self, sample, context, threshold):
        score = min(1.0, len(sample.answer) / 20)
        return assay.MetricResult(self.id, score, score >= threshold, threshold, "length")


def test_the_same_request_gets_the_same_plan():
    memo, registry, options = PlanMemo(), assay.Registry(), parse_options(None)
    registry.register(Length())
    first = memo.plan(["length"], options, registry)
    assert memo.plan(("length",), parse_options({}), registry) is first
    assert memo.plan(["length"], parse_options({"compositeThreshold": 0.7}), registry) is not first


def test_a_registration_or_a_changed_metric_resolves_again():
    memo, registry, options = PlanMemo(), assay.Registry(), parse_options(None)
    length = Length()
    registry.register(length)
    first = memo.plan(["length"], options, registry)
    length.default_threshold = 0.9  # changed in place
    changed = memo.plan(["length"], options, registry)
    assert changed is not first and changed.steps[0].threshold == 0.9
    registry.register(Length(), provider="other")  # now ambiguous: resolved again, and refused
    with pytest.raises(assay.AssayError) as refused:
        memo.plan(["length"], options, registry)
    assert refused.value.code == "AMBIGUOUS_NAME"


def test_metric_objects_are_reused_only_when_they_are_the_same_object():
    memo, registry, options = PlanMemo(), assay.Registry(), parse_options(None)
    one, other = Length(), Length(threshold=0.8)
    first = memo.plan([one], options, registry)
    assert memo.plan([one], options, registry) is first
    assert memo.plan([other], options, registry).steps[0].metric is other


def test_evaluate_sees_a_metric_registered_between_calls():
    registry = assay.Registry()
    registry.register(Length())
    assert list(evaluate(SAMPLE, ["length"], registry=registry).metrics) == ["length"]
    registry.register(Length("length_two"))
    result = evaluate(SAMPLE, ["length", "length_two"], registry=registry)
    assert list(result.metrics) == ["length", "length_two"]
    assert result.sample is SAMPLE  # an EvalSample in the right shape is used as it is
