"""Whether a name or number of an answer is the one the question asks about.

A name or number found in a context is *present*, not yet *the answer*: a passage about a film
names its director, its stars and its country. Each name (or number) of the contexts gets a
**fit** to the question, a weighted sum of features (weights in :data:`NAME_WEIGHTS` and
:data:`NUMBER_WEIGHTS`, fitted on the design rows of ``benchmarks/answer_detector.py``):

* ``slot``: the question's words found near it in its sentence,
  ``sum(w(t) / (1 + d(t) / reach) / (1 + q(t) / QUESTION_REACH))`` over the question's content
  words ``t`` that are not part of it: ``w(t) = 1 / (sentences of the context holding t)`` (a
  word every sentence has says little), ``d(t)`` the words between them, not counting words in
  parentheses, ``q(t)`` the distance of ``t`` from the question's slot (see
  :mod:`.answer_question`), ``reach`` :data:`SLOT_REACH` for names and :data:`NUMBER_REACH` for
  numbers. The subject of "X (born 1950) is an American writer" stands next to every word after
  its "is"; a date of a life span "(1 May 1900 – 2 June 1980)" stands next to "born" (first
  date) or "died" (second date).
* ``parenthesis``: the name stands inside parentheses (a birth name, a spelling).
* ``type``: a word naming the asked kind ("which *valley*") is within :data:`TYPE_REACH` words
  of the name or part of it ("Nassau *County*"); ``type-subject``: the name opens its sentence
  and its "is"-clause holds such a word ("Cataloochee is a *valley*...").
* ``focus``: the question's focus word ("who *directed*") is within :data:`FOCUS_REACH` words.
* ``by-person``: the question asks for a person and the name follows "by".
* ``quoted-work``: the question asks for a titled work ("what *film*") and the name is quoted.
* ``nationality`` / ``not-nationality``: a nationality word ("an *American* actor") where the
  question asks for a nationality / for something else.
* ``option``: the question offers options ("A or B?"): +1 for one of them, -1 otherwise.
* numbers: ``slot``, ``focus`` as for names, and ``sentence``: the summed ``w(t)`` of the
  question's words in the number's sentence.

The **margin** of the answer's name is its fit minus the best fit of the other names of the
contexts (those not sharing a word with the answer, not overlapping it, and not merely
repeating the question); numbers compete with numbers of the same kind (:func:`number_kind`:
years with years, days of a date with days, counts with counts). A negative margin means
another name of the contexts fits the question better. Without a content word in the question
there is nothing to relate, and no margin.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from operator import mul
from typing import NamedTuple

from assay_faithfulness.answer_question import QuestionInfo, question_info
from assay_faithfulness.answer_text import MONTHS, TextInfo, stem, text_info

__all__ = [
    "NAME_WEIGHTS",
    "NUMBER_WEIGHTS",
    "Found",
    "is_year",
    "name_margin",
    "number_kind",
    "number_margin",
]

NAME_WEIGHTS = {
    "slot": 0.83,
    "parenthesis": -0.62,
    "type": 0.84,
    "type-subject": 1.29,
    "focus": 0.68,
    "by-person": 0.42,
    "quoted-work": 0.3,
    "nationality": 0.44,
    "not-nationality": -0.64,
    "option": 0.96,
}
"""Feature weights of a name's fit (see the module docstring)."""

NUMBER_WEIGHTS = {"slot": 2.04, "focus": 1.16, "sentence": -0.15}
"""Feature weights of a number's fit."""
_NAME_WEIGHT_LIST = list(NAME_WEIGHTS.values())
_NUMBER_WEIGHT_LIST = list(NUMBER_WEIGHTS.values())

SLOT_REACH = 1.0
NUMBER_REACH = 3.0
QUESTION_REACH = 2.0
TYPE_REACH = 3
FOCUS_REACH = 2
SUBJECT_REACH = 25
"""How many words after a sentence's opening name its "is"/"was" may stand."""

COPULAS = frozenset(["is", "was", "are", "were"])
WORK_WORDS = frozenset(
    stem(word)
    for word in [
        "film",
        "movie",
        "album",
        "song",
        "series",
        "novel",
        "book",
        "show",
        "play",
        "single",
        "game",
        "magazine",
        "opera",
        "musical",
        "episode",
        "documentary",
        "sitcom",
        "television",
        "poem",
        "track",
    ]
)
"""Kinds of titled work: a question asking for one expects a quoted title (compared by stem)."""
LIFE_WORDS = {
    "born": frozenset(stem(w) for w in ["born", "birth", "birthdate", "birthday"]),
    "die": frozenset(stem(w) for w in ["die", "died", "death"]),
}
"""Question words that the first / second date of a life span answers."""

