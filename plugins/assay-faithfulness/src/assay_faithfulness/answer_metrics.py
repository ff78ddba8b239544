"""The answer-side metrics compatible with rag-eval-node-ts 0.3: faithfulness, answer relevance,
answer correctness and hallucination rate. Formulas, cut-offs and wording follow the reference
exactly (see docs/metrics.md)."""

from __future__ import annotations

from assay_faithfulness.analysis import SampleAnalysis
from assay_faithfulness.base import HeuristicMetric, Measured, Signal
from assay_faithfulness.jsnumbers import to_fixed3
from assay_faithfulness.ngrams import best_weighted_overlaps, jaccard, running_max
from assay_faithfulness.options import HeuristicOptions
from assay_faithfulness.tfidf import pair_cosine, token_f1_of_counts

__all__ = ["AnswerCorrectness", "AnswerRelevance", "Faithfulness", "HallucinationRate"]

LOW_SUPPORT = 0.3
"""Faithfulness flags a sentence whose best weighted overlap is below this."""
LOW_SCORE = 0.5
"""Answer relevance and answer correctness warn below this score."""


class Faithfulness(HeuristicMetric):
    """Is the answer supported by the contexts? Mean over answer sentences of the best weighted
    n-gram overlap with any context; 0 with no sentences or no contexts."""

    id = "faithfulness"
    wire_id = "faithfulness"
    default_threshold = 0.7

    def measure(self, analysis: SampleAnalysis, options: HeuristicOptions) -> Measured:
        sentences = analysis.answer_sentences
        if not sentences or not analysis.sample.contexts:
            return Measured(0.0, "No answer sentences or context chunks to evaluate.")
        sizes, weights = options.ngram_sizes, options.resolved_weights
        supports = best_weighted_overlaps(
            [analysis.context_overlaps("answer_sentences", n) for n in sizes],
            weights,
            len(sentences),
            len(analysis.sample.contexts),
        )
        signals: list[Signal] = []
        total = 0.0
        for i, (sentence, best) in enumerate(zip(sentences, supports, strict=True)):
            total += best
            if best < LOW_SUPPORT:
                signals.append(
                    Signal(
                        f"faithfulness-low-support-{i}",
                        "warning",
                        f"Answer sentence has low context support (overlap={to_fixed3(best)}).",
                        sentence,
                    )
                )
        score = total / len(sentences)
        return Measured(
            score,
            f"Average max-context overlap across {len(sentences)} answer sentence(s): "
            f"{to_fixed3(score)}.",
            tuple(signals),
            {"sentence_support": supports},
        )


class AnswerRelevance(HeuristicMetric):
    """Does the answer address the question? Mean of the TF-IDF cosine (two-text corpus) and the
    unigram Jaccard of question and answer."""

    id = "answer_relevance"
    wire_id = "answerRelevance"
    default_threshold = 0.7

    def measure(self, analysis: SampleAnalysis, options: HeuristicOptions) -> Measured:
        similarity = pair_cosine(analysis.question.pair_side, analysis.answer_pair_side)
        overlap = jaccard(
            analysis.ngram_sets("question", 1)[0], analysis.ngram_sets("answer", 1)[0]
        )
        score = (similarity + overlap) / 2
        signals: tuple[Signal, ...] = ()
        if score < LOW_SCORE:
            signals = (
                Signal(
                    "answer-relevance-low",
                    "warning",
                    f"Answer may not be relevant to the question (score={to_fixed3(score)}).",
                ),
            )
        return Measured(
            score,
            f"TF-IDF similarity: {to_fixed3(similarity)}, unigram overlap: "
            f"{to_fixed3(overlap)}, average: {to_fixed3(score)}.",
            signals,
            {"tfidf_similarity": similarity, "unigram_overlap": overlap},
        )


class AnswerCorrectness(HeuristicMetric):
    """Does the answer match the ground truth? 0.7 x token F1 + 0.3 x unigram Jaccard;
    undetermined without a (non-empty) ground truth."""

    id = "answer_correctness"
    wire_id = "answerCorrectness"
    default_threshold = 0.6
    requires = frozenset({"ground_truth"})

    def measure(self, analysis: SampleAnalysis, options: HeuristicOptions) -> Measured:
        if not analysis.has_ground_truth:
            return Measured(
                None, "groundTruth is required for answerCorrectness but was not provided."
            )
        f1 = token_f1_of_counts(
            analysis.ground_truth_counts,
            len(analysis.ground_truth_tokens),
            analysis.answer_pair_side.counts,
            len(analysis.answer_tokens),
        )
        overlap = jaccard(
            analysis.ngram_sets("answer", 1)[0], analysis.ngram_sets("ground_truth", 1)[0]
        )
        score = 0.7 * f1 + 0.3 * overlap
        signals: tuple[Signal, ...] = ()
        if score < LOW_SCORE:
            signals = (
                Signal(
                    "answer-correctness-low",
                    "warning",
                    f"Answer correctness is low (score={to_fixed3(score)}).",
                ),
            )
        return Measured(
            score,
            f"Token F1: {to_fixed3(f1)}, unigram overlap: {to_fixed3(overlap)}, blended score "
            f"(70%F1 + 30%ngram): {to_fixed3(score)}.",
            signals,
            {"token_f1": f1, "unigram_overlap": overlap},
        )


class HallucinationRate(HeuristicMetric):
    """How much of the answer is unsupported? ``1 - unsupported / sentences``, where a sentence is
    unsupported when its best unigram Jaccard with any context is below
    ``claim_support_threshold`` (0.15). No contexts, or no sentences, give 0."""

    id = "hallucination_rate"
    wire_id = "hallucinationRate"
    default_threshold = 0.7

    def measure(self, analysis: SampleAnalysis, options: HeuristicOptions) -> Measured:
        if not analysis.sample.contexts:
            return Measured(0.0, "No context chunks provided to evaluate against.")
        sentences = analysis.answer_sentences
        if not sentences:
            return Measured(0.0, "Answer produced no sentences to evaluate.")
        cut = options.claim_support_threshold
        signals: list[Signal] = []
        for i, row in enumerate(analysis.context_overlaps("answer_sentences", 1)):
            best = running_max(row)
            if best < cut:
                signals.append(
                    Signal(
                        f"hallucination-unsupported-{i}",
                        "critical",
                        "Answer sentence appears unsupported by any context "
                        f"(max overlap={to_fixed3(best)}).",
                        sentences[i],
                    )
                )
        rate = len(signals) / len(sentences)
        score = 1 - rate
        return Measured(
            score,
            f"{len(signals)}/{len(sentences)} answer sentence(s) appear unsupported "
            f"(hallucination rate={to_fixed3(rate)}, score={to_fixed3(score)}).",
            tuple(signals),
            {"unsupported": len(signals), "sentences": len(sentences)},
        )
