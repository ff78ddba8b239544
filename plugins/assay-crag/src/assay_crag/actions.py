"""Corrective actions of CRAG: query decomposition, keyword reformulation, knowledge refinement.

Each is a plain function with a documented contract, so a router can take any replacement with
the same signature:

* ``decompose(query) -> tuple[str, ...]`` (:func:`decompose_query`)
* ``reformulate(query) -> str`` (:func:`reformulate_query`)
* ``refine(query, documents, scorer) -> RefinedContext`` (:func:`refine_knowledge`)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import attrs

import assay
from assay_crag.scorers import DocumentScorer
from assay_crag.text import STOP_WORDS, split_sentences

__all__ = [
    "KnowledgeStrip",
    "RefinedContext",
    "decompose_query",
    "refine_knowledge",
    "reformulate_query",
]

# Clause boundaries of a compound question: a connective word, a semicolon, or a question mark
# followed by another question.
_CONNECTIVE = re.compile(r"\s*(?:,\s*)?\b(?:and also|and|or|also|additionally)\b\s*", re.I)
_LEADING_CONNECTIVE = re.compile(r"^\s*(?:and also|and|or|also|additionally)\b[\s,]*", re.I)
_QUESTION_BREAK = re.compile(r"(?<=\?)\s+(?=\S)|\s*;\s*")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_LEADING_QUESTION = re.compile(
    r"^(?:what|how|when|where|who|whom|whose|which|why|is|are|was|were|can|could|do|does|did|"
    r"will|would|should)\s+",
    re.I,
)


def _topic_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text) if len(w) > 2 and w.lower() not in STOP_WORDS]


def _is_meaningful(part: str, min_topic_words: int) -> bool:
    return len(part) > 10 and len(_topic_words(part)) >= min_topic_words


_OWN_CLAUSE = re.compile(
    r"^(?:what|how|when|where|who|whom|which|why|list|explain|describe|give|name|compare|"
    r"summari[sz]e|show|tell)\s+",
    re.I,
)
"""How a piece after a connective opens when it asks something of its own: a question word
(``what is its population``) or a request (``explain its dosage``). Not an auxiliary or
``whose``: after a connective those continue the question before (``the player who ... and
was head coach``, ``the university whose main campus ... and whose branch campuses``)."""


def _splits(pieces: list[str], min_topic_words: int) -> bool:
    """Whether a question split at its connectives gives questions of their own: every piece
    meaningful, and every piece after the first opening as a question or request. A comparison
    (``Were Scott Derrickson and Ed Wood of the same nationality?``) or a title (``Romeo and
    Juliet``) joins names, not questions, and stays whole."""
    return (
        len(pieces) > 1
        and all(_is_meaningful(p, min_topic_words) for p in pieces)
        and all(_OWN_CLAUSE.match(p) for p in pieces[1:])
    )


def decompose_query(query: str, min_topic_words: int = 1) -> tuple[str, ...]:
    """Sub-queries of a compound question, or variant phrasings of a simple one.

    The query is first split into separate questions (at ``?`` followed by more text, and at ``;``),
    then each question at the connectives *and*, *or*, *also*, *additionally*. A split is kept only
    if every piece is longer than 10 characters (the specification's rule), has at least
    ``min_topic_words`` topic words (words of three or more letters that are not stop words), and
    every piece after the first asks something of its own (opens with a question word such as
    *what* or a request such as *explain*). So "What is the capital of France and what is its
    population?" becomes two questions, while "Who wrote Romeo and Juliet?" and the comparison
    "Were Scott Derrickson and Ed Wood of the same nationality?" stay whole (a fragment such as
    "Ed Wood of the same nationality?" would retrieve nothing useful). Pieces are trimmed, end with ``?``
    when the query did, start with a capital letter, and are unique.

    When nothing splits, the specification's three variants are returned: the query itself,
    ``"What information exists about: <query>"`` and ``"<query without ?> details and
    specifics"``. An empty or blank query returns ``()``.
    """
    query = query.strip()
    if not query:
        return ()
    asks = query.endswith("?")
    parts: list[str] = []
    for question in _QUESTION_BREAK.split(query):
        question = _LEADING_CONNECTIVE.sub("", question)
        pieces = [p.strip(" ,") for p in _CONNECTIVE.split(question) if p.strip(" ,")]
        if _splits(pieces, min_topic_words):
            parts.extend(pieces)
        elif question.strip():
            parts.append(question.strip())
    if len(parts) > 1:
        shaped = [p[0].upper() + p[1:] for p in parts]
        shaped = [p if p.endswith("?") or not asks else p.rstrip(".") + "?" for p in shaped]
        return tuple(dict.fromkeys(shaped))
    bare = query.rstrip("?").strip()
    return tuple(
        dict.fromkeys(
            [query, f"What information exists about: {query}", f"{bare} details and specifics"]
        )
    )


def reformulate_query(query: str) -> str:
    """A keyword search query for supplemental search.

    The specification's rewrite (drop one leading question word, drop the trailing ``?``) followed
    by keyword extraction: the words that are not stop words, in order, first occurrence only, with
    their original spelling. When no keyword is left the specification's rewrite is returned.
    """
    stripped = _LEADING_QUESTION.sub("", query.strip()).rstrip("?").strip()
    seen: dict[str, str] = {}
    for word in _WORD.findall(stripped):
        if len(word) > 1 and word.lower() not in STOP_WORDS:
            seen.setdefault(word.lower(), word)
    return " ".join(seen.values()) or stripped


def _strip_tuple(value: Iterable[KnowledgeStrip]) -> tuple[KnowledgeStrip, ...]:
    """Typed tuple converter (keeps mypy aware of the element type)."""
    return tuple(value)


@attrs.frozen
class KnowledgeStrip:
    """One window of consecutive sentences from a document.

    Attributes:
        document_index: 0-based index of the source document.
        first_sentence: 0-based index of its first sentence in that document.
        text: the sentences joined by single spaces.
        score: its relevance to the query (0 when the scorer could not tell).
    """

    document_index: int
    first_sentence: int
    text: str
    score: float


@attrs.frozen
class RefinedContext:
    """Knowledge refinement's result: the kept strips, recomposed.

    Attributes:
        text: the kept strips in document order, joined by newlines.
        strips: the kept strips, in document order.
        considered: how many strips were scored.
    """

    text: str
    strips: tuple[KnowledgeStrip, ...] = attrs.field(converter=_strip_tuple)
    considered: int

    def to_wire(self) -> dict[str, object]:
        """JSON shape: ``{text, considered, strips: [{documentIndex, firstSentence, text,
        score}]}``."""
        return {
            "text": self.text,
            "considered": self.considered,
            "strips": [
                {
                    "documentIndex": s.document_index,
                    "firstSentence": s.first_sentence,
                    "text": s.text,
                    "score": s.score,
                }
                for s in self.strips
            ],
        }


def _strips(documents: Sequence[str], window: int) -> list[tuple[int, int, str]]:
    strips = []
    for d, document in enumerate(documents):
        sentences = split_sentences(document)
        for start in range(0, len(sentences), window):
            strips.append((d, start, " ".join(sentences[start : start + window])))
    return strips


def refine_knowledge(
    query: str,
    documents: Sequence[str],
    scorer: DocumentScorer,
    *,
    window: int = 1,
    top_k: int = 5,
    min_score: float = 0.0,
) -> RefinedContext:
    """Knowledge refinement (CRAG, decompose-then-recompose): split each document into strips of
    ``window`` consecutive sentences (see :func:`assay_crag.text.split_sentences`), score every
    strip against the query with ``scorer``, keep the ``top_k`` best whose score is greater than
    ``min_score`` (ties: earlier strip first), and recompose them in document order.

    :raises assay.AssayError: ``INVALID_CONFIG`` when ``window`` or ``top_k`` is below 1.
    """
    if window < 1:
        raise assay.AssayError(assay.ErrorCode.INVALID_CONFIG, "must be >= 1", "window")
    if top_k < 1:
        raise assay.AssayError(assay.ErrorCode.INVALID_CONFIG, "must be >= 1", "topK")
    strips = _strips(documents, window)
    scores = scorer.score_documents(query, [text for _, _, text in strips]) if strips else ()
    scored = [
        KnowledgeStrip(d, start, text, 0.0 if score is None else float(score))
        for (d, start, text), score in zip(strips, scores, strict=True)
    ]
    ranked = sorted(range(len(scored)), key=lambda i: -scored[i].score)
    keep = sorted(i for i in ranked[:top_k] if scored[i].score > min_score)
    kept = [scored[i] for i in keep]
    return RefinedContext("\n".join(s.text for s in kept), kept, len(scored))