_LIFE_STEMS = LIFE_WORDS["born"] | LIFE_WORDS["die"]
_NATIONALITY = re.compile(r"(?:an|ese|ish|ic|i|ch)$")
_QUOTES = frozenset("\"'“”‘’")


class Found(NamedTuple):
    """Where an item of the answer stands: context ``context``, words ``first`` to ``end - 1``."""

    context: int
    first: int
    end: int


def is_year(value: str) -> bool:
    """Whether a number (as compared) reads as a year: four digits from 1000 to 2099."""
    return len(value) == 4 and value.isdigit() and "1000" <= value <= "2099"


class _Reader:
    """One question read against one context: where the question's words stand there."""

    __slots__ = ("asked", "distance", "focus", "info", "kinds", "sentence_hits", "weight")

    def __init__(self, asked: QuestionInfo, info: TextInfo) -> None:
        self.asked = asked
        self.info = info
        self.weight: dict[str, float] = {}
        self.distance: dict[str, int] = {}
        positions = info.positions
        sentence_of = info.sentence_of
        for word_stem, distance in asked.slot_distance.items():
            holding = len({sentence_of[i] for i in positions.get(word_stem, ())})
            # a life-span word ("born") counts even where no sentence has it: "(1900 – 1980)"
            if holding or word_stem in _LIFE_STEMS:
                self.weight[word_stem] = 1.0 / max(holding, 1)
                self.distance[word_stem] = distance
        sentences = len(info.sentences)
        self.sentence_hits: list[list[tuple[int, str]]] = [[] for _ in range(sentences)]
        self.kinds: list[list[int]] = [[] for _ in range(sentences)]
        self.focus: list[list[int]] = [[] for _ in range(sentences)]
        for word_stem in self.weight:
            for index in positions.get(word_stem, ()):
                self.sentence_hits[sentence_of[index]].append((index, word_stem))
        for stems, places in ((asked.type_words, self.kinds), (asked.focus, self.focus)):
            for word_stem in stems:
                for index in positions.get(word_stem, ()):
                    places[sentence_of[index]].append(index)

    def _distances(
        self, first: int, end: int, own: frozenset[str], copula: int | None, role: str = ""
    ) -> dict[str, int]:
        """Question word -> its fewest words from the span (same sentence only)."""
        info = self.info
        found: dict[str, int] = {}
        if role:
            for word_stem in LIFE_WORDS[role]:
                if word_stem in self.weight:
                    found[word_stem] = 0
        hits = self.sentence_hits[info.sentence_of[first]]
        if not hits:
            return found
        layout = info.layout
        visible = layout.visible_before
        inside = layout.in_parentheses[first]
        for index, word_stem in hits:
            if word_stem in own or first <= index < end:
                continue
            if copula is not None and index > copula:
                distance = index - copula
            elif index < first:
                distance = first - index - 1 if inside else visible[first] - visible[index + 1]
            else:
                distance = index - end if inside else visible[index] - visible[end]
            if distance < found.get(word_stem, distance + 1):
                found[word_stem] = distance
        return found

    def _slot(self, distances: dict[str, int], reach: float) -> float:
        weight, asked = self.weight, self.distance
        return sum(
            weight[s] / (1.0 + d / reach) / (1.0 + asked[s] / QUESTION_REACH)
            for s, d in distances.items()
        )

    def name_fit(self, first: int, end: int) -> float:
        """The fit of the name at words ``first`` to ``end - 1``."""
        return float(sum(map(mul, _NAME_WEIGHT_LIST, self._name_vector(first, end))))

    def name_features(self, first: int, end: int) -> dict[str, float]:
        """The features of the name at words ``first`` to ``end - 1`` (module docstring)."""
        return dict(zip(NAME_WEIGHTS, self._name_vector(first, end), strict=True))

    def _name_vector(self, first: int, end: int) -> tuple[float, ...]:
        """The features of a name, in the order of :data:`NAME_WEIGHTS`."""
        info = self.info
        asked = self.asked
        sentence = info.sentence_of[first]
        hits = self.sentence_hits[sentence]
        kinds = self.kinds[sentence]
        copula = _subject_copula(info, first, end) if hits or kinds else None
        slot = 0.0
        if hits:
            own = frozenset(info.stems[first:end])
            slot = self._slot(self._distances(first, end, own, copula), SLOT_REACH)
        typed = bool(kinds) and _within(kinds, first, end, TYPE_REACH)
        described = bool(kinds) and copula is not None and _in_predicate(info, copula, kinds)
        focus = self.focus[sentence]
        focused = bool(focus) and _within(focus, first, end, FOCUS_REACH)
        after_by = first > 0 and info.sentence_of[first - 1] == sentence
        after_by = after_by and info.raw[first - 1] == "by" and asked.expects == "person"
        quoted = bool(asked.type_words & WORK_WORDS) and _quoted(info, first, end)
        nationality = end - first == 1 and _is_nationality(info, first, end)
        asks_nationality = asked.expects == "nationality"
        option = 0.0
        if asked.options:
            content = info.content_stems(first, end)
            option = 1.0 if any(content & choice for choice in asked.options) else -1.0
        return (
            slot,
            1.0 if info.layout.in_parentheses[first] else 0.0,
            1.0 if typed else 0.0,
            1.0 if described else 0.0,
            1.0 if focused else 0.0,
            1.0 if after_by else 0.0,
            1.0 if quoted else 0.0,
            1.0 if nationality and asks_nationality else 0.0,
            1.0 if nationality and not asks_nationality else 0.0,
            option,
        )

    def number_fit(self, first: int, end: int, role: str) -> float:
        """The fit of the number at words ``first`` to ``end - 1`` with life-span ``role``."""
        return float(sum(map(mul, _NUMBER_WEIGHT_LIST, self._number_vector(first, end, role))))

    def number_features(self, first: int, end: int, role: str) -> dict[str, float]:
        """The features of a number (see the module docstring)."""
        return dict(zip(NUMBER_WEIGHTS, self._number_vector(first, end, role), strict=True))

    def _number_vector(self, first: int, end: int, role: str) -> tuple[float, ...]:
        """The features of a number, in the order of :data:`NUMBER_WEIGHTS`."""
        info = self.info
        sentence = info.sentence_of[first]
        hits = self.sentence_hits[sentence]
        copula = _subject_copula(info, first, end) if hits else None
        distances = self._distances(first, end, frozenset(), copula, role)
        focus = self.focus[sentence]
        focused = bool(focus) and _within(focus, first, end, FOCUS_REACH)
        return (
            self._slot(distances, NUMBER_REACH),
            1.0 if focused else 0.0,
            sum(self.weight[s] for _, s in hits),
        )


