"""Work is shared across the metrics of one sample: with the seven assay-faithfulness metrics,
each piece of per-sample work (the text analysis, the parsed options) is computed once per
sample, not once per metric."""

from __future__ import annotations

import pytest

import assay
from assay_evaluation import evaluate

pytest.importorskip("assay_faithfulness", reason="needs the assay-faithfulness plugin installed")

SAMPLE = {
    "question": "Who wrote Frankenstein?",
    "answer": "Mary Shelley wrote Frankenstein. It appeared in 1818.",
    "contexts": ["Frankenstein is an 1818 novel written by Mary Shelley."],
    "groundTruth": "Mary Shelley.",
}


def test_seven_metrics_share_one_analysis_per_sample():
    registry = assay.build_registry(env={"ASSAY_PLUGINS": "faithfulness"})
    seen = []

    class Probe:
        id = "probe"
        default_threshold = 0.5
        higher_is_better = True
        requires = frozenset()

        def compute(self, sample, context, threshold):
            seen.append(context.computed)
            return assay.MetricResult(self.id, 1.0, True, threshold, "probe")

    registry.register(Probe())
    seven = list(registry.get("metric-set", "default"))
    evaluate(SAMPLE, [*seven, "probe"], registry=registry)
    shared_after_seven = seen[-1]
    evaluate(SAMPLE, [seven[0], "probe"], registry=registry)
    shared_after_one = seen[-1]
    assert len(seven) == 7
    assert 1 <= shared_after_seven == shared_after_one  # the six others added no recomputation
