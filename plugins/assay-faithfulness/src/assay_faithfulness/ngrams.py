"""N-grams and set Jaccard overlap (rag-eval-node-ts 0.3 primitives).

Overlap is a Jaccard index over *sets* of n-grams: duplicates count once, two empty sets score
exactly 1.0 and one empty set 0.0. The weighted form is ``sum(overlap_n * w_n) / sum(w_n)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Any

from assay_faithfulness._compiled import COMPILED, _speedups
from assay_faithfulness.text import tokenize

__all__ = [
    "DEFAULT_NGRAM_SIZES",
    "DEFAULT_NGRAM_WEIGHTS",
    "best_weighted_overlaps",
    "get_ngrams",
    "jaccard",
    "ngram_overlap",
    "ngram_set",
    "overlap_rows",
    "running_max",
    "weighted_ngram_overlap",
    "weighted_overlaps",
]


DEFAULT_NGRAM_SIZES: tuple[int, ...] = (1, 2)
DEFAULT_NGRAM_WEIGHTS: tuple[float, ...] = (0.7, 0.3)


def get_ngrams(tokens: Sequence[str], n: int) -> list[str]:
    """The n-grams of ``tokens`` joined with single spaces, in order.

    Fewer than ``n`` tokens give ``[]``; ``n == 0`` gives ``len(tokens) + 1`` empty strings.
    """
    return [" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def ngram_set(tokens: Sequence[str], n: int) -> frozenset[str]:
    """The set of the distinct n-grams of ``tokens`` (as :func:`get_ngrams` spells them)."""
    if n == 1:
        return string_set(tokens)
    if n == 2:
        if COMPILED and type(tokens) is list:
            return _speedups.bigram_set(tokens)
        return bigram_set_pure(tokens)
    if n > 2:
        return frozenset(map(" ".join, zip(*(tokens[i:] for i in range(n)), strict=False)))
    return frozenset(get_ngrams(tokens, n))


def string_set(strings: Iterable[str]) -> frozenset[str]:
    """``frozenset(strings)``; the compiled twin also spares the garbage collector from walking
    a set of strings (it cannot be part of a reference cycle)."""
    if COMPILED:
        return _speedups.string_set(strings)
    return frozenset(strings)


def bigram_set_pure(tokens: Sequence[str]) -> frozenset[str]:
    """The set of distinct bigrams of ``tokens``: the pure-Python reference of the compiled
    ``bigram_set``."""
    return frozenset(map(" ".join, pairwise(tokens)))


def jaccard(a: frozenset[Any] | set[Any], b: frozenset[Any] | set[Any]) -> float:
    """``|a & b| / |a | b|``; 1.0 when both are empty, 0.0 when only one is."""
    if not a:
        return 1.0 if not b else 0.0
    if not b:
        return 0.0
    common = len(a & b)
    return common / (len(a) + len(b) - common)


def ngram_overlap(a: str, b: str, n: int = 1) -> float:
    """Jaccard similarity of the n-gram sets of the texts ``a`` and ``b``.

    ``ngram_overlap("the cat sat", "the cat ran") == 0.5``.
    """
    return jaccard(ngram_set(tokenize(a), n), ngram_set(tokenize(b), n))


def resolve_weights(
    sizes: Sequence[int] | None, weights: Sequence[float] | None
) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """Sizes and one weight per size: missing fields take the defaults ([1, 2], [0.7, 0.3]),
    a size with no weight at its index gets weight 1, extra weights are ignored."""
    sizes = DEFAULT_NGRAM_SIZES if sizes is None else tuple(sizes)
    weights = DEFAULT_NGRAM_WEIGHTS if weights is None else tuple(weights)
    return sizes, tuple(
        weights[i] if i < len(weights) and weights[i] is not None else 1.0
        for i in range(len(sizes))
    )


def weighted_overlap_of_sets(
    sets_a: Sequence[frozenset[Any]],
    sets_b: Sequence[frozenset[Any]],
    weights: Sequence[float],
) -> float:
    """``sum(jaccard(a_i, b_i) * w_i) / sum(w_i)``, summed left to right; 0 when the weights sum
    to exactly 0 (or there are none)."""
    total = 0.0
    weight_sum = 0.0
    for set_a, set_b, weight in zip(sets_a, sets_b, weights, strict=True):
        total += jaccard(set_a, set_b) * weight
        weight_sum += weight
    return 0.0 if weight_sum == 0 else total / weight_sum


def overlap_rows(
    sets_a: Sequence[frozenset[Any]], sets_b: Sequence[frozenset[Any]]
) -> list[list[float]]:
    """``rows[i][j] == jaccard(sets_a[i], sets_b[j])``: every overlap of two lists of texts,
    computed once and shared by the metrics that need them."""
    rows = []
    for a in sets_a:
        size_a = len(a)
        row = []
        for b in sets_b:
            if a and b:
                common = len(a & b)
                row.append(common / (size_a + len(b) - common))
            else:
                row.append(0.0 if a or b else 1.0)
        rows.append(row)
    return rows


def weighted_overlaps(
    overlaps_by_size: Sequence[Sequence[float]], weights: Sequence[float], count: int
) -> list[float]:
    """Weighted overlaps of one text with ``count`` candidates from its overlaps at each size
    (``overlaps_by_size[k][c]``): ``sum_k(overlap * w_k) / sum_k(w_k)``, summed left to right
    exactly as :func:`weighted_overlap_of_sets`; all 0 when the weights sum to 0 (or there are
    no sizes)."""
    weight_sum = 0.0
    for weight in weights:
        weight_sum += weight
    if weight_sum == 0:
        return [0.0] * count
    sizes = range(len(weights))
    values = []
    for c in range(count):
        total = 0.0
        for k in sizes:
            total += overlaps_by_size[k][c] * weights[k]
        values.append(total / weight_sum)
    return values


def best_weighted_overlaps(
    rows_by_size: Sequence[Sequence[Sequence[float]]],
    weights: Sequence[float],
    texts: int,
    count: int,
) -> list[float]:
    """For each of ``texts`` texts, the :func:`running_max` of its :func:`weighted_overlaps`
    with the ``count`` candidates, from its overlaps at each size (``rows_by_size[k][i][c]``)."""
    return [
        running_max(weighted_overlaps([rows[i] for rows in rows_by_size], weights, count))
        for i in range(texts)
    ]


PURE_OVERLAP_ROWS = overlap_rows
"""The pure-Python :func:`overlap_rows`: the reference of its compiled twin."""
PURE_WEIGHTED_OVERLAPS = weighted_overlaps
"""The pure-Python :func:`weighted_overlaps`: the reference of its compiled twin."""
PURE_BEST_WEIGHTED_OVERLAPS = best_weighted_overlaps
"""The pure-Python :func:`best_weighted_overlaps`: the reference of its compiled twin."""
if COMPILED:
    overlap_rows = _speedups.overlap_rows
    weighted_overlaps = _speedups.weighted_overlaps
    best_weighted_overlaps = _speedups.best_weighted_overlaps


def running_max(values: Sequence[float]) -> float:
    """The reference's maximum: starts at 0 and moves only to a strictly larger value."""
    best = 0.0
    for value in values:
        if value > best:
            best = value
    return best


def weighted_ngram_overlap(
    a: str,
    b: str,
    ngram_sizes: Sequence[int] | None = None,
    weights: Sequence[float] | None = None,
) -> float:
    """Weighted mean of :func:`ngram_overlap` over ``ngram_sizes`` (default [1, 2] with weights
    [0.7, 0.3]). Weights are used as given (not normalised, negatives allowed)."""
    sizes, resolved = resolve_weights(ngram_sizes, weights)
    tokens_a, tokens_b = tokenize(a), tokenize(b)
    return weighted_overlap_of_sets(
        [ngram_set(tokens_a, n) for n in sizes],
        [ngram_set(tokens_b, n) for n in sizes],
        resolved,
    )
