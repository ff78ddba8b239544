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
* ``focus``: the question's focus word ("who *directed*") is within :data:`FOCUS_REACH` words
  of the name, or of the "by" whose phrase the name heads ("*written* by English author Mary
  Shelley"). A nationality adjective ("*English* author") modifies a noun and takes no focus
  itself (unless the question asks for a nationality).
* ``by-person``: the question asks for a person and the name heads a "by" phrase: "by", at
  most :data:`BY_MODIFIERS` lowercase words or nationality adjectives, then the name.
* ``quoted-work``: the question asks for a titled work ("what *film*") and the name is quoted.
* ``nationality`` / ``not-nationality``: a nationality word ("an *American* actor") where the
  question asks for a nationality / for something else.
* ``option``: the question offers options ("A or B?"): +1 for one of them, -1 otherwise.
* ``place``: the question asks for a country ("which *country*") and the name is a country's
  ("France"), or for a state and it is a state's ("Nevada"): :mod:`.answer_places`.
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
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import compress
from operator import mul
from typing import NamedTuple

from assay_faithfulness.answer_places import COUNTRY_OF, COUNTRY_PHRASES, STATE_NAMES
from assay_faithfulness.answer_question import QuestionInfo, question_info
from assay_faithfulness.answer_text import MONTHS, TextInfo, stem, text_info

__all__ = [
    "BY_MODIFIERS",
    "NAME_WEIGHTS",
    "NUMBER_WEIGHTS",
    "Found",
    "clear_relation_caches",
    "heading_by",
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
    "place": 1.5,
}
"""Feature weights of a name's fit (see the module docstring)."""

NUMBER_WEIGHTS = {"slot": 2.04, "focus": 1.16, "sentence": -0.15}
"""Feature weights of a number's fit."""
_NAME_WEIGHT_LIST = list(NAME_WEIGHTS.values())
_SLOT = NAME_WEIGHTS["slot"]
_TYPED = abs(NAME_WEIGHTS["type"]) + abs(NAME_WEIGHTS["type-subject"])
_FOCUSED = abs(NAME_WEIGHTS["focus"])
_NUMBER_WEIGHT_LIST = list(NUMBER_WEIGHTS.values())

SLOT_REACH = 1.0
NUMBER_REACH = 3.0
QUESTION_REACH = 2.0
TYPE_REACH = 3
FOCUS_REACH = 2
SUBJECT_REACH = 25
BY_MODIFIERS = 3
"""How many words may stand between "by" and the name that heads its phrase ("by the English
author Mary Shelley")."""
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
_PLACE_ASKS = {
    "country": frozenset(stem(w) for w in ["country", "nation"]),
    "state": frozenset([stem("state")]),
}
"""Question type words answered by a country's or a state's name (:mod:`.answer_places`)."""
_COUNTRY_NAMES = frozenset(frozenset(phrase) for phrase in COUNTRY_PHRASES)
_NATIONALITY = re.compile(r"(?:an|ese|ish|ic|i|ch)$")
_QUOTES = frozenset("\"'“”‘’")
_NOT_MODIFIERS = frozenset(["which", "who", "whom", "whose", "that", "and", "or", "when", "where"])
"""Words that end a "by" phrase before a name: a relative clause or a second item follows."""


class Found(NamedTuple):
    """Where an item of the answer stands: context ``context``, words ``first`` to ``end - 1``."""

    context: int
    first: int
    end: int


def is_year(value: str) -> bool:
    """Whether a number (as compared) reads as a year: four digits from 1000 to 2099."""
    return len(value) == 4 and value.isdigit() and "1000" <= value <= "2099"


class _Site(NamedTuple):
    """What the fit of a name needs of its place in a context and that no question changes."""

    first: int
    end: int
    sentence: int
    own: tuple[str, ...]
    parenthesised: bool
    by_at: int | None
    quoted: bool
    nationality: bool
    copula: int | None


def _site(info: TextInfo, first: int, end: int) -> _Site:
    """The :class:`_Site` of words ``first`` to ``end - 1`` of ``info``."""
    nationality = _is_nationality(info, first, end)
    return _Site(
        first,
        end,
        info.sentence_of[first],
        info.stems[first:end],
        info.layout.in_parentheses[first],
        None if nationality else heading_by(info, first),
        _quoted(info, first, end),
        nationality,
        _subject_copula(info, first, end),
    )


def _place_kind(content: frozenset[str]) -> str:
    """``"country"`` for a country's name ("France", "United States"), ``"state"`` for a state's
    ("Nevada"), else ``""``."""
    if not content:
        return ""
    if all(s in COUNTRY_OF for s in content) or content in _COUNTRY_NAMES:
        return "country"
    if all(s in STATE_NAMES for s in content):
        return "state"
    return ""


def heading_by(info: TextInfo, first: int) -> int | None:
    """The index of the "by" whose phrase the name at ``first`` heads: "by" then at most
    :data:`BY_MODIFIERS` lowercase words or nationality adjectives, in one clause ("written
    by English author Mary Shelley"); None when there is none."""
    stop = max(-1, first - BY_MODIFIERS - 2)
    if "by" not in info.raw[stop + 1 : first]:
        return None
    clause_of = info.layout.clause_of
    clause = clause_of[first]
    for index in range(first - 1, stop, -1):
        word = info.raw[index]
        if clause_of[index] != clause or word.lower() in _NOT_MODIFIERS:
            return None
        if word == "by":
            return index
        if not word[0].islower() and not _is_nationality(info, index, index + 1):
            return None
    return None


class _Reader:
    """One question read against one context: where the question's words stand there."""

    __slots__ = (
        "anywhere",
        "asked",
        "asks_nationality",
        "by_person",
        "discount",
        "focus",
        "info",
        "kinds",
        "place_asks",
        "sentence_hits",
        "slot_bound",
        "weight",
        "work",
    )

    def __init__(self, asked: QuestionInfo, info: TextInfo) -> None:
        self.asked = asked
        self.info = info
        self.weight = weights = dict[str, float]()
        self.discount = discounts = dict[str, float]()
        positions = info.positions
        sentence_of = info.sentence_of
        self.sentence_hits = hits = dict[int, list[tuple[int, str]]]()
        # sentence -> the most ``slot`` a name of it can reach: every question word of the
        # sentence at distance 0
        self.slot_bound = bound = dict[int, float]()
        holding_of = info.holding
        for word_stem, distance in asked.slot_distance.items():
            places = positions.get(word_stem)
            if places is None:
                # a life-span word ("born") counts even where no sentence has it: "(1900 – 1980)"
                if word_stem in _LIFE_STEMS:
                    weights[word_stem] = 1.0
                    discounts[word_stem] = 1.0 + distance / QUESTION_REACH
                continue
            holding = holding_of[word_stem]
            weight = weights[word_stem] = 1.0 / len(holding)
            discount = discounts[word_stem] = 1.0 + distance / QUESTION_REACH
            share = weight / discount
            for sentence in holding:
                bound[sentence] = bound.get(sentence, 0.0) + share
            for index in places:
                sentence = sentence_of[index]
                if sentence in hits:
                    hits[sentence].append((index, word_stem))
                else:
                    hits[sentence] = [(index, word_stem)]
        self.kinds = _places(asked.type_words, positions, sentence_of)
        self.focus = _places(asked.focus, positions, sentence_of)
        # what the question asks for, as the name features read it
        self.by_person = asked.expects == "person"
        self.work = bool(asked.type_words & WORK_WORDS)
        self.asks_nationality = asked.expects == "nationality"
        type_words = asked.type_words
        self.place_asks = (
            {kind for kind, stems in _PLACE_ASKS.items() if stems & type_words}
            if type_words
            else set()
        )
        # the most that the features a name of any sentence may have add (:meth:`name_bounds`)
        possible = (
            ("by-person", self.by_person),
            ("quoted-work", self.work),
            ("nationality", self.asks_nationality),
            ("option", bool(asked.options)),
            ("place", bool(self.place_asks)),
        )
        anywhere = 0.0
        for feature, counts in possible:
            if counts:
                anywhere += abs(NAME_WEIGHTS[feature])
        self.anywhere = anywhere

    def _distances(
        self, first: int, end: int, own: tuple[str, ...], copula: int | None, role: str = ""
    ) -> dict[str, int]:
        """Question word -> its fewest words from the span (same sentence only)."""
        info = self.info
        found: dict[str, int] = {}
        if role:
            for word_stem in LIFE_WORDS[role]:
                if word_stem in self.weight:
                    found[word_stem] = 0
        hits = self.sentence_hits.get(info.sentence_of[first])
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
        weight, discount = self.weight, self.discount
        return sum([weight[s] / (1.0 + d / reach) / discount[s] for s, d in distances.items()])

    def name_fit(self, first: int, end: int) -> float:
        """The fit of the name at words ``first`` to ``end - 1``."""
        site = _site(self.info, first, end)
        return _name_fit(self.name_slot(site), self.name_vector(site))

    def name_features(self, first: int, end: int) -> dict[str, float]:
        """The features of the name at words ``first`` to ``end - 1`` (module docstring)."""
        site = _site(self.info, first, end)
        vector = (self.name_slot(site), *self.name_vector(site)[1:])
        return dict(zip(NAME_WEIGHTS, vector, strict=True))

    def name_slot(self, site: _Site) -> float:
        """The ``slot`` feature of the name at ``site``."""
        if site.sentence not in self.sentence_hits:
            return 0.0
        distances = self._distances(site.first, site.end, site.own, site.copula)
        return self._slot(distances, SLOT_REACH)

    def name_bounds(self, sentences: Iterable[int]) -> list[float]:
        """An upper bound of the fit of a name in each of ``sentences``, from its sentence
        alone: ``slot`` at its bound, and every other feature the question could make count
        for a name of that sentence at its most."""
        anywhere, slot, typed, focused = self.anywhere, _SLOT, _TYPED, _FOCUSED
        bounds, kinds, focus = self.slot_bound, self.kinds, self.focus
        return [
            slot * bounds.get(sentence, 0.0)
            + anywhere
            + (typed if sentence in kinds else 0.0)
            + (focused if sentence in focus else 0.0)
            + _BOUND_SLACK
            for sentence in sentences
        ]

    def name_vector(self, site: _Site) -> tuple[float, ...]:
        """The features of the name at ``site``, in the order of :data:`NAME_WEIGHTS`, with
        ``slot`` at its bound (:attr:`slot_bound`): the one feature that costs a walk over the
        sentence."""
        first, end, sentence, copula = site.first, site.end, site.sentence, site.copula
        kinds = self.kinds.get(sentence)
        typed = described = False
        if kinds:
            typed = _within(kinds, first, end, TYPE_REACH)
            described = copula is not None and _in_predicate(self.info, copula, kinds)
        focus = self.focus.get(sentence)
        by_at = site.by_at
        focused = focus is not None and (
            _within(focus, first, end, FOCUS_REACH)
            or (by_at is not None and _within(focus, by_at, by_at + 1, FOCUS_REACH))
        )
        nationality = site.nationality
        asks_nationality = self.asks_nationality
        if nationality and not asks_nationality:
            # an adjective ("English author") relates to nothing itself: the name it modifies
            # takes the focus
            focused = False
        option = place = 0.0
        options, place_asks = self.asked.options, self.place_asks
        if options or place_asks:
            content = self.info.content_stems(first, end)
            if options:
                option = 1.0 if any(content & choice for choice in options) else -1.0
            if place_asks and _place_kind(content) in place_asks:
                place = 1.0
        return (
            self.slot_bound.get(sentence, 0.0),
            1.0 if site.parenthesised else 0.0,
            1.0 if typed else 0.0,
            1.0 if described else 0.0,
            1.0 if focused else 0.0,
            1.0 if by_at is not None and self.by_person else 0.0,
            1.0 if site.quoted and self.work else 0.0,
            1.0 if nationality and asks_nationality else 0.0,
            1.0 if nationality and not asks_nationality else 0.0,
            option,
            place,
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
        hits = self.sentence_hits.get(sentence, [])
        copula = _subject_copula(info, first, end) if hits else None
        distances = self._distances(first, end, (), copula, role)
        focus = self.focus.get(sentence)
        focused = focus is not None and _within(focus, first, end, FOCUS_REACH)
        return (
            self._slot(distances, NUMBER_REACH),
            1.0 if focused else 0.0,
            sum(self.weight[s] for _, s in hits),
        )


def _places(
    words: frozenset[str], positions: dict[str, tuple[int, ...]], sentence_of: Sequence[int]
) -> dict[int, list[int]]:
    """Sentence -> the indices of its words with a stem among ``words``."""
    places: dict[int, list[int]] = {}
    for word_stem in words:
        for index in positions.get(word_stem, ()):
            places.setdefault(sentence_of[index], []).append(index)
    return places


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


class _Number(NamedTuple):
    """A number of the contexts that the question does not give: where it stands, its value,
    its kind (:func:`number_kind`) and its life-span role."""

    context: int
    first: int
    end: int
    value: str
    kind: str
    role: str


@lru_cache(maxsize=256)
def _readers(question: str, contexts: tuple[str, ...]) -> tuple[_Reader, ...]:
    asked = question_info(question)
    return tuple(_Reader(asked, text_info(context)) for context in contexts)


def _name_fit(slot: float, vector: tuple[float, ...]) -> float:
    """A name's fit from its ``slot`` and its other features (``vector[1:]``)."""
    return float(sum(map(mul, _NAME_WEIGHT_LIST, (slot, *vector[1:]))))


_BOUND_SLACK = 1e-9
"""Added to a name's bound of its fit: the bound and the fit are sums of the same terms in
another order, and may differ in their last bits."""


_Candidate = tuple[tuple[int, int, int], tuple[str, ...]]
"""A rival name: its place ``(context, first, end)`` and its content stems (plain tuples,
which the garbage collector stops tracking)."""


class _NameTable:
    """The names of the contexts, each fitted on first need. The names of one sentence share a
    *bound* of their fit (:meth:`_Reader.name_bounds`), and a fitted name has a second,
    tighter one: its fit with ``slot`` at its sentence's bound (:attr:`_Reader.slot_bound`).
    So the best fit among some names is found without reading the names whose bound is below
    the best fit found: the result is the one of fitting every name, at a fraction of the
    cost."""

    __slots__ = ("candidates", "fits", "readers", "sentences", "sites", "vectors")

    def __init__(self, question: str, contexts: tuple[str, ...]) -> None:
        self.readers = readers = _readers(question, contexts)
        # (bound, context, first name, end name): the names of one sentence, by bound, best
        # first (sorted stably: among equal bounds, in text order)
        sentences: list[tuple[float, int, int, int]] = []
        for context, reader in enumerate(readers):
            names = reader.info.names
            sentence_of = reader.info.sentence_of
            runs: list[tuple[int, int, int]] = []
            low = 0
            for index in range(1, len(names) + 1):
                sentence = sentence_of[names[low].first]
                if index == len(names) or sentence_of[names[index].first] != sentence:
                    runs.append((sentence, low, index))
                    low = index
            bounds = reader.name_bounds([sentence for sentence, _, _ in runs])
            sentences += [
                (bound, context, low, high)
                for bound, (_, low, high) in zip(bounds, runs, strict=True)
            ]
        sentences.sort(key=_by_bound)
        self.sentences = sentences
        self.candidates: list[tuple[_Candidate, ...] | None] = [None] * len(sentences)
        # memoized by place, a plain ``(context, first, end)`` (which equals its Found): the
        # collector stops tracking a plain tuple of numbers, never a named one
        self.sites: dict[tuple[int, int, int], _Site] = {}
        self.vectors: dict[tuple[int, int, int], tuple[float, ...]] = {}
        self.fits: dict[tuple[int, int, int], float] = {}

    def _site(self, place: tuple[int, int, int]) -> _Site:
        """The :class:`_Site` of ``place`` (memoized with the table, not with the context: a
        table is dropped with its question, and what it held with it)."""
        site = self.sites.get(place)
        if site is None:
            context, first, end = place
            site = self.sites[place] = _site(self.readers[context].info, first, end)
        return site

    def vector(self, place: tuple[int, int, int]) -> tuple[float, ...]:
        """The features of the name at ``place`` with ``slot`` at its bound (memoized)."""
        vector = self.vectors.get(place)
        if vector is None:
            reader = self.readers[place[0]]
            vector = self.vectors[place] = reader.name_vector(self._site(place))
        return vector

    def place_fit(self, place: tuple[int, int, int]) -> float:
        """The fit of the name at ``place`` (a name of the contexts, or any run of words;
        memoized)."""
        fit = self.fits.get(place)
        if fit is None:
            slot = self.readers[place[0]].name_slot(self._site(place))
            fit = self.fits[place] = _name_fit(slot, self.vector(place))
        return fit

    def best_place_fit(self, places: Sequence[Found]) -> float:
        """The best :meth:`place_fit` of ``places`` (at least one), fitting only the places
        whose bound (:meth:`_Reader.name_bounds`) reaches the best fit found."""
        if len(places) == 1:
            return self.place_fit(places[0])

        def bound(place: Found) -> float:
            reader = self.readers[place.context]
            return reader.name_bounds([reader.info.sentence_of[place.first]])[0]

        bounds = [bound(place) for place in places]
        order = sorted(range(len(places)), key=lambda i: -bounds[i])
        best = self.place_fit(places[order[0]])
        for index in order[1:]:
            if bounds[index] < best:
                break
            best = max(best, self.place_fit(places[index]))
        return best

    def rival(self, answer: frozenset[str], found: Sequence[Found]) -> tuple[float, Found] | None:
        """The best fit of a name with content words, not all of them the question's, sharing
        no stem of ``answer`` and overlapping no place of ``found`` (the first in text order
        among equal fits), with its place; None if none."""
        best: tuple[int, int, int] | None = None
        best_fit = 0.0
        weights = _NAME_WEIGHT_LIST
        fits = self.fits
        for group, (bound, context, _, _) in enumerate(self.sentences):
            if best is not None and bound < best_fit:
                break
            overlapped = [(f.first, f.end) for f in found if f.context == context]
            for place, content in self._candidates(group):
                if not answer.isdisjoint(content):
                    continue
                _, first, end = place
                if overlapped and any(a < end and first < b for a, b in overlapped):
                    continue
                if best is not None and place not in fits:
                    tighter = sum(map(mul, weights, self.vector(place))) + _BOUND_SLACK
                    if tighter < best_fit:
                        continue
                fit = self.place_fit(place)
                if best is None or fit > best_fit or (fit == best_fit and place < best):
                    best, best_fit = place, fit
        if best is None:
            return None
        return best_fit, Found(*best)

    def _candidates(self, group: int) -> tuple[_Candidate, ...]:
        """The names of sentence run ``group`` (of :attr:`sentences`) with a content word that
        is not the question's, each with its content stems (memoized: the answers to one
        question share them)."""
        candidates = self.candidates[group]
        if candidates is None:
            _, context, low, high = self.sentences[group]
            reader = self.readers[context]
            info, asked = reader.info, reader.asked.content
            stems, mask = info.stems, info.content
            found: list[_Candidate] = []
            for name in info.names[low:high]:
                first, end = name.first, name.end
                content = tuple(compress(stems[first:end], mask[first:end]))
                if not asked.issuperset(content):
                    found.append(((context, first, end), content))
            candidates = self.candidates[group] = tuple(found)
        return candidates


def _by_bound(sentence: tuple[float, int, int, int]) -> float:
    return -sentence[0]


@lru_cache(maxsize=256)
def _name_table(question: str, contexts: tuple[str, ...]) -> _NameTable:
    """The :class:`_NameTable` of the question and contexts."""
    return _NameTable(question, contexts)


class _NumberTable:
    """The numbers of the contexts that the question does not give, each fitted on first
    need (a number competes only with numbers of its kind)."""

    __slots__ = ("fits", "numbers", "readers")

    def __init__(self, question: str, contexts: tuple[str, ...]) -> None:
        self.readers = readers = _readers(question, contexts)
        self.numbers = [
            _Number(
                index,
                number.first,
                number.end,
                number.value,
                number_kind(reader.info, number.first, number.end, number.value),
                number.role,
            )
            for index, reader in enumerate(readers)
            for number in reader.info.numbers
            if number.value not in reader.asked.numbers
        ]
        self.fits: dict[int, float] = {}

    def fit(self, index: int) -> float:
        """The fit of number ``index`` (memoized)."""
        fit = self.fits.get(index)
        if fit is None:
            number = self.numbers[index]
            reader = self.readers[number.context]
            fit = self.fits[index] = reader.number_fit(number.first, number.end, number.role)
        return fit


@lru_cache(maxsize=256)
def _number_table(question: str, contexts: tuple[str, ...]) -> _NumberTable:
    """The :class:`_NumberTable` of the question and contexts."""
    return _NumberTable(question, contexts)


def _overlaps(context: int, first: int, end: int, found: Sequence[Found]) -> bool:
    """Whether words ``first`` to ``end - 1`` of context ``context`` overlap a place of
    ``found``."""
    return any(f.context == context and f.first < end and first < f.end for f in found)


def _text(contexts: tuple[str, ...], place: _Number | Found) -> str:
    return text_info(contexts[place.context]).span_text(place.first, place.end)


def name_margin(
    question: str, contexts: tuple[str, ...], found: Sequence[Found], answer: frozenset[str]
) -> tuple[float, str] | None:
    """The fit of the answer's name (best of its places ``found``) minus the best fit of the
    other names of the contexts, with that best other name; None when no other name competes.
    ``answer``: the answer's content stems (a name sharing one is no rival: "Ken" / "Kenneth
    "Ken" Leung")."""
    table = _name_table(question, contexts)
    rival = table.rival(answer, found)
    if rival is None:
        return None
    own = table.best_place_fit(found)
    rival_fit, place = rival
    return own - rival_fit, _text(contexts, place)


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
    numbers = table.numbers
    rivals = [
        i
        for i, n in enumerate(numbers)
        if n.value != value and n.value not in exclude and n.kind == kind
    ]
    if not rivals:
        return None
    own = max(
        (
            table.fit(i)
            for i, n in enumerate(numbers)
            if n.value == value and _overlaps(n.context, n.first, n.end, found)
        ),
        default=None,
    )
    if own is None:
        return None
    rival = max(rivals, key=table.fit)
    return own - table.fit(rival), _text(contexts, numbers[rival])


def clear_relation_caches() -> None:
    """Forget the memoized names, readers and tables of every question and context."""
    for cache in (_readers, _name_table, _number_table):
        cache.cache_clear()
