"""The retrieval-side metrics compatible with rag-eval-node-ts 0.3: context precision, context
recall and context relevance. Formulas, cut-offs and wording follow the reference exactly (see
docs/metrics.md)."""

from __future__ import annotations

from assay_faithfulness.analysis import SampleAnalysis
from assay_faithfulness.base import HeuristicMetric, Measured, Signal
from assay_faithfulness.jsnumbers import js_number_text, to_fixed3
from assay_faithfulness.ngrams import running_max, weighted_overlaps
from assay_faithfulness.options import HeuristicOptions

__all__ = ["ContextPrecision", "ContextRecall", "ContextRelevance"]

LOW_RELEVANCE = 0.3
"""Context precision lists chunks whose TF-IDF similarity is below this."""
COVERAGE = 0.3
"""Context recall counts a ground-truth sentence as covered at this unigram overlap or more."""


class ContextPrecision(HeuristicMetric):
    """Are the retrieved chunks about the question? Mean over chunks of the TF-IDF cosine of
    question and chunk, each pair in its own two-text corpus; 0 with no chunks."""

    id = "context_precision"
    wire_id = "contextPrecision"
    default_threshold = 0.7

    def measure(self, analysis: SampleAnalysis, options: HeuristicOptions) -> Measured:
        contexts = analysis.sample.contexts
        if not contexts:
            return Measured(0.0, "No context chunks provided.")
        similarities = analysis.question.similarities(contexts, analysis.contexts)
        total = 0.0
        for value in similarities:
            total += value
        score = total / len(contexts)
        low = [i for i, value in enumerate(similarities) if value < LOW_RELEVANCE]
        signals: tuple[Signal, ...] = ()
        if low:
            signals = (
                Signal(
                    "context-precision-low-relevance-chunks",
                    "info",
                    f"Context chunk(s) with low relevance (< 0.3): indices "
                    f"[{', '.join(map(str, low))}].",
                ),
            )
        return Measured(
            score,
            f"Average TF-IDF relevance of {len(contexts)} context chunk(s) to the question: "
            f"{to_fixed3(score)}.",
            signals,
            {"chunk_relevance": similarities},
        )


class ContextRecall(HeuristicMetric):
    """Do the chunks cover the ground truth? Fraction of ground-truth sentences whose best
    unigram Jaccard with any chunk is at least 0.3; undetermined without a ground truth."""

    id = "context_recall"
    wire_id = "contextRecall"
    default_threshold = 0.7
    requires = frozenset({"ground_truth"})

    def measure(self, analysis: SampleAnalysis, options: HeuristicOptions) -> Measured:
        if not analysis.has_ground_truth:
            return Measured(None, "groundTruth is required for contextRecall but was not provided.")
        sentences = analysis.ground_truth_sentences
        if not sentences or not analysis.sample.contexts:
            return Measured(0.0, "No ground truth sentences or context chunks to evaluate.")
        covered = sum(
            1
            for row in analysis.context_overlaps("ground_truth_sentences", 1)
            if running_max(row) >= COVERAGE
        )
        score = covered / len(sentences)
        return Measured(
            score,
            f"{covered}/{len(sentences)} ground truth sentence(s) covered by contexts "
            f"(overlap >= 0.3): score={to_fixed3(score)}.",
            (),
            {"covered": covered, "sentences": len(sentences)},
        )


class ContextRelevance(HeuristicMetric):
    """How many chunks are relevant? Fraction of chunks whose weighted n-gram overlap with the
    question is at least ``chunk_relevance_threshold`` (0.2); 0 with no chunks."""

    id = "context_relevance"
    wire_id = "contextRelevance"
    default_threshold = 0.6

    def measure(self, analysis: SampleAnalysis, options: HeuristicOptions) -> Measured:
        contexts = analysis.sample.contexts
        if not contexts:
            return Measured(0.0, "No context chunks provided.")
        sizes, weights = options.ngram_sizes, options.resolved_weights
        rows_by_size = [analysis.context_overlaps("question", n)[0] for n in sizes]
        cut = options.chunk_relevance_threshold
        values = weighted_overlaps(rows_by_size, weights, len(contexts))
        relevant = sum(1 for value in values if value >= cut)
        score = relevant / len(contexts)
        return Measured(
            score,
            f"{relevant}/{len(contexts)} context chunk(s) meet relevance threshold "
            f"(>= {js_number_text(cut)}): score={to_fixed3(score)}.",
            (),
            {"relevant": relevant, "chunks": len(contexts)},
        )
