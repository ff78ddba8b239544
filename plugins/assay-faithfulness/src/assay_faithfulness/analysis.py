"""Per-sample text analysis shared by every metric of one sample (tokenize once, not per metric).

:func:`analyse` validates the sample's fields and returns a :class:`SampleAnalysis` whose parts
(tokens, sentences, n-gram sets, token counts) are computed on first use and then reused. Metrics
obtain it through ``context.shared(ANALYSIS_KEY, ...)`` so that all metrics of a sample share one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar, overload

import assay
from assay_faithfulness.codes import INVALID_CONTEXTS, INVALID_SAMPLE, MISSING_ANSWER
from assay_faithfulness.features import TextFeatures, sentence_features, text_features
from assay_faithfulness.ngrams import ngram_set, overlap_rows, string_set
from assay_faithfulness.text import split_sentences
from assay_faithfulness.tfidf import PairSide, count_tokens, pair_side

__all__ = [
    "ANALYSIS_KEY",
    "SampleAnalysis",
    "analyse",
    "check_contexts",
    "shared_analysis",
    "validate_sample",
]

ANALYSIS_KEY = "assay_faithfulness.analysis"

T = TypeVar("T")


def validate_sample(sample: Any) -> None:
    """Check the fields the metrics read.

    :raises assay.AssayError: with the field path: ``MISSING_ANSWER`` when ``answer`` is missing
        or not a string; ``INVALID_CONTEXTS`` when ``contexts`` is not a list of strings;
        ``INVALID_SAMPLE`` when ``question`` is not a string or ``ground_truth`` is neither
        ``None`` nor a string. (The same codes as the evaluation runner's.)
    """
    answer = getattr(sample, "answer", None)
    if not isinstance(answer, str):
        what = "has no answer" if answer is None else f"answer must be a string, got {answer!r}"
        raise assay.AssayError(MISSING_ANSWER, f"the sample {what}", "answer")
    question = getattr(sample, "question", None)
    if not isinstance(question, str):
        raise assay.AssayError(
            INVALID_SAMPLE, f"question must be a string, got {type(question).__name__}", "question"
        )
    check_contexts(getattr(sample, "contexts", None))
    ground_truth = getattr(sample, "ground_truth", None)
    if ground_truth is not None and not isinstance(ground_truth, str):
        raise assay.AssayError(
            INVALID_SAMPLE,
            f"groundTruth must be a string or absent, got {type(ground_truth).__name__}",
            "groundTruth",
        )


def check_contexts(contexts: Any) -> None:
    """:raises assay.AssayError: ``INVALID_CONTEXTS`` at ``contexts`` when ``contexts`` is not a
    list (sequence) of strings, at ``contexts[i]`` for the first item that is no string."""
    plain = type(contexts) is tuple or type(contexts) is list  # no abstract-class check needed
    if not plain and (isinstance(contexts, str) or not isinstance(contexts, Sequence)):
        raise assay.AssayError(
            INVALID_CONTEXTS,
            f"contexts must be a list of strings, got {type(contexts).__name__}",
            "contexts",
        )
    for index, context in enumerate(contexts):
        if type(context) is not str and not isinstance(context, str):
            raise assay.AssayError(
                INVALID_CONTEXTS,
                f"every context must be a string, got {type(context).__name__}",
                f"contexts[{index}]",
            )


class _lazy(Generic[T]):
    """A computed-once attribute without :func:`functools.cached_property`'s lock (Python 3.11
    takes an RLock on every first access; an analysis belongs to one sample and one thread)."""

    def __init__(self, compute: Callable[[Any], T]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    @overload
    def __get__(self, instance: None, owner: type) -> _lazy[T]: ...
    @overload
    def __get__(self, instance: object, owner: type) -> T: ...
    def __get__(self, instance: object | None, owner: type) -> T | _lazy[T]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.compute(instance)
        return value


class SampleAnalysis:
    """Text features of one validated sample, each computed on first use: the features of its
    question, contexts, answer sentences and ground-truth sentences, and what is derived from
    them.

    Per-text work (tokens, counts, n-gram sets) comes from
    :func:`~assay_faithfulness.features.text_features`, so a passage that recurs across samples
    is processed once.

    Attributes:
        sample: the analysed sample.
        has_ground_truth: ``False`` when the ground truth is missing or the empty string
            (rag-eval-node-ts treats both as "not provided"; a whitespace-only one counts as
            provided).
        question: features of the question.
        contexts: features of each context.
        answer_sentences: the answer's sentences; ``answer_parts``: their features.
        ground_truth_sentences: the ground truth's sentences (none without one);
            ``ground_truth_parts``: their features.
    """

    def __init__(self, sample: assay.EvalSample) -> None:
        self.sample = sample
        self.has_ground_truth = bool(sample.ground_truth)
        self._sets: dict[tuple[str, int], list[frozenset[Any]]] = {}
        self._overlaps: dict[tuple[str, int], list[list[float]]] = {}

    # Computed on first use, not when the analysis is made: a metric that reads only some of
    # them (claim_support reads none of the contexts' features) must not pay for the others.
    @_lazy
    def question(self) -> TextFeatures:
        return text_features(self.sample.question)

    @_lazy
    def contexts(self) -> list[TextFeatures]:
        return [text_features(context) for context in self.sample.contexts]

    @_lazy
    def answer_sentences(self) -> list[str]:
        return split_sentences(self.sample.answer)

    @_lazy
    def answer_parts(self) -> list[TextFeatures]:
        """Features of each answer sentence."""
        return [sentence_features(sentence) for sentence in self.answer_sentences]

    @_lazy
    def ground_truth_sentences(self) -> list[str]:
        return split_sentences(self.sample.ground_truth or "")

    @_lazy
    def ground_truth_parts(self) -> list[TextFeatures]:
        """Features of each ground-truth sentence."""
        return [sentence_features(sentence) for sentence in self.ground_truth_sentences]

    # Sentences are cut at whitespace, which also separates tokens, and lowercasing never looks
    # across whitespace; so a text's tokens are its sentences' tokens, one after the other. A
    # one-sentence text (most answers) is its sentence: its memoized features serve as they are.
    @_lazy
    def answer_tokens(self) -> list[str]:
        return _joined_tokens(self.answer_parts)

    @_lazy
    def ground_truth_tokens(self) -> list[str]:
        return _joined_tokens(self.ground_truth_parts)

    @_lazy
    def ground_truth_counts(self) -> Counter[str]:
        parts = self.ground_truth_parts
        if len(parts) == 1:
            return parts[0].counts
        return count_tokens(self.ground_truth_tokens)

    @_lazy
    def answer_pair_side(self) -> PairSide:
        """The answer's side of a two-text TF-IDF cosine."""
        parts = self.answer_parts
        if len(parts) == 1:
            return parts[0].pair_side
        return pair_side(count_tokens(self.answer_tokens), len(self.answer_tokens))

    def ngram_sets(self, part: str, n: int) -> list[frozenset[Any]]:
        """The n-gram sets of every text of ``part``: ``"question"``, ``"answer"``,
        ``"ground_truth"`` (one set each), ``"contexts"``, ``"answer_sentences"`` or
        ``"ground_truth_sentences"`` (one set per text)."""
        sets = self._sets.get((part, n))
        if sets is None:
            sets = self._sets[part, n] = self._compute_sets(part, n)
        return sets

    def context_overlaps(self, part: str, n: int) -> list[list[float]]:
        """``rows[i][c]``: the n-gram overlap of the i-th text of ``part`` with context c
        (computed once per sample: faithfulness and hallucination rate share the unigram
        rows of the answer sentences)."""
        rows = self._overlaps.get((part, n))
        if rows is None:
            rows = self._overlaps[part, n] = overlap_rows(
                self.ngram_sets(part, n), self.ngram_sets("contexts", n)
            )
        return rows

    def _compute_sets(self, part: str, n: int) -> list[frozenset[Any]]:
        if part == "question":
            return [self.question.ngrams(n)]
        attribute = _PER_TEXT_PARTS.get(part)
        if attribute is not None:
            texts: list[TextFeatures] = getattr(self, attribute)
            return [features.ngrams(n) for features in texts]
        if part == "answer":
            return [_whole_text_set(self.answer_parts, self.answer_tokens, n)]
        if part == "ground_truth":
            return [_whole_text_set(self.ground_truth_parts, self.ground_truth_tokens, n)]
        raise KeyError(part)


