"""Yes or no, and negation: what the contexts state, for ``answer_support``.

**Yes/no questions** ("Are Wenling and Xinzheng both in China?"). The question's *entities* are
its names joined by "and"/"or", with or without an article ("the X and the Y"), each written on
as far as the contexts write it, across lowercase and capitalised words ("Gin and tonic", "Sake
bomb", "A Kid in King Arthur's Court") but not onto a lone "and"; else its first name found in
a context. A nationality word that ends a name ("Quoridor German board games") is said of the
entity, not part of it. Its other content words (and its other names) are the *predicate*.
Each entity's *passage* is the context sentences that name it, plus the sentences that follow
until another entity is named.

* "same"/"different" questions compare one attribute of the entities, read from the first
  sentence of their passages that gives one (:data:`_ATTRIBUTES`), outside parentheses:
  nationality words and places for "nationality"/"country" (a nationality word and its
  country's name are one value), capitalised names for "family"/"genus", names after "by" for
  "director"/"author", places ("in X", "from the X", ", X") for "state"/"city"/..., years for
  "year"/"decade"/...; there :func:`yes_probability` is 1 when the entities share a value and
  0 when they share none. Otherwise it is the share of the smaller set of lowercase content
  words found in both. It is 1/2 when a value is missing; "different" swaps yes and no.
* Otherwise the predicate must hold for every entity: the probability of "yes" is the smallest
  weighted share, over the entities, of the predicate's words found in the entity's passage (a
  word, another of its group in :data:`WORD_GROUPS`: "novelist" says "author", or a longer word
  it starts: "director" says "direct"). A capitalised word or a number weighs
  :data:`PREDICATE_NAME_WEIGHT`, another word 1, a word no passage has
  :data:`UNSAID_WEIGHT`; without any word the question is not judged. A nationality word is
  said by its country ("American" by "the United States": :mod:`.answer_places`).
* A comparison ("bigger than") is not judged.

**Negation**: a claim and the context sentence that states it should agree on "not", "never",
"no" or "n't" (:func:`is_negated`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from assay_faithfulness.answer_places import COUNTRY_OF, country_keys
from assay_faithfulness.answer_question import question_info
from assay_faithfulness.answer_text import (
    NEGATIONS,
    TextInfo,
    is_content,
    is_number,
    stem,
    text_info,
)

__all__ = ["SAME_WORDS", "is_negated", "yes_probability"]

SAME_WORDS = frozenset(["same", "share", "shared", "similar", "common", "alike"])
DIFFERENT_WORDS = frozenset(["different", "differ", "distinct"])
NATIONALITY_ASKS = frozenset(stem(w) for w in ["nationality", "citizenship", "nation", "country"])
PLACE_ASKS = frozenset(
    stem(w)
    for w in [
        "state",
        "city",
        "town",
        "county",
        "region",
        "continent",
        "place",
        "location",
        "area",
        "province",
    ]
)
TIME_ASKS = frozenset(
    stem(w) for w in ["year", "decade", "century", "time", "date", "age", "month"]
)
PREDICATE_SKIP = frozenset(
    [
        "both",
        "all",
        "either",
        "also",
        "type",
        "kind",
        "known",
        "considered",
        "located",
        "originally",
        "each",
    ]
)
"""Question words that are no part of what the entities must be."""

WORD_GROUPS = (
    "author writer writing novelist poet playwright journalist essayist screenwriter lyricist",
    "musician singer vocalist songwriter rapper",
    "director filmmaker",
    "actor actress",
    "plant flowering shrub herb",
    "drink cocktail beverage beer wine liqueur",
    "magazine periodical publication newspaper",
    "band group duo trio",
    "city town municipality",
    "film movie",
)
"""Words that stand for one another when a passage is checked for what a yes/no question says
of an entity ("authors" is said by "novelist")."""
GROUP_OF = {stem(word): group.split()[0] for group in WORD_GROUPS for word in group.split()}
_NATIONALITY = re.compile(r"(?:an|ese|ish|ic|i|ch)$")
_PLACE_MARKERS = frozenset(["in", "at", "from", "of"])
_MAKER_MARKERS = frozenset(["by"])
FAMILY_ASKS = frozenset(stem(w) for w in ["family", "genus", "order"])
MAKER_ASKS = frozenset(
    stem(w) for w in ["director", "author", "writer", "creator", "founder", "composer"]
)
_ATTRIBUTES = (
    (NATIONALITY_ASKS, "nationality"),
    (FAMILY_ASKS, "names"),
    (MAKER_ASKS, "makers"),
    (PLACE_ASKS, "places"),
    (TIME_ASKS, "years"),
)
"""Which values "same X" compares: nationality words and places, capitalised names (a
family), names after "by" (a director), places ("in X", "from X"), years."""


_ARTICLES = frozenset(["a", "an", "the"])
PREDICATE_NAME_WEIGHT = 3.0
"""Weight of a capitalised word or a number of the predicate ("both *American*", "the cypress
family *Cupressaceae*", "released in *2001*") against 1 for another word: a name, a nationality
or a date decides what a passage says of an entity more than a common word (chosen on the
design rows)."""
UNSAID_WEIGHT = 0.25
"""Weight of a predicate word that no passage says: it counts against "yes" for every entity
alike, so it weighs less than a word one passage says and another does not (chosen on the
design rows)."""
PREFIX_LENGTH = 4
"""A predicate word of at least this many letters is also said by a longer word it starts
("direct" by "director", "film" by "filmmaker")."""


def is_negated(words: Iterable[str]) -> bool:
    """Whether the words hold a negation ("not", "never", ..., or the "t" of "didn't")."""
    previous = ""
    for word in words:
        lowered = word.lower()
        if lowered in NEGATIONS or (lowered == "t" and previous.endswith("n")):
            return True
        previous = lowered
    return False


@lru_cache(maxsize=512)
def yes_probability(question: str, contexts: tuple[str, ...]) -> float | None:
    """How far the contexts support "yes" to a yes/no question, in [0, 1] (see the module
    docstring); None when it cannot be judged: no entity of the question is found in the
    contexts, the question compares ("bigger than", "more films than"), or no word of what
    it asks is in the contexts."""
    asked = question_info(question)
    info = asked.info
    lowered = {w.lower() for w in info.raw}
    if "than" in lowered:
        return None
    infos = [text_info(c) for c in contexts]
    sentences = [(i, k) for i in infos for k in range(len(i.sentences))]
    every_stem: frozenset[str] = frozenset().union(*(i.sentence_stems[k] for i, k in sentences))
    entities, predicate = _entities(info, every_stem, infos)
    if not entities:
        return None
    passages = _passages(sentences, entities)
    if lowered & (SAME_WORDS | DIFFERENT_WORDS) and len(entities) >= 2:
        same = _same(asked.content, entities, passages)
        if same is None:
            return 0.5
        return 1.0 - same if lowered & DIFFERENT_WORDS else same
    # a word no passage has is said of no entity ("Are X and Y both genera of *pine* trees?"),
    # but tells them no apart: it weighs less
    everywhere = _with_groups(every_stem)
    predicate = {s: w if _held(s, everywhere) else UNSAID_WEIGHT for s, w in predicate.items()}
    if not predicate:
        return None
    return min(_covered(predicate, passage.stems) for passage in passages)


def _with_groups(stems: set[str] | frozenset[str]) -> set[str]:
    """The stems, the group (:data:`WORD_GROUPS`) of each, and the countries they name
    (:func:`~assay_faithfulness.answer_places.country_keys`, each as ``"@"`` and its key)."""
    countries = {"@" + key for key in country_keys(stems)}
    return {*stems, *(GROUP_OF[s] for s in stems if s in GROUP_OF), *countries}


def _held(word_stem: str, held: set[str]) -> bool:
    """Whether a predicate word is said by a passage's stems ``held`` (with their groups and
    countries): the word, another of its group, its country ("American" / "the United
    States"), or a longer word it starts ("direct" / "director")."""
    if word_stem in held or GROUP_OF.get(word_stem, word_stem) in held:
        return True
    if word_stem in COUNTRY_OF and "@" + COUNTRY_OF[word_stem] in held:
        return True
    return len(word_stem) >= PREFIX_LENGTH and any(s.startswith(word_stem) for s in held)


def _covered(predicate: dict[str, float], stems: set[str]) -> float:
    """The weighted share of the predicate's words a passage says (:func:`_held`)."""
    held = _with_groups(stems)
    found = total = 0.0  # floats from the start: sum() of floats would start from the int 0
    for word_stem, weight in predicate.items():
        total += weight
        if _held(word_stem, held):
            found += weight
    return found / total


def _entities(
    info: TextInfo, known: frozenset[str], contexts: list[TextInfo]
) -> tuple[list[frozenset[str]], dict[str, float]]:
    """The entities' distinctive content stems (those found in the contexts) and the predicate:
    stem -> weight (:data:`PREDICATE_NAME_WEIGHT` for a capitalised word or a number, else 1). ``known``:
    every stem of the contexts."""

    def adjacent(first: str, second: str) -> bool:
        return any(context.adjacent(first, second) for context in contexts)

    raw, stems = info.raw, info.stems
    spans: list[tuple[int, int]] = []
    for name in info.names:
        first, end = name.first, name.end
        nationality_last = (end - first > 2 and _NATIONALITY.search(raw[end - 1])) or (
            end - first == 2 and stems[end - 1] in COUNTRY_OF
        )
        if nationality_last and not adjacent(stems[end - 2], stems[end - 1]):
            end -= 1  # "Kings of Leon American rock bands": "American" is said of them
        written_on = end
        while written_on < len(raw) and adjacent(stems[written_on - 1], stems[written_on]):
            written_on += 1  # "Sake bomb", "Gin and tonic": the contexts write the name on
            if is_content(raw[written_on - 1]):
                end = written_on  # not onto an "and" alone: "X and" + "Y" is two entities
        if not spans or first >= spans[-1][1]:
            spans.append((first, end))
    linked: set[int] = set()
    for index in range(len(spans) - 1):
        between = [w.lower() for w in raw[spans[index][1] : spans[index + 1][0]]]
        if between[:1] in (["and"], ["or"]) and set(between[1:]) <= _ARTICLES:
            linked.update((index, index + 1))
    entities: list[frozenset[str]] = []
    taken: set[str] = set()
    for index, (first, end) in enumerate(spans):
        if not (index in linked if linked else not entities):
            continue
        content = info.content_stems(first, end)
        taken.update(content)
        if content & known:
            entities.append(content)
    shared = {s for i, a in enumerate(entities) for b in entities[i + 1 :] for s in a & b}
    entities = [entity - shared or entity for entity in entities]
    predicate = {
        s: PREDICATE_NAME_WEIGHT if (w[0].isupper() and i > 0) or is_number(w) else 1.0
        for i, (w, s) in enumerate(zip(raw, stems, strict=True))
        if is_content(w)
        and s not in taken
        and w.lower() not in PREDICATE_SKIP
        and w.lower() not in SAME_WORDS
        and w.lower() not in DIFFERENT_WORDS
    }
    return entities, predicate


class _Passage:
    """The sentences of the contexts about one entity: their stems, and the sentences in order
    (a context's analysis and a sentence index)."""

    __slots__ = ("sentences", "stems")

    def __init__(self) -> None:
        self.stems: set[str] = set()
        self.sentences: list[tuple[TextInfo, int]] = []


def _passages(
    sentences: list[tuple[TextInfo, int]], entities: list[frozenset[str]]
) -> list[_Passage]:
    passages = [_Passage() for _ in entities]
    current: int | None = None
    for info, sentence in sentences:
        stems = info.sentence_stems[sentence]
        hits = [k for k, entity in enumerate(entities) if entity & stems]
        current = hits[0] if len(hits) == 1 else (None if hits else current)
        for k in hits or ([current] if current is not None else []):
            passages[k].stems.update(stems)
            passages[k].sentences.append((info, sentence))
    return passages


def _same(
    asked: frozenset[str], entities: list[frozenset[str]], passages: list[_Passage]
) -> float | None:
    """1 when the entities share a value of the asked attribute, 0 when they share none, None
    when a value is missing; for another attribute, the share of the smaller set of lowercase
    content words found in both."""
    kind = next((kind for asks, kind in _ATTRIBUTES if asked & asks), "words")
    values = [
        next(
            (found for where in passage.sentences if (found := _values(kind, entity, where))), set()
        )
        for entity, passage in zip(entities, passages, strict=True)
    ]
    if not all(values):
        return None
    shared = set.intersection(*values)
    if kind != "words":
        return 1.0 if shared else 0.0
    return len(shared) / min(len(v) for v in values)


def _values(kind: str, entity: frozenset[str], where: tuple[TextInfo, int]) -> set[str]:
    """The values of one attribute in one sentence about an entity."""
    info, sentence = where
    first, end = info.sentence_starts[sentence], info.sentence_starts[sentence + 1]
    words = list(zip(info.raw[first:end], info.stems[first:end], strict=True))
    if kind == "years":
        return {s for w, s in words if is_number(w) and len(w) == 4}
    if kind == "words":
        return {s for w, s in words if is_content(w) and not w[0].isupper() and s not in entity}
    if kind == "names":
        return {s for w, s in words if w[0].isupper() and s not in entity}
    markers = _MAKER_MARKERS if kind == "makers" else _PLACE_MARKERS
    found = set()
    before = ""
    gaps = info.gaps
    inside = info.layout.in_parentheses
    for index, (w, s) in enumerate(words):
        lowered = w.lower()
        # a parenthesis holds codes and other names ("(IATA: SAN, ICAO: KSAN)"), not the value
        if w[0].isupper() and s not in entity and not inside[first + index]:
            # a place follows its marker ("in the United States") or a comma ("Yunnan, China")
            comma = kind != "makers" and gaps[first + index].startswith(",")
            nationality = kind == "nationality" and _NATIONALITY.search(w) is not None
            if before in markers or comma or nationality:
                found.add(s)
        if lowered not in _ARTICLES:
            before = lowered
    if kind == "nationality":
        # "American" and "the United States" name one country
        found = {COUNTRY_OF.get(s, s) for s in found} | country_keys(found)
    return found
