"""Small metrics shared by the evaluation tests (no tests here).

The test files import this module by name (``import test_evaluation_toys``) after putting this
folder on ``sys.path``, so that process pools can pickle the metrics by reference.
"""

from __future__ import annotations

import attrs

import assay


@attrs.frozen
class FunctionMetric:
    """A metric whose ``compute`` is ``function(sample, context, threshold)``."""

    id: str
    function: object
    default_threshold: float = 0.5
    higher_is_better: bool = True
    requires: frozenset[str] = frozenset()

    def compute(self, sample, context, threshold):
        return self.function(sample, context, threshold)


@attrs.frozen
class WrappedMetric:
    """A metric that passes its id, threshold, direction and requirements through to ``inner``;
    subclasses change what ``compute`` does around the inner metric's result."""

    inner: object

    @property
    def id(self):
        return self.inner.id

    @property
    def default_threshold(self):
        return self.inner.default_threshold

    @property
    def higher_is_better(self):
        return self.inner.higher_is_better

    @property
    def requires(self):
        return self.inner.requires

    def compute(self, sample, context, threshold):
        return self.inner.compute(sample, context, threshold)


@attrs.frozen
class CountingMetric(WrappedMetric):
    """Wraps a metric and appends each sample id it computes to ``calls`` (in-process only)."""

    calls: list = attrs.field(factory=list, eq=False)

    def compute(self, sample, context, threshold):
        self.calls.append(sample.id)
        return self.inner.compute(sample, context, threshold)


@attrs.frozen
class WordCount:
    """score = min(1, answer words / 10); counts how often it tokenized via ``context.shared``."""

    id: str = "word_count"
    default_threshold: float = 0.5
    higher_is_better: bool = True
    requires: frozenset[str] = frozenset()

    def compute(self, sample, context, threshold):
        words = context.shared("answer-words", lambda: sample.answer.split())
        score = min(1.0, len(words) / 10)
        return assay.MetricResult(
            self.id, score, score >= threshold, threshold, f"{len(words)} words"
        )


@attrs.frozen
class TruthOverlap:
    """Fraction of ground-truth words in the answer; undetermined without ground truth."""

    id: str = "truth_overlap"
    default_threshold: float = 0.5
    higher_is_better: bool = True
    requires: frozenset[str] = frozenset({"ground_truth"})

    def compute(self, sample, context, threshold):
        if not sample.ground_truth:
            return assay.MetricResult(self.id, None, None, threshold, "no ground truth")
        words = context.shared("answer-words", lambda: sample.answer.split())
        truth = sample.ground_truth.split()
        score = sum(w in words for w in truth) / len(truth)
        return assay.MetricResult(self.id, score, score >= threshold, threshold, "overlap")


@attrs.frozen
class ContextCount:
    """A lower-is-better metric: contexts / 10 (fewer contexts is better)."""

    id: str = "context_count"
    default_threshold: float = 0.3
    higher_is_better: bool = False
    requires: frozenset[str] = frozenset()

    def compute(self, sample, context, threshold):
        score = min(1.0, len(sample.contexts) / 10)
        return assay.MetricResult(self.id, score, score <= threshold, threshold, "contexts")


def toy_registry() -> assay.Registry:
    """A registry with only the three toy metrics (no installed plugins)."""
    registry = assay.build_registry(load_entry_points=False)
    for metric in (WordCount(), TruthOverlap(), ContextCount()):
        registry.register(metric)
    return registry


def toy_samples(n: int) -> list[dict]:
    """``n`` samples in wire shape: growing answers, every third without ground truth."""
    samples = []
    for i in range(n):
        sample = {
            "id": f"s{i}",
            "question": f"question {i}?",
            "answer": " ".join(["word"] * (i % 12) + ["alpha", "beta"]),
            "contexts": ["ctx"] * (i % 5),
        }
        if i % 3:
            sample["groundTruth"] = "alpha gamma"
        samples.append(sample)
    return samples
