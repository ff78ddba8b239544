"""Text helpers shared by the context-quality formulas and the corrective actions.

Pure functions on ``str``; no model, no I/O.
"""

from __future__ import annotations

import re

__all__ = [
    "QUERY_TERM_STOP_WORDS",
    "STOP_WORDS",
    "content_tokens",
    "query_terms",
    "split_sentences",
]

QUERY_TERM_STOP_WORDS = frozenset(
    [
        "the",
        "is",
        "at",
        "which",
        "on",
        "a",
        "an",
        "and",
        "or",
        "but",
        "in",
        "with",
        "to",
        "for",
        "of",
        "not",
        "no",
        "can",
        "had",
        "has",
        "have",
        "it",
        "that",
        "this",
        "was",
        "are",
        "be",
        "been",
        "from",
        "do",
        "does",
        "did",
        "will",
        "would",
        "could",
        "should",
        "may",
        "what",
        "how",
        "when",
        "where",
        "who",
        "why",
    ]
)
"""The specification's stop words (``extractQueryTerms``), used by context sufficiency."""

STOP_WORDS = QUERY_TERM_STOP_WORDS | frozenset(
    [
        "its",
        "his",
        "her",
        "their",
        "them",
        "they",
        "he",
        "she",
        "we",
        "you",
        "your",
        "our",
        "my",
        "me",
        "him",
        "us",
        "i",
        "about",
        "into",
        "than",
        "then",
        "there",
        "these",
        "those",
        "also",
        "such",
        "any",
        "some",
        "all",
        "both",
        "each",
        "other",
        "more",
        "most",
        "much",
        "many",
        "very",
        "were",
        "whose",
        "whom",
        "same",
        "by",
        "as",
        "if",
        "so",
        "up",
        "out",
        "over",
        "under",
        "between",
        "during",
        "after",
        "before",
        "while",
        "one",
        "two",
        "first",
        "name",
        "named",
        "called",
        "known",
        "which",
        "kind",
        "type",
    ]
)
"""A wider list for the corrective actions and the lexical relevance scorer, where function
words and generic question words carry no topic."""

_EDGE_PUNCTUATION = "\"'`“”‘’()[]{}<>.,;:!?*_-–—/\\|"
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
# A sentence ends at . ! ? followed by space, or glued to a capital letter ("century.First").
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'”’)]*\s+|(?<=[a-z0-9)][.!?])(?=[A-Z])")


def query_terms(query: str) -> list[str]:
    """The specification's ``extractQueryTerms``: lower-case, split on whitespace, keep words longer
    than two characters that are not in :data:`QUERY_TERM_STOP_WORDS`.

    One documented deviation from the specification: surrounding punctuation is stripped from each
    word first (``"paris?"`` becomes ``"paris"``), otherwise the last word of every question could
    never be found in a context.
    """
    terms = []
    for word in query.lower().split():
        word = word.strip(_EDGE_PUNCTUATION)
        if len(word) > 2 and word not in QUERY_TERM_STOP_WORDS:
            terms.append(word)
    return terms


def content_tokens(text: str) -> list[str]:
    """Lower-case word tokens of ``text`` that are not in :data:`STOP_WORDS` and longer than one
    character, in order, repeats kept."""
    return [
        token for token in _WORD.findall(text.lower()) if len(token) > 1 and token not in STOP_WORDS
    ]


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text``: split after ``.``, ``!`` or ``?`` followed by whitespace, and where
    a sentence end is glued to the next capitalised word (``"century.First"``). Empty pieces are
    dropped; whitespace around each sentence is trimmed."""
    return [piece.strip() for piece in _SENTENCE_END.split(text) if piece.strip()]
