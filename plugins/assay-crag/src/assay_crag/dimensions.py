"""The four context-quality signals of the specification as :class:`assay.Dimension` objects.

Each scores a retrieval (:class:`~assay_crag.inputs.QualityInput`, or its wire mapping) in [0, 1]:
``max_points`` is 1, so ``raw`` is the sub-score itself. The formulas are the specification's; where
the specification could leave [0, 1] (scores outside [0, 1], a bottom score above the top one, a
negative score) the value is clamped, the clamp is named in ``breakdown.adjustments`` and an input
problem also becomes a warning.

| name | default weight | formula (specification) |
|---|---|---|
| ``retrievalConfidence`` | 0.30 | 0.7 * mean(rerankScore ?? score) + 0.3 * (last / first) |
| ``contextSufficiency`` | 0.30 | 0.6 * query-term coverage + 0.4 * min(tokens / (terms * 50), 1) |
| ``diversityScore`` | 0.15 | 0.6 * unique documents / chunks + 0.4 * unique sections / chunks |
| ``estimatedFaithfulness`` | 0.25 | 0.4 * factual density + 0.6 * min(1.5 * top score, 1) |
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import assay
from assay_crag.inputs import QualityInput, RankedChunk, parse_quality_input
from assay_crag.text import query_terms

__all__ = [
    "MISSING_SCORE",
    "ContextSufficiency",
    "DiversityScore",
    "EstimatedFaithfulness",
    "RetrievalConfidence",
    "context_dimensions",
]

# The specification's expressions, used as they are when the text holds non-ASCII whitespace.
_NUMBER = re.compile(r"[0-9]+")
_DATE = re.compile(r"[0-9]{4}[-/][0-9]{2}[-/][0-9]{2}|[A-Za-z0-9_]+ [0-9]{1,2},? [0-9]{4}")
_PROPER_NOUN = re.compile(r"[A-Z][a-z]+(?:\s[A-Z][a-z]+)*")
_WHITESPACE = re.compile(r"\s+")
_NON_ASCII_SPACES = tuple(chr(c) for c in range(128, 0x3001) if chr(c).isspace())


def _class_table() -> bytes:
    """bytes.translate table onto character classes: A-Z -> U, a-z -> l, 0-9 -> 9, space stays,
    other ASCII whitespace -> tab, ``-`` ``/`` ``,`` ``_`` stay, any other byte (other
    punctuation, and every byte of a non-ASCII character) -> '.'."""
    table = bytearray(b"." * 256)
    for code in range(128):
        char = chr(code)
        if "A" <= char <= "Z":
            table[code] = ord("U")
        elif "a" <= char <= "z":
            table[code] = ord("l")
        elif "0" <= char <= "9":
            table[code] = ord("9")
        elif char in " -/,_":
            table[code] = code
        elif char.isspace():
            table[code] = ord("\t")
    return bytes(table)


_CLASSES = _class_table()
_DIGITS_ONLY = bytes(code if code == ord("9") else ord(" ") for code in range(256))
_CLASS_PROPER_NOUN = re.compile(rb"Ul+(?:[ \t]Ul+)*")
_CLASS_YMD_DATE = re.compile(rb"9999[-/]99[-/]99")
_CLASS_DATE_TAIL = re.compile(rb" 99?,? 9999")
_CLASS_WORD = frozenset(b"Ul9_")


def _count_dates(classes: bytes) -> int:
    """The specification's two date forms, on the class bytes: ``YYYY-MM-DD`` (or ``/``) and
    ``<word> D[D][,] DDDD`` ("March 5, 2020"). The second is found from its numeric tail, then
    the word before it is checked, starting no earlier than the end of the previous match, as a
    left-to-right regular-expression scan does ("May 30, 1896December 26, 1977" holds two). The
    specification runs both forms as one alternation; the counts differ only when a ``YYYY-MM-DD``
    date is directly followed by ``" D, DDDD"``."""
    count = len(_CLASS_YMD_DATE.findall(classes))
    consumed = 0
    for match in _CLASS_DATE_TAIL.finditer(classes):
        start = match.start()
        while start > consumed and classes[start - 1] in _CLASS_WORD:
            start -= 1
        if start < match.start():
            count += 1
            consumed = match.end()
    return count


def _fact_counts(text: str) -> tuple[int, int, int, int]:
    r"""(numbers, dates, proper nouns, words) of ``text`` as the specification's expressions count
    them: ``/\d+/g``, the date expression (see :func:`_count_dates`) and
    ``/[A-Z][a-z]+(?:\s[A-Z][a-z]+)*/g`` matches, and ``text.split(/\s+/).length`` (an empty text
    has 1 word, a blank one 2).

    For speed the text's UTF-8 bytes are mapped to character classes (:func:`_class_table`) and
    counted there; this gives the same numbers because every byte of a non-ASCII character maps
    to a class that is neither letter, digit nor space. Text holding non-ASCII whitespace takes
    the specification's regular expressions directly."""
    if any(space in text for space in _NON_ASCII_SPACES):
        return (
            len(_NUMBER.findall(text)),
            len(_DATE.findall(text)),
            len(_PROPER_NOUN.findall(text)),
            len(_WHITESPACE.split(text)),
        )
    classes = text.encode("utf-8").translate(_CLASSES)
    numbers = len(classes.translate(_DIGITS_ONLY).split())
    dates = _count_dates(classes)
    proper_nouns = len(_CLASS_PROPER_NOUN.findall(classes))
    if b"\t" in classes:
        classes = classes.replace(b"\t", b" ")
    while b"  " in classes:
        classes = classes.replace(b"  ", b" ")
    return numbers, dates, proper_nouns, classes.count(b" ") + 1


