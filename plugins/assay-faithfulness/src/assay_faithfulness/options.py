"""Heuristic tuning options (rag-eval-node-ts 0.3 ``HeuristicOptions``), read from
``options["heuristic"]``."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import attrs

import assay
from assay_faithfulness.codes import INVALID_OPTION
from assay_faithfulness.ngrams import DEFAULT_NGRAM_SIZES, DEFAULT_NGRAM_WEIGHTS, resolve_weights

__all__ = [
    "DEFAULT_OPTIONS",
    "HEURISTIC_OPTIONS_KEY",
    "MAX_NGRAM_SIZE",
    "MAX_NGRAM_SIZES",
    "HeuristicOptions",
    "heuristic_options",
]

HEURISTIC_OPTIONS_KEY = "heuristic"

MAX_NGRAM_SIZE = 32
"""The largest n-gram size accepted in ``ngramSizes`` (larger sizes cost memory and time and
match nothing in practice)."""
MAX_NGRAM_SIZES = 16
"""The most entries accepted in ``ngramSizes`` and ``ngramWeights``."""

_FIELDS = {
    "ngramSizes": "ngram_sizes",
    "ngramWeights": "ngram_weights",
    "claimSupportThreshold": "claim_support_threshold",
    "chunkRelevanceThreshold": "chunk_relevance_threshold",
    # Accepted and ignored, as in the reference:
    "sentenceCoverageThreshold": None,
    "ngramWeight": None,
    "tfidfWeight": None,
}
_SNAKE = {
    "sentence_coverage_threshold": None,
    "ngram_weight": None,
    "tfidf_weight": None,
    **{v: v for v in _FIELDS.values() if v},
}


@attrs.frozen
class HeuristicOptions:
    """Tuning of the heuristic metrics; the defaults are the reference's.

    Attributes:
        ngram_sizes: n-gram sizes of the weighted overlap (faithfulness, context relevance).
        ngram_weights: one weight per size, used as given; a size without a weight at its index
            gets weight 1, extra weights are ignored.
        claim_support_threshold: a sentence whose best unigram overlap with any context is
            below this is unsupported (hallucination rate).
        chunk_relevance_threshold: a chunk whose weighted overlap with the question is at least
            this counts as relevant (context relevance).
    """

    ngram_sizes: tuple[int, ...] = DEFAULT_NGRAM_SIZES
    ngram_weights: tuple[float, ...] = DEFAULT_NGRAM_WEIGHTS
    claim_support_threshold: float = 0.15
    chunk_relevance_threshold: float = 0.2
    resolved_weights: tuple[float, ...] = attrs.field(init=False, eq=False, repr=False)
    """One weight per n-gram size (see ``ngram_weights``), worked out once."""

    @resolved_weights.default
    def _resolve(self) -> tuple[float, ...]:
        return resolve_weights(self.ngram_sizes, self.ngram_weights)[1]

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], path: str = "heuristic") -> HeuristicOptions:
        """Options from a mapping with wire (camelCase) or Python (snake_case) keys.

        ``None`` values fall back to the defaults; zero is a valid value. The reference's unused
        keys (``sentenceCoverageThreshold``, ``ngramWeight``, ``tfidfWeight``) are accepted and
        ignored.

        :raises assay.AssayError: ``INVALID_OPTION`` (with the key's path) for an unknown key, a
            size that is not an integer in [0, :data:`MAX_NGRAM_SIZE`], more than
            :data:`MAX_NGRAM_SIZES` sizes or weights, or a weight or threshold that is not a
            finite number.
        """
        kwargs: dict[str, Any] = {}
        for key, value in values.items():
            if key in _FIELDS:
                field = _FIELDS[key]
            elif key in _SNAKE:
                field = _SNAKE[key]
            else:
                raise assay.AssayError(
                    INVALID_OPTION,
                    f"unknown heuristic option {key!r} (known: {', '.join(_FIELDS)})",
                    f"{path}.{key}",
                )
            if field is None or value is None:
                continue
            kwargs[field] = _checked(field, value, f"{path}.{key}")
        return cls(**kwargs)


def _checked(field: str, value: Any, path: str) -> Any:
    if field in ("ngram_sizes", "ngram_weights") and (
        isinstance(value, list | tuple) and len(value) > MAX_NGRAM_SIZES
    ):
        raise assay.AssayError(
            INVALID_OPTION, f"at most {MAX_NGRAM_SIZES} entries, got {len(value)}", path
        )
    if field == "ngram_sizes":
        if not isinstance(value, list | tuple) or not all(
            isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= MAX_NGRAM_SIZE
            for n in value
        ):
            raise assay.AssayError(
                INVALID_OPTION,
                f"must be a list of integers in [0, {MAX_NGRAM_SIZE}], got {value!r:.200}",
                path,
            )
        return tuple(value)
    if field == "ngram_weights":
        if not isinstance(value, list | tuple) or not all(
            w is None or _is_finite_number(w) for w in value
        ):
            raise assay.AssayError(
                INVALID_OPTION, f"must be a list of numbers, got {value!r}", path
            )
        return tuple(value)
    if not _is_finite_number(value):
        raise assay.AssayError(INVALID_OPTION, f"must be a finite number, got {value!r}", path)
    return float(value)


def _is_finite_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


DEFAULT_OPTIONS = HeuristicOptions()

_OPTIONS_KEY = "assay_faithfulness.options"


def heuristic_options(context: assay.MetricContext) -> HeuristicOptions:
    """The heuristic options of ``context.options["heuristic"]`` (a mapping, a
    :class:`HeuristicOptions`, or absent for the defaults), parsed once per sample."""
    raw = context.options.get(HEURISTIC_OPTIONS_KEY) if context.options else None
    if not raw:
        return DEFAULT_OPTIONS
    if isinstance(raw, HeuristicOptions):
        return raw
    if not isinstance(raw, Mapping):
        raise assay.AssayError(
            INVALID_OPTION,
            f"must be a mapping of heuristic options, got {type(raw).__name__}",
            HEURISTIC_OPTIONS_KEY,
        )
    options: HeuristicOptions = context.shared(
        _OPTIONS_KEY, lambda: HeuristicOptions.from_mapping(raw)
    )
    return options