_PER_TEXT_PARTS = {
    "contexts": "contexts",
    "answer_sentences": "answer_parts",
    "ground_truth_sentences": "ground_truth_parts",
}
"""The parts of :meth:`SampleAnalysis.ngram_sets` with one set per text -> the attribute of
:class:`SampleAnalysis` holding their features."""


def _joined_tokens(parts: list[TextFeatures]) -> list[str]:
    """The tokens of a text from its sentences' features (the one sentence's own list when
    there is only one: treat it as read-only)."""
    if len(parts) == 1:
        return parts[0].tokens
    return [token for part in parts for token in part.tokens]


def _whole_text_set(parts: list[TextFeatures], tokens: list[str], n: int) -> frozenset[Any]:
    """The n-gram set of a whole text from its sentences' features and its tokens (n-grams may
    span two sentences, unigrams not: the unigram set is the union of the sentences')."""
    if len(parts) == 1:
        return parts[0].ngrams(n)
    if n == 1:
        return string_set(tokens)
    return ngram_set(tokens, n)


def analyse(sample: assay.EvalSample) -> SampleAnalysis:
    """Validate ``sample`` (see :func:`validate_sample`) and return its analysis."""
    validate_sample(sample)
    return SampleAnalysis(sample)


def shared_analysis(sample: assay.EvalSample, context: assay.MetricContext) -> SampleAnalysis:
    """The sample's analysis, computed once per sample through ``context.shared``.

    A context that (wrongly) outlives its sample does not leak another sample's analysis: the
    cached analysis is used only when it belongs to this very sample object.
    """
    analysis: SampleAnalysis = context.shared(ANALYSIS_KEY, lambda: analyse(sample))
    if analysis.sample is not sample:
        analysis = analyse(sample)
    return analysis