# Characters whose str.lower() holds an ASCII letter: KELVIN SIGN -> "k" and LATIN CAPITAL
# LETTER I WITH DOT ABOVE -> "i" + combining dot. Only they make bytes.lower() (ASCII only)
# disagree with str.lower() when looking for ASCII terms.
_LOWERS_TO_ASCII = ("\u212a", "\u0130")


def _covered_terms(terms: Sequence[str], text: str) -> list[str]:
    """The terms that occur in ``text.lower()`` (substrings, in order). ASCII terms are looked
    up in the ASCII-lower-cased UTF-8 bytes, which finds the same occurrences and is faster for
    non-ASCII text."""
    if all(t.isascii() for t in terms) and not any(c in text for c in _LOWERS_TO_ASCII):
        haystack = text.encode("utf-8").lower()
        return [t for t in terms if t.encode("ascii") in haystack]
    lowered = text.lower()
    return [t for t in terms if t in lowered]


def _clamp01(value: float) -> float:
    return 0.0 if value < 0.0 else 1.0 if value > 1.0 else value


def _finish(
    name: str,
    components: dict[str, float],
    explanation: str,
    diagnostics: dict[str, Any],
    warnings: Sequence[assay.ScoreWarning] = (),
) -> assay.DimensionScore:
    """A :class:`assay.DimensionScore` on a 0-1 scale from named components, clamped to [0, 1]
    (the clamp, when it changed the value, is recorded as an adjustment)."""
    uncapped = sum(components.values())
    raw = _clamp01(uncapped)
    adjustments = {} if raw == uncapped else {"clampTo01": raw - uncapped}
    breakdown = assay.DimensionBreakdown(
        components=components,
        adjustments=adjustments,
        diagnostics=diagnostics,
        uncapped_raw=uncapped,
        raw=raw,
    )
    return assay.DimensionScore(
        raw=raw,
        max=1.0,
        normalized=float(math.floor(raw * 100 + 0.5)),
        explanation=f"{name}: {explanation}",
        breakdown=breakdown,
        warnings=tuple(warnings),
    )


