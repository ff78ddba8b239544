"""What a passage is about, and whether a text names it: the text side of the topical scorer.

Encyclopaedic passages open with their subject (``Scott Derrickson (born July 16, 1966) is an
American director``, ``The Apple Remote is a remote control device``). :func:`opening_subject`
reads that subject; :func:`names` tells whether a question or another passage names it;
:func:`names_person` accepts a person's name given in full where the question gives only the
first and last names (``Alfred Antony Francis Gell`` for ``Alfred Gell``).

Pure functions on ``str``; no model, no I/O. A subject is returned normalised: the words
lower-cased and joined by single spaces, punctuation dropped (``2011–12 VCU Rams`` ->
``2011 12 vcu rams``).
"""

from __future__ import annotations

import re

from assay_crag.text import STOP_WORDS

__all__ = ["names", "names_person", "opening_subject"]

OPENING_CHARS = 300
"""Only the start of a passage is read for its subject (a subject is a few words long)."""
FALLBACK_WORDS = 6
"""An uncapitalised subject (``A universal remote is ...``) is taken when at most this many
words long; a longer opening is a clause, not a name."""

# words, keeping inner apostrophes, dots, hyphens and dashes (``F.C.``, ``2011–12``), and the
# punctuation that ends a subject
_TOKEN = re.compile(r"[^\W_]+(?:['’.\-–][^\W_]+)*\.?|[,;(\"“”:]")
_BREAKS = frozenset(',;(:"“”')
_QUOTES = frozenset('"“')
_ARTICLES = frozenset(["the", "a", "an"])
_JOINERS = frozenset(
    [
        "of",
        "the",
        "and",
        "de",
        "del",
        "la",
        "le",
        "du",
        "von",
        "van",
        "for",
        "on",
        "in",
        "to",
        "a",
        "x",
        "y",
        "da",
        "di",
    ]
)
"""Lower-case words allowed inside a name (``Letters to Cleo``, ``Gordon and Irish Setters``)."""
_UNCAPITALISED = re.compile(
    r"(?:the|a|an)\s+([^,(;]{1,80}?)\s*(?:,|\(|\s(?:is|was|are|were)\s)", re.IGNORECASE
)
_WORD = re.compile(r"[^\W_]+")
# a capitalised word directly before or after a match (only spaces or dashes between) extends
# the name: "Kirton" is not named by "Kirton End", nor "Lempster" by "East Lempster"
_WORD_BEFORE = re.compile(r"([^\W_]+)[ \-–]+$")
_WORD_AFTER = re.compile(r"[ \-–]+([^\W_]+)")


def _normal(words: str) -> str:
    return " ".join(_WORD.findall(words.lower()))


def _capitalised(token: str) -> bool:
    return token[0].isupper() or token[0].isdigit()


def opening_subject(passage: str) -> str | None:
    """The subject a passage opens with, normalised, or ``None`` when it opens otherwise.

    After an opening quote and an article (``The``, ``A``, ``An``), the subject is the run of
    capitalised words and numbers, with lower-case joiners such as ``of`` or ``and`` inside
    it, up to a comma, semicolon, colon, parenthesis or quote. A passage opening with a stop
    word (``He``, ``It``, ``In``: not a name) has none. When the article is followed by a
    lower-case phrase, the subject is that phrase up to a comma, parenthesis or ``is`` /
    ``was`` / ``are`` / ``were``, if at most :data:`FALLBACK_WORDS` words.
    """
    tokens = _TOKEN.findall(passage[:OPENING_CHARS])
    start = 0
    while start < len(tokens) and tokens[start] in _QUOTES:
        start += 1
    if start < len(tokens) and tokens[start].lower() in _ARTICLES:
        start += 1
    run: list[str] = []
    for token in tokens[start:]:
        if token in _BREAKS:
            break
        if _capitalised(token) or (run and token.lower() in _JOINERS):
            run.append(token)
        else:
            break
    while run and run[-1].lower() in _JOINERS:
        run.pop()
    if run:
        # a bare opening stop word is a pronoun or a preposition, not a name
        return None if start == 0 and run[0].lower() in STOP_WORDS else _normal(" ".join(run))
    match = _UNCAPITALISED.match(passage)
    if match and len(match.group(1).split()) <= FALLBACK_WORDS:
        return _normal(match.group(1)) or None
    return None


def names(text: str, subject: str, *, standalone: bool = False) -> bool:
    """Whether ``text`` names ``subject`` (a normalised subject): its words in order, separated
    only by punctuation or spaces, as whole words, any case.

    With ``standalone``, a match directly extended by a capitalised word (only spaces or dashes
    between) does not count: it is part of a longer name. A capitalised word before the match
    that opens ``text`` does not extend it (a question's first word is capitalised anyway).
    """
    words = subject.split()
    if not words:
        return False
    pattern = r"(?<!\w)" + r"[^\w]+".join(map(re.escape, words)) + r"(?!\w)"
    for match in re.finditer(pattern, text, re.IGNORECASE):
        if not standalone:
            return True
        before = _WORD_BEFORE.search(text, 0, match.start())
        after = _WORD_AFTER.match(text, match.end())
        extended_before = (
            before is not None
            and before.group(1)[0].isupper()
            and text[: before.start()].strip() != ""
        )
        if not (extended_before or (after is not None and after.group(1)[0].isupper())):
            return True
    return False


def names_person(text: str, subject: str) -> bool:
    """Whether ``text`` names a subject of three words or more by its first and last words
    alone, standalone (a person's full name: ``alfred antony francis gell`` for ``Alfred
    Gell``)."""
    words = subject.split()
    return len(words) >= 3 and names(text, f"{words[0]} {words[-1]}", standalone=True)