def _within(places: list[int], first: int, end: int, reach: int) -> bool:
    """Whether a word at ``places`` is within ``reach`` words of words ``first``-``end - 1``."""
    return any(first - reach <= i < end + reach for i in places)


def _subject_copula(info: TextInfo, first: int, end: int) -> int | None:
    """The "is"/"was" after a sentence-opening name (outside parentheses), or None."""
    sentence = info.sentence_of[first]
    start = info.sentence_starts[sentence]
    if first != start and (first != start + 1 or info.content[start]):
        return None
    layout = info.layout
    if layout.in_parentheses[first]:
        return None
    stop = min(info.sentence_starts[sentence + 1], end + SUBJECT_REACH)
    clause = layout.clause_of[first]
    for index in range(end, stop):
        if layout.in_parentheses[index]:
            continue
        if layout.clause_of[index] != clause:
            return None
        if info.raw[index].lower() in COPULAS:
            return index
    return None


def _in_predicate(info: TextInfo, copula: int, kinds: list[int]) -> bool:
    """Whether a type word (at ``kinds``) stands in the clause after the subject's "is"."""
    after = [i for i in kinds if i > copula]
    if not after:
        return False
    layout = info.layout
    clause = layout.clause_of[copula]
    for index in range(copula, after[-1] + 1):
        if layout.clause_of[index] != clause and not layout.in_parentheses[index]:
            return False
        if index in after:
            return True
    return False


def _quoted(info: TextInfo, first: int, end: int) -> bool:
    """Whether the name stands between quotation marks (a title)."""
    text = info.text
    start = info.offsets[first]
    stop = info.offsets[end - 1] + len(info.raw[end - 1])
    return start > 0 and stop < len(text) and text[start - 1] in _QUOTES and text[stop] in _QUOTES


