"""Features of one text (tokens, token counts, n-gram sets), memoized across samples.

Retrieved chunks repeat across the samples of a dataset (the same passage is retrieved for many
questions: in the conformance samples, 1,141 context slots hold 465 distinct texts), so the work
on a passage (or question) is keyed by the text itself and kept in a bounded LRU cache. The features are a pure
function of the text: the cache changes speed, never a score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from assay_faithfulness._compiled import COMPILED, _speedups
from assay_faithfulness.ngrams import bigram_set_pure, ngram_set
from assay_faithfulness.text import separator_table, split_tokens_pure
from assay_faithfulness.tfidf import PairSide, count_tokens, pair_cosine, pair_side

__all__ = [
    "SENTENCE_CACHE_SIZE",
    "TEXT_CACHE_SIZE",
    "TextFeatures",
    "clear_text_cache",
    "sentence_features",
    "text_features",
    "text_profile",
    "text_profile_pure",
]

TEXT_CACHE_SIZE = 1024
"""How many distinct passages (and questions) keep their features: about 12 kB each for a
35-word passage, about 100 kB for a 300-word one, so at most about 100 MB."""
SENTENCE_CACHE_SIZE = 4096
"""How many distinct answer / ground-truth sentences keep theirs (a few kB each), in a cache of
their own so that sentences never evict passages."""


class TextFeatures:
    """Tokens of one text and what is derived from them.

    The tokens, the unigram and bigram sets and (for passages and questions) the token counts
    come from one pass over the text (:func:`text_profile`); the rest is computed on first use.

    Attributes:
        tokens: :func:`~assay_faithfulness.tokenize` of the text.
    """

    __slots__ = ("_counts", "_pair_side", "_sets", "_similar", "_similar_to", "tokens")

    def __init__(self, text: str, with_counts: bool = True) -> None:
        tokens, counts, unigrams, bigrams = text_profile(text.lower(), with_counts)
        self.tokens = tokens
        self._counts = counts
        self._sets: dict[int, frozenset[Any]] = {1: unigrams, 2: bigrams}
        self._pair_side: PairSide | None = None
        self._similar_to: tuple[str, ...] | None = None
        self._similar: tuple[float, ...] = ()

    @property
    def counts(self) -> Counter[str]:
        """Token -> count, in first-occurrence order."""
        if self._counts is None:
            self._counts = count_tokens(self.tokens)
        return self._counts

    @property
    def pair_side(self) -> PairSide:
        """This text's side of a two-text TF-IDF cosine (see :func:`~.tfidf.pair_cosine`)."""
        if self._pair_side is None:
            self._pair_side = pair_side(self.counts, len(self.tokens))
        return self._pair_side

    def ngrams(self, n: int) -> frozenset[Any]:
        """The set of distinct n-grams (see :func:`~assay_faithfulness.ngrams.ngram_set`)."""
        found = self._sets.get(n)
        if found is None:
            found = self._sets[n] = ngram_set(self.tokens, n)
        return found

    def similarities(self, texts: Sequence[str], features: Sequence[TextFeatures]) -> list[float]:
        """The two-text TF-IDF cosine (:func:`~.tfidf.pair_cosine`) of this text with each of
        ``texts``, whose features are ``features``, as a new list.

        The cosines of the last ``texts`` asked for are kept: a question often comes with the
        same passages several times in a row (one sample per answer to compare).
        """
        key = tuple(texts)  # a list could change after it was asked for
        if self._similar_to != key:
            unigrams = self._sets[1]
            # A text that shares no token with this one has cosine 0: its TF-IDF side (token
            # counts and squares) is then not needed at all.
            self._similar = tuple(
                [
                    0.0
                    if unigrams.isdisjoint(other._sets[1])
                    else pair_cosine(self.pair_side, other.pair_side)
                    for other in features
                ]
            )
            self._similar_to = key
        return list(self._similar)


def text_profile(
    lowered: str, with_counts: bool
) -> tuple[list[str], Counter[str] | None, frozenset[str], frozenset[str]]:
    """``(tokens, counts, unigrams, bigrams)`` of an already lowercased text: its tokens, their
    counts (``None`` unless ``with_counts``), and its sets of distinct unigrams and bigrams."""
    if COMPILED:
        return _speedups.text_profile(lowered, separator_table(), with_counts)
    return text_profile_pure(lowered, with_counts)


def text_profile_pure(
    lowered: str, with_counts: bool
) -> tuple[list[str], Counter[str] | None, frozenset[str], frozenset[str]]:
    """:func:`text_profile` from the pure-Python kernels: the reference of the compiled
    ``text_profile``."""
    tokens = split_tokens_pure(lowered)
    counts = Counter(tokens) if with_counts else None
    return tokens, counts, frozenset(tokens), bigram_set_pure(tokens)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def text_features(text: str) -> TextFeatures:
    """The (shared, memoized) features of a passage or question; treat them as read-only."""
    return TextFeatures(text)


@lru_cache(maxsize=SENTENCE_CACHE_SIZE)
def sentence_features(text: str) -> TextFeatures:
    """The (shared, memoized) features of an answer or ground-truth sentence (token counts
    computed only when asked for)."""
    return TextFeatures(text, with_counts=False)


def clear_text_cache() -> None:
    """Forget every memoized text (benchmarks use it to time cold runs)."""
    text_features.cache_clear()
    sentence_features.cache_clear()