class _ContextDimension(assay.Dimension):
    """Shared plumbing: parse the wire mapping once, then score the parsed input."""

    tier = 1
    max_points = 1.0

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        """Score a retrieval given as a wire mapping (or a :class:`QualityInput`); ``config`` is
        not read by these formulas. Raises ``MALFORMED_INPUT`` as
        :func:`~assay_crag.inputs.parse_quality_input` does."""
        return self.score_input(parse_quality_input(inputs))

    def score_input(self, quality_input: QualityInput) -> assay.DimensionScore:
        """Score an already parsed retrieval."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


MISSING_SCORE = "missing-retrieval-score"
"""Warning code: a sub-score needed a retriever score that a chunk does not have (counted as 0)."""


def _missing_score(paths: Sequence[str], message: str) -> list[assay.ScoreWarning]:
    """A ``missing-retrieval-score`` warning at the first of ``paths`` (none when empty)."""
    if not paths:
        return []
    return [assay.ScoreWarning(code=MISSING_SCORE, severity="warn", message=message, path=paths[0])]


def _score_warnings(chunks: Sequence[RankedChunk]) -> list[assay.ScoreWarning]:
    warnings = []
    for i, chunk in enumerate(chunks):
        for field, value in (("score", chunk.score), ("rerankScore", chunk.rerank_score)):
            if value is not None and not 0.0 <= value <= 1.0:
                warnings.append(
                    assay.ScoreWarning(
                        code="score-out-of-range",
                        severity="warn",
                        message=f"{field} {value:g} is outside [0, 1]; clamped",
                        path=f"chunks[{i}].{field}",
                    )
                )
    return warnings


class RetrievalConfidence(_ContextDimension):
    """How relevant the retrieved chunks look to the retriever.

    ``0.7 * mean(s) + 0.3 * spread`` where ``s`` is each chunk's ``rerankScore`` (or ``score``
    when no reranker ran) clamped to [0, 1], and ``spread = s_last / s_first`` (0 when the first
    is 0; clamped to at most 1 when the list is not sorted). No chunks: 0. A chunk with neither
    score counts as 0, with a ``missing-retrieval-score`` warning.
    """

    name = "retrievalConfidence"
    default_weight = 0.3

    def score_input(self, quality_input: QualityInput) -> assay.DimensionScore:
        chunks = quality_input.chunks
        if not chunks:
            return _finish(self.name, {}, "no chunks were retrieved", {"chunkCount": 0})
        given = [c.rerank_score if c.rerank_score is not None else c.score for c in chunks]
        scores = [0.0 if s is None else _clamp01(s) for s in given]
        missing = [f"chunks[{i}].score" for i, s in enumerate(given) if s is None]
        mean = sum(scores) / len(scores)
        top, bottom = scores[0], scores[-1]
        spread = min(bottom / top, 1.0) if top > 0 else 0.0
        return _finish(
            self.name,
            {"meanScore": mean * 0.7, "scoreSpread": spread * 0.3},
            f"mean score {mean:.3f} over {len(scores)} chunks, last/first {spread:.3f}",
            {
                "chunkCount": len(scores),
                "meanScore": mean,
                "topScore": top,
                "bottomScore": bottom,
                "rerankedChunks": sum(c.rerank_score is not None for c in chunks),
            },
            _score_warnings(chunks)
            + _missing_score(
                missing,
                f"no retriever score (score or rerankScore) on {len(missing)} of {len(chunks)} "
                f"chunk(s); {self.name} counts them as 0",
            ),
        )


class ContextSufficiency(_ContextDimension):
    """Whether the assembled context covers the query.

    ``0.6 * coverage + 0.4 * density``: ``coverage`` is the share of query terms (see
    :func:`~assay_crag.text.query_terms`) found as substrings of the lower-cased context;
    ``density = min(tokenCount / (terms * 50), 1)``. Empty context: 0. No query terms: 0.5.
    """

    name = "contextSufficiency"
    default_weight = 0.3

    def score_input(self, quality_input: QualityInput) -> assay.DimensionScore:
        context = quality_input.context
        if not context.text:
            return _finish(self.name, {}, "the context is empty", {"termCount": None})
        terms = query_terms(quality_input.query)
        if not terms:
            return _finish(
                self.name,
                {"noQueryTerms": 0.5},
                "the query has no content terms; neutral 0.5",
                {"termCount": 0},
            )
        covered = _covered_terms(terms, context.text)
        coverage = len(covered) / len(terms)
        density = min(context.token_count / (len(terms) * 50), 1.0)
        return _finish(
            self.name,
            {"termCoverage": coverage * 0.6, "tokenDensity": density * 0.4},
            f"{len(covered)} of {len(terms)} query terms in the context, "
            f"{context.token_count} tokens",
            {
                "termCount": len(terms),
                "coveredTerms": covered,
                "missingTerms": [t for t in terms if t not in covered],
                "tokenCount": context.token_count,
            },
        )


class DiversityScore(_ContextDimension):
    """Whether the chunks come from several sources.

    ``0.6 * unique documentIds / chunks + 0.4 * unique sections / chunks``, where a chunk's
    section is ``metadata.sectionTitle`` or, when absent or null, its ``documentId``. Zero or
    one chunk: 0.
    """

    name = "diversityScore"
    default_weight = 0.15

    def score_input(self, quality_input: QualityInput) -> assay.DimensionScore:
        chunks = quality_input.chunks
        if len(chunks) <= 1:
            return _finish(
                self.name, {}, f"{len(chunks)} chunk(s): no diversity", {"chunkCount": len(chunks)}
            )
        documents = {c.document_id for c in chunks}
        sections = {
            c.metadata.get("sectionTitle")
            if c.metadata.get("sectionTitle") is not None
            else c.document_id
            for c in chunks
        }
        n = len(chunks)
        return _finish(
            self.name,
            {
                "documentDiversity": len(documents) / n * 0.6,
                "sectionDiversity": len(sections) / n * 0.4,
            },
            f"{len(documents)} documents and {len(sections)} sections over {n} chunks",
            {"chunkCount": n, "uniqueDocuments": len(documents), "uniqueSections": len(sections)},
        )


class EstimatedFaithfulness(_ContextDimension):
    """A pre-generation guess of how groundable the context is.

    ``0.4 * density + 0.6 * min(1.5 * score_first, 1)``, where
    ``density = min((numbers + 2 * dates + proper nouns) / (words / 100) * 0.1, 1)`` over the
    chunks' contents joined by spaces (the specification's regular expressions, ASCII digits and
    letters; see ``_count_dates`` for one corner where the date count may differ), and
    ``score_first`` is the first chunk's retriever ``score`` clamped to [0, 1] (0, with a
    ``missing-retrieval-score`` warning, when it has none). No chunks: 0.
    """

    name = "estimatedFaithfulness"
    default_weight = 0.25

    def score_input(self, quality_input: QualityInput) -> assay.DimensionScore:
        chunks = quality_input.chunks
        if not chunks:
            return _finish(self.name, {}, "no chunks were retrieved", {"chunkCount": 0})
        text = " ".join(c.content for c in chunks)
        numbers, dates, proper_nouns, words = _fact_counts(text)
        density = min((numbers + dates * 2 + proper_nouns) / (words / 100) * 0.1, 1.0)
        first = chunks[0].score
        top = 0.0 if first is None else _clamp01(first)
        missing = ["chunks[0].score"] if first is None else []
        confidence = min(top * 1.5, 1.0)
        return _finish(
            self.name,
            {"factualDensity": density * 0.4, "topScoreConfidence": confidence * 0.6},
            f"factual density {density:.3f} ({numbers} numbers, {dates} dates, "
            f"{proper_nouns} proper nouns in {words} words), top score {top:.3f}",
            {"numbers": numbers, "dates": dates, "properNouns": proper_nouns, "words": words},
            _missing_score(
                missing, f"the top chunk has no retriever score; {self.name} counts it as 0"
            ),
        )


def context_dimensions() -> tuple[_ContextDimension, ...]:
    """Fresh instances of the four dimensions, in the specification's order."""
    return (RetrievalConfidence(), ContextSufficiency(), DiversityScore(), EstimatedFaithfulness())
