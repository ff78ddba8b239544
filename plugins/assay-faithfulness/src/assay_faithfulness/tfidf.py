"""TF-IDF vectors, cosine similarity and token F1 (rag-eval-node-ts 0.3 primitives).

The IDF corpus is the query plus the documents (N = documents + 1); a term's document frequency
counts every text of that corpus containing it. ``idf = ln((N + 1) / (df + 1)) + 1`` (with
V8's logarithm, :func:`~assay_faithfulness.jsnumbers.js_log`), ``tf = count / token count``.
Vectors are dicts in first-occurrence order and are not normalised; that order is the order in
which floating-point sums run.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import partial, reduce
from operator import add

from assay_faithfulness._compiled import COMPILED, _speedups
from assay_faithfulness.jsnumbers import js_log
from assay_faithfulness.text import tokenize

__all__ = [
    "PairSide",
    "TfIdfVectors",
    "build_tfidf_vectors",
    "cosine_similarity",
    "pair_cosine",
    "pair_side",
    "tfidf_similarity",
    "token_f1",
]


TfIdfVectors = tuple[dict[str, float], list[dict[str, float]]]

_IDF_IN_BOTH = js_log(3 / 3) + 1
_IDF_IN_ONE = js_log(3 / 2) + 1


def _weights(tokens: Sequence[str], idf: Mapping[str, float]) -> dict[str, float]:
    length = len(tokens)
    return {term: (count / length) * idf[term] for term, count in Counter(tokens).items()}


def build_tfidf_vectors(query: str, documents: Sequence[str]) -> TfIdfVectors:
    """``(query_vector, document_vectors)`` over the corpus ``[query, *documents]``."""
    token_lists = [tokenize(query), *(tokenize(d) for d in documents)]
    corpus_size = len(token_lists)
    document_frequency: Counter[str] = Counter()
    for tokens in token_lists:
        document_frequency.update(set(tokens))
    idf = {
        term: js_log((corpus_size + 1) / (df + 1)) + 1 for term, df in document_frequency.items()
    }
    vectors = [_weights(tokens, idf) for tokens in token_lists]
    return vectors[0], vectors[1:]


def cosine_similarity(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """Cosine of two sparse vectors; 0 when either has zero norm.

    The dot product and ``a``'s squared norm are accumulated together in ``a``'s order, ``b``'s
    squared norm in ``b``'s order.
    """
    dot = 0.0
    norm_a = 0.0
    for term, value in a.items():
        other = b.get(term)
        if other is not None:
            dot += value * other
        norm_a += value * value
    norm_b = 0.0
    for value in b.values():
        norm_b += value * value
    if norm_a == 0 or norm_b == 0:
        return 0.0
    return dot / (math.sqrt(norm_a) * math.sqrt(norm_b))


def tfidf_similarity(query: str, document: str) -> float:
    """TF-IDF cosine of two texts in their own two-text corpus."""
    query_vector, (document_vector,) = build_tfidf_vectors(query, [document])
    return cosine_similarity(query_vector, document_vector)


def token_f1(reference: str, hypothesis: str) -> float:
    """Token-level F1 with multiset intersection; 0 if either side has no tokens or none shared."""
    return token_f1_of_tokens(tokenize(reference), tokenize(hypothesis))


def token_f1_of_tokens(reference: Sequence[str], hypothesis: Sequence[str]) -> float:
    """:func:`token_f1` on already tokenized texts."""
    return token_f1_of_counts(
        Counter(reference), len(reference), Counter(hypothesis), len(hypothesis)
    )


def token_f1_of_counts(
    reference_counts: Mapping[str, int],
    reference_length: int,
    hypothesis_counts: Mapping[str, int],
    hypothesis_length: int,
) -> float:
    """:func:`token_f1` from token counts and token totals."""
    if not reference_length or not hypothesis_length:
        return 0.0
    shared = hypothesis_counts.keys() & reference_counts.keys()
    common = sum(
        map(
            min,
            map(hypothesis_counts.__getitem__, shared),
            map(reference_counts.__getitem__, shared),
        )
    )
    if common == 0:
        return 0.0
    precision = common / hypothesis_length
    recall = common / reference_length
    return 2 * precision * recall / (precision + recall)


def count_tokens(tokens: Sequence[str]) -> Counter[str]:
    """Token -> count, in first-occurrence order: ``Counter(tokens)``, the reference of the
    compiled ``count_tokens``."""
    if COMPILED and type(tokens) is list:
        return _speedups.count_tokens(tokens)
    return Counter(tokens)


def _reduce_sum(values: Sequence[float]) -> float:
    return reduce(add, values, 0.0)


if sys.version_info < (3, 12):
    # Before 3.12, sum() adds floats one after the other in a C double: exactly the reference's
    # left-to-right loop, and ten times faster than reduce(add, ...).
    sequential_sum = partial(sum, start=0.0)
else:
    # From 3.12, sum() compensates rounding errors (Neumaier), which changes the last bits.
    sequential_sum = _reduce_sum
sequential_sum.__doc__ = "``((0.0 + v0) + v1) + ...``: the plain left-to-right float sum."


class PairSide:
    """One text's side of a two-text TF-IDF cosine, computed once per text.

    Attributes:
        counts: token -> count, in first-occurrence order.
        length: the number of tokens.
    """

    __slots__ = ("_squares_alone", "_terms", "counts", "length")

    def __init__(self, counts: Mapping[str, int], length: int) -> None:
        self.counts = counts
        self.length = length
        self._terms: list[str] | None = None
        self._squares_alone: list[float] | None = None

    @property
    def terms(self) -> list[str]:
        """The tokens of ``counts``, in order (computed on first use)."""
        if self._terms is None:
            self._terms = list(self.counts)
        return self._terms

    @property
    def squares_alone(self) -> list[float]:
        """Per token, ``((count / length) * idf)**2`` (as a product) with the IDF of a term only
        this text holds (computed on first use; the compiled cosine computes them as it goes)."""
        if self._squares_alone is None:
            self._squares_alone = pair_side_squares(self.counts, self.length)
        return self._squares_alone

    def __repr__(self) -> str:
        return f"PairSide(counts={self.counts!r}, length={self.length})"


def pair_side(counts: Mapping[str, int], length: int) -> PairSide:
    """The :class:`PairSide` of a text with these token ``counts`` and ``length`` tokens."""
    return PairSide(counts, length)


def pair_side_squares(counts: Mapping[str, int], length: int) -> list[float]:
    """``PairSide.squares_alone`` of a text with these token ``counts`` and ``length``."""
    # A square depends only on the count: computed once per distinct count (mostly 1 and 2).
    square_of_count = {}
    for count in set(counts.values()):
        alone = (count / length) * _IDF_IN_ONE
        square_of_count[count] = alone * alone
    return list(map(square_of_count.__getitem__, counts.values()))


def pair_cosine(query: PairSide, document: PairSide) -> float:
    """:func:`tfidf_similarity` of two texts from their precomputed sides, bit for bit.

    In a two-text corpus a term's IDF is ``ln(3/3) + 1`` when both texts hold it, else
    ``ln(3/2) + 1``. The query (the short question) is walked term by term, as the reference
    does; the document's squared norm is the same left-to-right sum of the same squares, taken
    from the precomputed list with the shared terms' squares put in their place.
    """
    query_length, document_length = query.length, document.length
    if query_length == 0 or document_length == 0:
        return 0.0
    document_counts = document.counts
    dot = 0.0
    norm_query = 0.0
    shared_squares: dict[str, float] = {}
    for term, count in query.counts.items():
        other = document_counts.get(term)
        if other is None:
            value = (count / query_length) * _IDF_IN_ONE
        else:
            value = (count / query_length) * _IDF_IN_BOTH
            shared = (other / document_length) * _IDF_IN_BOTH
            dot += value * shared
            shared_squares[term] = shared * shared
        norm_query += value * value
    if not shared_squares:
        return 0.0  # dot == 0: the cosine is 0 whatever the norms
    # Each document term's square, the shared terms' with their own IDF, summed in order.
    squares = map(shared_squares.get, document.terms, document.squares_alone)
    norm_document = sequential_sum(list(squares))
    return dot / (math.sqrt(norm_query) * math.sqrt(norm_document))


PURE_PAIR_COSINE = pair_cosine
"""The pure-Python :func:`pair_cosine`: the reference of its compiled twin."""
if COMPILED:
    _speedups.bind_idf(_IDF_IN_BOTH, _IDF_IN_ONE)
    pair_cosine = _speedups.pair_cosine
