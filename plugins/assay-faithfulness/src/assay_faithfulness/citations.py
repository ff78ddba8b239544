"""Citation markers in an answer: "[1]", "[1, 2]", "[1-3]", "【1】", "[doc1]", "[^1]".

RAG systems point their sentences at the retrieved passages with markers such as
"...with text generation [1]." The marker is no claim about the world: the answer detectors
(``claim_support``, ``answer_support``) ignore it, so the "1" is not read as a number that no
context gives.

A marker is a bracket pair holding one to three-digit numbers, each optionally after a source
word (``doc``, ``source``, ``ref``...) or a footnote caret, separated by commas, semicolons or
dashes:

* ``[1]``, ``[12]``, ``[1, 2]``, ``[1,2; 4]``, ``[1-3]``, ``[1–3]``, ``[^1]``, ``[doc1]``,
  ``[Doc 2]``, ``[source: 3]``, ``[ref 1, ref 2]``;
* the same inside CJK lenticular brackets, ``【1】``, also with a label after a dagger or a
  colon (``【4†source】``).

Not markers: parentheses ("(1889)", "(1)"), four-digit bracketed numbers ("[1889]", a year),
bracketed words ("[sic]").
"""

from __future__ import annotations

import re

__all__ = ["CITATION_PATTERN", "blank_citations", "citation_spans"]

_SOURCE_WORDS = "doc|document|source|src|ref|reference|passage|context|chunk|citation|cite"
_ONE = rf"(?:\^|(?:{_SOURCE_WORDS})\s*:?\s*)?\d{{1,3}}"
_SEPARATOR = r"\s*[,;\-–—]\s*"
_LIST = rf"\s*{_ONE}(?:{_SEPARATOR}{_ONE})*"
CITATION_PATTERN = re.compile(rf"\[{_LIST}\s*\]|【{_LIST}(?:[†:][^】]*)?】", re.IGNORECASE)
"""One citation marker (see the module docstring)."""

_OPENERS = ("[", "【")


def citation_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every citation marker of ``text``, in order."""
    if not any(opener in text for opener in _OPENERS):
        return []
    return [match.span() for match in CITATION_PATTERN.finditer(text)]


def blank_citations(text: str) -> str:
    """``text`` with every citation marker replaced by as many spaces: the words around keep
    their character offsets, so a span found in the result is the same span of ``text``."""
    if not any(opener in text for opener in _OPENERS):
        return text
    return CITATION_PATTERN.sub(lambda match: " " * len(match.group()), text)
