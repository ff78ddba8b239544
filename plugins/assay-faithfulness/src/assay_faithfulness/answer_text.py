"""Word-level text analysis for ``answer_support``: sentences that keep abbreviations whole,
lightly stemmed words, names and numbers.

* Sentences end after ``.``, ``!`` or ``?`` (and closing quotes or brackets) before a capital
  letter, with or without a space ("...century.First for Women..."), except after an initial
  ("James K. Polk"), a dotted abbreviation ("U.S.") or a known short form ("Dr.", "St.", "Jr.").
* Words are split as :func:`~assay_faithfulness.tokenize` splits them (at whitespace and
  punctuation), with their case kept.
* :func:`stem` (from :mod:`.inflection`) folds plural and simple inflection (``churros`` /
  ``churro``, ``based`` / ``base``) and irregular forms (``women`` / ``woman``, ``wrote`` /
  ``write``).
* A name is a run of capitalised words, possibly joined by ``of``, ``the``, ``de``, ``van``...;
  a sentence's capitalised function word ("The", "In") or opener ("Among", "During") does not
  start one, and a month alone ("March") is a date, not a name.

:func:`text_info` is memoized by text (contexts recur across questions): every lookup the
detector makes in a context is prepared once.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate, compress, pairwise
from operator import not_
from typing import NamedTuple

from assay_faithfulness._compiled import COMPILED, _speedups
from assay_faithfulness.claim_support import FUNCTION_WORDS
from assay_faithfulness.inflection import STEMS_LIMIT as _STEMS_LIMIT
from assay_faithfulness.inflection import stem as stem
from assay_faithfulness.inflection import stems as stems
from assay_faithfulness.text import _ASTRAL, _token_patterns, separator_table, split_tokens_pure

__all__ = [
    "MONTHS",
    "NAME_PATTERN",
    "NEGATIONS",
    "QUESTION_WORDS",
    "Layout",
    "Name",
    "Number",
    "TextInfo",
    "is_content",
    "is_number",
    "number_value",
    "sentence_spans",
    "split_words",
    "stem",
    "text_info",
]

ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "st",
        "jr",
        "sr",
        "mt",
        "ft",
        "vs",
        "etc",
        "inc",
        "ltd",
        "co",
        "corp",
        "gen",
        "col",
        "lt",
        "sgt",
        "capt",
        "cmdr",
        "adm",
        "maj",
        "prof",
        "rev",
        "gov",
        "sen",
        "rep",
        "pres",
        "hon",
        "messrs",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "ave",
        "blvd",
        "rd",
        "dept",
        "univ",
        "est",
        "approx",
        "fig",
        "al",
        "op",
        "vol",
    ]
)
"""Short forms after which a period does not end a sentence (compared lowercased; ``No.`` only
before a digit)."""

QUESTION_WORDS = frozenset(["what", "which", "who", "whom", "whose", "when", "where", "why", "how"])

NEGATIONS = frozenset(
    ["not", "no", "never", "cannot", "neither", "nor", "none", "nobody", "nothing", "nowhere"]
)
"""Words that negate what their sentence states (and ``n't``, split off as ``t``)."""

MONTHS = frozenset(
    [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ]
)

OPENERS = frozenset(
    [
        "among",
        "during",
        "early",
        "later",
        "after",
        "before",
        "although",
        "however",
        "since",
        "while",
        "despite",
        "following",
        "according",
        "originally",
        "currently",
        "today",
        "then",
        "here",
        "each",
        "many",
        "most",
        "some",
        "several",
        "such",
        "until",
        "upon",
        "within",
        "without",
        "throughout",
        "because",
        "though",
        "unlike",
        "like",
        "once",
        "located",
        "formerly",
        "now",
        "together",
        "along",
    ]
)
"""Capitalised sentence openers that start no name ("Among his films...")."""

CONNECTORS = frozenset(
    [
        "of",
        "the",
        "de",
        "la",
        "le",
        "du",
        "da",
        "del",
        "der",
        "van",
        "von",
        "den",
        "di",
        "y",
        "for",
        "&",
    ]
)
"""Lowercase words that may join the capitalised words of one name ("Bank of England")."""

_CAPITALS = "A-ZÀ-ÖØ-Þ"
_CAP_WORD = rf"(?:[A-Z]\.){{2,}}|[A-Z]\.(?=\s*[A-Z])|[{_CAPITALS}][^\W_]*(?:['’\-][^\W_]+)*"
_CONNECTOR = "|".join(sorted(re.escape(c) for c in CONNECTORS))
NAME_PATTERN = _NAME = re.compile(
    rf"(?:{_CAP_WORD})(?:\s+(?:(?:{_CONNECTOR})\s+)*(?:{_CAP_WORD}))*"
)
# Group 1 ends a sentence and the match ends where the next one starts (the look-ahead makes
# that a character other than whitespace, so only the text's own ends need trimming). The
# pattern opens on a lone character class, not ``[.!?]+``: ``re`` then skips ahead to the next
# candidate mark, about twice as fast.
_BOUNDARY = re.compile(rf"([.!?][.!?]*[\"'”’)\]]*)\s*(?=[\"“‘(\[]?[{_CAPITALS}])")
_WORD_BEFORE = re.compile(r"[^\W_]+$")
_DIGIT_AFTER = re.compile(r"\s*\d")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence of ``text``, whitespace trimmed, empty pieces dropped."""
    spans: list[tuple[int, int]] = []
    start = len(text) - len(text.lstrip()) if text[:1].isspace() else 0
    for boundary in _BOUNDARY.finditer(text):
        mark = boundary.start()
        if text[mark] == ".":
            word = _WORD_BEFORE.search(text, max(0, mark - 12), mark)
            if word is not None and _keeps_period(word.group(), text, boundary.end()):
                continue
        spans.append((start, boundary.end(1)))
        start = boundary.end()
    end = len(text.rstrip()) if text[-1:].isspace() else len(text)
    if end > start:
        spans.append((start, end))
    return spans


def _keeps_period(word: str, text: str, after: int) -> bool:
    """Whether the period after ``word`` belongs to it (an initial or an abbreviation)."""
    if len(word) == 1 and not word.isdigit():
        return True
    lowered = word.lower()
    if lowered == "no":
        return word == "No" and _DIGIT_AFTER.match(text, after) is not None
    return lowered in ABBREVIATIONS


def split_words(text: str) -> list[str]:
    """The words of ``text`` as written: :func:`~assay_faithfulness.tokenize`'s split without
    lowercasing (compiled when available)."""
    if COMPILED:
        return _speedups.split_tokens(text, separator_table())
    return split_tokens_pure(text)


def is_number(word: str) -> bool:
    """Whether a word is a number (its first and last characters are digits)."""
    return word[0].isdigit() and word[-1].isdigit()


def is_content(word: str) -> bool:
    """Whether a word (as written) carries checkable content: not a function or question word."""
    if len(_CONTENT) > _STEMS_LIMIT:
        _CONTENT.clear()
    return _CONTENT[word]


class _ContentCache(dict[str, bool]):
    """Word as written -> whether it is a content word; filled on first sight of a word."""

    def __missing__(self, word: str) -> bool:
        lowered = word.lower()
        value = self[word] = lowered not in FUNCTION_WORDS and lowered not in QUESTION_WORDS
        return value


_CONTENT = _ContentCache()


class Number(NamedTuple):
    """A number in a text: its value as compared (``"2,523"`` -> ``"2523"``), its words
    ``first`` to ``end - 1``, and its role in a life span: ``"born"`` for the first date of
    "(1 May 1900 – 2 June 1980)", ``"die"`` for the second, else ``""``."""

    value: str
    first: int
    end: int
    role: str


class Name(NamedTuple):
    """A name in a text: words ``first`` to ``end - 1``."""

    first: int
    end: int


def number_value(written: str) -> str:
    """A written number as compared: thousands commas dropped (``"1,425"`` -> ``"1425"``)."""
    return written.replace(",", "")


class Layout(NamedTuple):
    """Where each word of a text stands (see :attr:`TextInfo.layout`)."""

    in_parentheses: tuple[bool, ...]
    clause_of: tuple[int, ...]
    visible_before: tuple[int, ...]


_MARKS = re.compile(r"[()\[\];:–—,]")


def _layout(
    text: str,
    raw: Sequence[str],
    offsets: Sequence[int],
    sentences: Sequence[tuple[int, int]],
    starts: Sequence[int],
) -> Layout:
    count = len(raw)
    inside = [False] * count
    clauses = [0] * count
    nested = False  # whether any word stands inside parentheses
    fresh = 0
    marks = _MARKS.finditer
    for index, (sentence_start, sentence_end) in enumerate(sentences):
        position, last = starts[index], starts[index + 1]
        fresh += 1
        clause = fresh
        outer: list[int] = []
        for mark in marks(text, sentence_start, sentence_end):
            where = mark.start()
            stop = bisect_left(offsets, where, position, last)
            if stop > position:
                clauses[position:stop] = [clause] * (stop - position)
                if outer:
                    inside[position:stop] = [True] * (stop - position)
                    nested = True
                position = stop
            char = text[where]
            if char in "([":
                outer.append(clause)
                fresh += 1
                clause = fresh
            elif char in ")]":
                if outer:
                    clause = outer.pop()
            elif char != "," or position >= last or not raw[position][0].isdigit():
                fresh += 1
                clause = fresh
        if last > position:
            clauses[position:last] = [clause] * (last - position)
            if outer:
                inside[position:last] = [True] * (last - position)
                nested = True
    if not nested:
        return Layout(tuple(inside), tuple(clauses), tuple(range(count + 1)))
    visible = tuple(accumulate(map(not_, inside), initial=0))
    return Layout(tuple(inside), tuple(clauses), visible)


@lru_cache(maxsize=1)
def _word_splitters() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """:func:`~assay_faithfulness.tokenize`'s word patterns, capturing: ``pattern.split(text)``
    alternates the text between words and the words themselves."""
    bmp_only, full = _token_patterns()
    return re.compile(f"({bmp_only.pattern})"), re.compile(f"({full.pattern})")


def split_with_gaps(text: str) -> list[str]:
    """``[gap, word, gap, word, ..., gap]``: the words of ``text`` as
    :func:`~assay_faithfulness.tokenize` splits them (case kept) and the text around them."""
    bmp_only, full = _word_splitters()
    if text.isascii() or _ASTRAL.search(text) is None:
        return bmp_only.split(text)
    return full.split(text)


_SHARED = 1024
_ONLY = tuple((index,) for index in range(_SHARED))
"""``_ONLY[i] == (i,)``: the positions of a stem that stands once, shared by every text. Most
stems stand once, and a shared tuple costs no allocation, so the garbage collector, which runs
after every so many new containers, runs less often."""


class TextInfo:
    """What the detector looks up in one text (a context, a question or an answer).

    Attributes:
        text: the text.
        sentences: ``(start, end)`` of each sentence.
        raw: every word as written, in order.
        gaps: ``gaps[i]``, the text between word ``i - 1`` (or the start) and word ``i``.
        offsets: the character offset of each word.
        stems: the stem of each word.
        content: for each word, whether it is a content word (:func:`is_content`).
        sentence_of: the sentence index of each word.
        sentence_starts: the index of each sentence's first word, then the word count.
        sentence_stems: the set of stems of each sentence.
        pairs: every two adjacent stems of one sentence.
    """

    __slots__ = (
        "_holding",
        "_layout",
        "_names",
        "_numbers",
        "_pairs",
        "_positions",
        "_sentence_stems",
        "content",
        "gaps",
        "offsets",
        "raw",
        "sentence_of",
        "sentence_starts",
        "sentences",
        "stems",
        "text",
    )

    # Every sequence is a tuple, not a list: memoized texts keep them, and the garbage
    # collector walks every list it tracks at each full collection, but no tuple of strings or
    # numbers.
    def __init__(self, text: str) -> None:
        self.text = text
        self.sentences = sentences = tuple(sentence_spans(text))
        parts = tuple(split_with_gaps(text))
        self.raw = raw = parts[1::2]
        self.gaps = parts[0:-1:2]
        self.offsets = offsets = tuple(accumulate(map(len, parts)))[0:-1:2]
        count = len(raw)
        if len(sentences) == 1:  # a question, an answer: every word stands in sentence 0
            self.sentence_starts: tuple[int, ...] = (0, count)
            self.sentence_of: tuple[int, ...] = (0,) * count
        else:
            starts = [bisect_left(offsets, start) for start, _ in sentences]
            starts.append(count)
            self.sentence_starts = tuple(starts)
            sentence_of: list[int] = []
            for index in range(len(sentences)):
                sentence_of += [index] * (starts[index + 1] - starts[index])
            self.sentence_of = tuple(sentence_of)
        self.stems = tuple(stems(raw))
        if len(_CONTENT) > _STEMS_LIMIT:
            _CONTENT.clear()
        # every reader needs it, and a plain attribute is cheaper to read than a property
        self.content = tuple(map(_CONTENT.__getitem__, raw))
        self._sentence_stems: list[frozenset[str]] | None = None
        self._pairs: frozenset[tuple[str, str]] | None = None
        self._positions: dict[str, tuple[int, ...]] | None = None
        self._holding: dict[str, tuple[int, ...]] | None = None
        self._names: list[Name] | None = None
        self._numbers: list[Number] | None = None
        self._layout: Layout | None = None

    @property
    def positions(self) -> dict[str, tuple[int, ...]]:
        """Stem -> the indices of the words with that stem, ascending."""
        if self._positions is None:
            self._index_stems()
        return self._positions  # type: ignore[return-value]

    @property
    def holding(self) -> dict[str, tuple[int, ...]]:
        """Stem -> the indices of the sentences that hold a word with that stem, ascending."""
        if self._holding is None:
            self._index_stems()
        return self._holding  # type: ignore[return-value]

    def _index_stems(self) -> None:
        """:attr:`positions` and :attr:`holding`, in one pass over the words, sentence by
        sentence. (Tuples, not lists: a memoized text keeps them, and the garbage collector does
        not walk tuples of numbers; most stems stand once, so growing a tuple is rare, and the
        tuple of one position is shared: :data:`_ONLY`.)"""
        positions: dict[str, tuple[int, ...]] = {}
        holding: dict[str, tuple[int, ...]] = {}
        # a stem seen again grows a list, made a tuple at the end (growing tuples would copy
        # them: quadratic in how often a word stands in a long text)
        more_positions: dict[str, list[int]] = {}
        more_holding: dict[str, list[int]] = {}
        all_stems, starts = self.stems, self.sentence_starts
        for sentence in range(len(starts) - 1):
            here = _ONLY[sentence] if sentence < _SHARED else (sentence,)
            first = starts[sentence]
            for index, word_stem in enumerate(all_stems[first : starts[sentence + 1]], first):
                if word_stem not in positions:
                    positions[word_stem] = _ONLY[index] if index < _SHARED else (index,)
                    holding[word_stem] = here
                    continue
                places = more_positions.get(word_stem)
                if places is None:
                    more_positions[word_stem] = [*positions[word_stem], index]
                else:
                    places.append(index)
                sentences = more_holding.get(word_stem)
                if sentences is None:
                    if holding[word_stem][-1] != sentence:  # words come in order: sentences too
                        more_holding[word_stem] = [*holding[word_stem], sentence]
                elif sentences[-1] != sentence:
                    sentences.append(sentence)
        for word_stem, grown in more_positions.items():
            positions[word_stem] = tuple(grown)
        for word_stem, grown in more_holding.items():
            holding[word_stem] = tuple(grown)
        self._positions = positions
        self._holding = holding

    @property
    def sentence_stems(self) -> list[frozenset[str]]:
        """The set of stems of each sentence."""
        if self._sentence_stems is None:
            all_stems, starts = self.stems, self.sentence_starts
            self._sentence_stems = [
                frozenset(all_stems[starts[i] : starts[i + 1]]) for i in range(len(self.sentences))
            ]
        return self._sentence_stems

    @property
    def pairs(self) -> frozenset[tuple[str, str]]:
        """``(first, second)`` for every word with stem ``first`` followed, in its sentence, by
        one with stem ``second``."""
        if self._pairs is None:
            all_stems, starts = self.stems, self.sentence_starts
            if len(starts) == 2:
                self._pairs = frozenset(pairwise(all_stems))
            else:
                self._pairs = frozenset().union(
                    *[
                        pairwise(all_stems[starts[i] : starts[i + 1]])
                        for i in range(len(starts) - 1)
                    ]
                )
        return self._pairs

    def adjacent(self, first: str, second: str) -> bool:
        """Whether a word with stem ``first`` is followed, in its sentence, by one with stem
        ``second`` (looked up from the places of ``first``: no table of every pair is built)."""
        places = self.positions.get(first)
        if places is None:
            return False
        all_stems, sentence_of = self.stems, self.sentence_of
        last = len(all_stems) - 1
        for index in places:
            if (
                index < last
                and all_stems[index + 1] == second
                and sentence_of[index + 1] == sentence_of[index]
            ):
                return True
        return False

    def content_stems(self, first: int = 0, end: int | None = None) -> frozenset[str]:
        """The stems of the content words among words ``first`` to ``end - 1``."""
        return frozenset(compress(self.stems[first:end], self.content[first:end]))

    @property
    def layout(self) -> Layout:
        """Per word: whether it stands inside parentheses or brackets; its clause (clauses are cut at ``;``, ``:``, dashes and commas, but not at the comma of
        "May 2, 1991"; a parenthesis is a clause of its own and the text around it stays one
        clause: "X (born 1950) is a writer"); and ``visible_before[i]``, the number of words
        before word ``i`` that stand outside parentheses."""
        if self._layout is None:
            self._layout = _layout(
                self.text, self.raw, self.offsets, self.sentences, self.sentence_starts
            )
        return self._layout

    def span_text(self, first: int, end: int) -> str:
        """The text of words ``first`` to ``end - 1`` as written."""
        offsets = self.offsets
        return self.text[offsets[first] : offsets[end - 1] + len(self.raw[end - 1])]

    @property
    def names(self) -> list[Name]:
        """The names of the text, in order (see the module docstring)."""
        if self._names is None:
            self._names = _find_names(self)
        return self._names

    @property
    def numbers(self) -> list[Number]:
        """The numbers written in the text, in order ("2,523" is one number of two words)."""
        if self._numbers is None:
            self._numbers = _find_numbers(self)
        return self._numbers


def _find_names(info: TextInfo) -> list[Name]:
    raw = info.raw
    capitals = [i for i, word in enumerate(raw) if word[0].isupper()]
    if not capitals:
        return []
    gaps = info.gaps
    firsts = set(info.sentence_starts)
    count = len(raw)
    names: list[Name] = []
    done = 0
    for index in capitals:
        if index < done:
            continue
        word = raw[index]
        if index in firsts and (not is_content(word) or word.lower() in OPENERS):
            continue
        end = index + 1
        # every gap a name may span is checked below, and none holds a clause mark (a comma, a
        # parenthesis, a dash...): a name never crosses a clause
        while end < count and end not in firsts:
            following = raw[end]
            if following[0].isupper():
                between = gaps[end]
                if between in _NAME_GAPS or _after_initial(raw, end, between):
                    end += 1
                    continue
                break
            if following == "s" and gaps[end] in _APOSTROPHES:
                end += 1  # the possessive of "Arthur's Magazine"
                continue
            if following not in CONNECTORS:
                break
            look = end
            while look < count and raw[look] in CONNECTORS and gaps[look] == " ":
                look += 1
            if end < look < count and raw[look][0].isupper() and gaps[look] == " ":
                end = look + 1
                continue
            break
        done = end
        while end - 1 > index and raw[end - 1] == "s":
            end -= 1
        if end - index > 1 or word.lower() not in MONTHS:
            names.append(Name(index, end))
    return names


_NAME_GAPS = frozenset([" ", "-", ".", "'", "’", "‘"])
_APOSTROPHES = frozenset(["'", "’"])


def _after_initial(raw: Sequence[str], index: int, gap: str) -> bool:
    """Whether ``gap`` is the ". " after an initial or a short form ("K. Polk", "Dr. Smith")."""
    return gap == ". " and (len(raw[index - 1]) == 1 or raw[index - 1].lower() in ABBREVIATIONS)


def _find_numbers(info: TextInfo) -> list[Number]:
    raw = info.raw
    digits = [i for i, word in enumerate(raw) if word[0].isdigit() and word[-1].isdigit()]
    if not digits:
        return []
    gaps, text, offsets = info.gaps, info.text, info.offsets
    count = len(raw)
    numbers: list[Number] = []
    done = 0
    for index in digits:
        if index < done:
            continue
        end = index + 1
        while end < count and gaps[end] in _NUMBER_GAPS and is_number(raw[end]):
            end += 1
        done = end
        start, stop = offsets[index], offsets[end - 1] + len(raw[end - 1])
        role = _life_role(info, index, start, stop)
        numbers.append(Number(number_value(text[start:stop]), index, end, role))
    return numbers


_NUMBER_GAPS = frozenset([",", "."])


def _life_role(info: TextInfo, first: int, start: int, stop: int) -> str:
    """``"born"`` / ``"die"`` for the first / second date of a parenthesised life span; the
    number is word ``first`` onwards, characters ``start`` to ``stop - 1``."""
    text = info.text
    opening = text.rfind("(", 0, start)
    if opening < 0:  # no life span, and the layout need not be read
        return ""
    closing = text.find(")", stop)
    if closing < 0 or text.find(")", opening, start) >= 0 or not info.layout.in_parentheses[first]:
        return ""
    before = text[opening + 1 : start]
    after = text[stop:closing]
    if _LIFE_DASH.search(before) and _DIGIT.search(before):
        return "die"
    if _LIFE_DASH.search(after) and _DIGIT.search(after):
        return "born"
    return ""


_LIFE_DASH = re.compile(r"[–—]|\s-\s|\d-\d")
_DIGIT = re.compile(r"\d")


@lru_cache(maxsize=4096)
def text_info(text: str) -> TextInfo:
    """The :class:`TextInfo` of ``text``, memoized (a recurring context is analysed once)."""
    return TextInfo(text)
