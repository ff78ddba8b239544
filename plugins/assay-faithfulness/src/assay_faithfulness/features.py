"""Features of one text (tokens, token counts, n-gram sets), memoized across samples.

Retrieved chunks repeat across the samples of a dataset (the same passage is retrieved for many
questions: in the conformance samples, 1,141 context slots hold 465 distinct texts), so the work
on a passage (or question) is keyed by the text itself and kept in a bounded LRU cache. The features are a pure
function of the text: the cache changes speed, never a score.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from assay_faithfulness.ngrams import ngram_set, string_set
from assay_faithfulness.text import tokenize
from assay_faithfulness.tfidf import PairSide, count_tokens, pair_side

__all__ = [
    "SENTENCE_CACHE_SIZE",
    "TEXT_CACHE_SIZE",
    "TextFeatures",
    "clear_text_cache",
    "sentence_features",
    "text_features",
]

TEXT_CACHE_SIZE = 1024
"""How many distinct passages (and questions) keep their features: about 12 kB each for a
35-word passage, about 100 kB for a 300-word one, so at most about 100 MB."""
SENTENCE_CACHE_SIZE = 4096
"""How many distinct answer / ground-truth sentences keep theirs (a few kB each), in a cache of
their own so that sentences never evict passages."""


class TextFeatures:
    """Tokens of one text and what is derived from them, each computed on first use.

    Attributes:
        tokens: :func:`~assay_faithfulness.tokenize` of the text.
    """

    __slots__ = ("_counts", "_pair_side", "_sets", "tokens")

    def __init__(self, text: str) -> None:
        self.tokens = tokenize(text)
        self._counts: Counter[str] | None = None
        self._sets: dict[int, frozenset[Any]] = {}
        self._pair_side: PairSide | None = None

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
            if n == 1:
                # the distinct tokens: from the counts when they are already gathered
                found = string_set(self.tokens if self._counts is None else self._counts)
            else:
                found = ngram_set(self.tokens, n)
            self._sets[n] = found
        return found


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def text_features(text: str) -> TextFeatures:
    """The (shared, memoized) features of a passage or question; treat them as read-only."""
    return TextFeatures(text)


@lru_cache(maxsize=SENTENCE_CACHE_SIZE)
def sentence_features(text: str) -> TextFeatures:
    """The (shared, memoized) features of an answer or ground-truth sentence."""
    return TextFeatures(text)


def clear_text_cache() -> None:
    """Forget every memoized text (benchmarks use it to time cold runs)."""
    text_features.cache_clear()
    sentence_features.cache_clear()