def _is_nationality(info: TextInfo, first: int, end: int) -> bool:
    """A one-word name used as an adjective with a nationality ending ("an *American* actor")."""
    if end - first != 1 or end >= len(info.raw) or info.sentence_of[end] != info.sentence_of[first]:
        return False
    if not info.raw[end][0].islower():
        return False
    return _NATIONALITY.search(info.raw[first]) is not None


class _Entry(NamedTuple):
    """A name or number of the contexts, its fit to the question, and what it is."""

    context: int
    first: int
    end: int
    fit: float
    content: frozenset[str]
    value: str
    kind: str


@lru_cache(maxsize=256)
def _readers(question: str, contexts: tuple[str, ...]) -> tuple[_Reader, ...]:
    asked = question_info(question)
    return tuple(_Reader(asked, text_info(context)) for context in contexts)


@lru_cache(maxsize=256)
def _name_table(question: str, contexts: tuple[str, ...]) -> tuple[_Entry, ...]:
    """Every name of the contexts that does not merely repeat the question, with its fit."""
    entries = []
    for index, reader in enumerate(_readers(question, contexts)):
        info = reader.info
        for name in info.names:
            content = info.content_stems(name.first, name.end)
            if content and not content <= reader.asked.content:
                fit = reader.name_fit(name.first, name.end)
                entries.append(_Entry(index, name.first, name.end, fit, content, "", "name"))
    return tuple(entries)


@lru_cache(maxsize=256)
def _number_table(question: str, contexts: tuple[str, ...]) -> tuple[_Entry, ...]:
    """Every number of the contexts that the question does not give, with its fit."""
    entries = []
    for index, reader in enumerate(_readers(question, contexts)):
        for number in reader.info.numbers:
            if number.value not in reader.asked.numbers:
                fit = reader.number_fit(number.first, number.end, number.role)
                kind = number_kind(reader.info, number.first, number.end, number.value)
                entries.append(
                    _Entry(index, number.first, number.end, fit, frozenset(), number.value, kind)
                )
    return tuple(entries)


def _overlaps(entry: _Entry, found: Sequence[Found]) -> bool:
    return any(
        f.context == entry.context and f.first < entry.end and entry.first < f.end for f in found
    )


def _text(contexts: tuple[str, ...], entry: _Entry) -> str:
    return text_info(contexts[entry.context]).span_text(entry.first, entry.end)


def name_margin(
    question: str, contexts: tuple[str, ...], found: Sequence[Found], answer: frozenset[str]
) -> tuple[float, str] | None:
    """The fit of the answer's name (best of its places ``found``) minus the best fit of the
    other names of the contexts, with that best other name; None when no other name competes.
    ``answer``: the answer's content stems (a name sharing one is no rival: "Ken" / "Kenneth
    "Ken" Leung")."""
    table = _name_table(question, contexts)
    rival = max(
        (e for e in table if not (e.content & answer) and not _overlaps(e, found)),
        key=lambda e: e.fit,
        default=None,
    )
    if rival is None:
        return None
    readers = _readers(question, contexts)
    fits = {(e.context, e.first, e.end): e.fit for e in table}
    own = max(
        fits[key]
        if (key := (f.context, f.first, f.end)) in fits
        else readers[f.context].name_fit(f.first, f.end)
        for f in found
    )
    return own - rival.fit, _text(contexts, rival)


def number_kind(info: TextInfo, first: int, end: int, value: str) -> str:
    """``"year"``, ``"day"`` (next to a month: "October 22", "5 January") or ``"count"``."""
    if is_year(value):
        return "year"
    sentence = info.sentence_of[first]
    dated = any(
        0 <= index < len(info.raw)
        and info.sentence_of[index] == sentence
        and info.raw[index].lower() in MONTHS
        for index in (first - 1, end)
    )
    return "day" if dated else "count"


def number_margin(
    question: str,
    contexts: tuple[str, ...],
    value: str,
    kind: str,
    found: Sequence[Found],
    exclude: frozenset[str],
) -> tuple[float, str] | None:
    """The fit of the answer's number ``value`` (best of its places ``found``) minus the best fit
    of the other numbers of its ``kind`` (:func:`number_kind`: years with years, days with
    days), with that number; None when none competes. ``exclude``: the answer's other numbers."""
    table = _number_table(question, contexts)
    own = max((e.fit for e in table if e.value == value and _overlaps(e, found)), default=None)
    rival = max(
        (e for e in table if e.value != value and e.value not in exclude and e.kind == kind),
        key=lambda e: e.fit,
        default=None,
    )
    if own is None or rival is None:
        return None
    return own - rival.fit, _text(contexts, rival)
