"""Yes or no, and negation: what the contexts state, for ``answer_support``.

**Yes/no questions** ("Are Wenling and Xinzheng both in China?"). The question's *entities* are
its names joined by "and"/"or" (else its first name found in a context); its other content
words (and its other names) are the *predicate*. Each entity's *passage* is the context
sentences that name it, plus the sentences that follow until another entity is named.

* "same"/"different" questions compare one attribute of the entities, read from the first
  sentence of their passages (:data:`_ATTRIBUTES`): nationality words and places for
  "nationality"/"country", capitalised names for "family"/"genus", names after "by" for
  "director"/"author", places ("in X", "from X") for "state"/"city"/..., years for
  "year"/"decade"/...; there :func:`yes_probability` is 1 when the entities share a value and
  0 when they share none. Otherwise it is the share of the smaller set of lowercase content
  words found in both. It is 1/2 when a value is missing; "different" swaps yes and no.
* Otherwise the predicate must hold for every entity: the probability of "yes" is the smallest
  share, over the entities, of the predicate's words found in the entity's passage (a word or
  another of its group in :data:`WORD_GROUPS`: "novelist" says "author").
* A comparison ("bigger than") is not judged.

**Negation**: a claim and the context sentence that states it should agree on "not", "never",
"no" or "n't" (:func:`is_negated`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

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
NATIONALITY_ASKS = frozenset(["nationality", "citizenship", "nation", "country", "countri"])
PLACE_ASKS = frozenset(
    [
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
TIME_ASKS = frozenset(["year", "decade", "century", "time", "date", "age", "month"])
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
    "author writer novelist poet playwright journalist essayist screenwriter lyricist",
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
FAMILY_ASKS = frozenset(["family", "genus", "order"])
MAKER_ASKS = frozenset(["director", "author", "writer", "creator", "founder", "composer"])
_ATTRIBUTES = (
    (NATIONALITY_ASKS, "nationality"),
    (FAMILY_ASKS, "names"),
    (MAKER_ASKS, "makers"),
    (PLACE_ASKS, "places"),
    (TIME_ASKS, "years"),
)
"""Which values "same X" compares: nationality words and places, capitalised names (a
family), names after "by" (a director), places ("in X", "from X"), years."""


def is_negated(words: list[str]) -> bool:
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
    contexts, or the question compares ("bigger than", "more films than")."""
    asked = question_info(question)
    info = asked.info
    lowered = {w.lower() for w in info.raw}
    if "than" in lowered:
        return None
    infos = [text_info(c) for c in contexts]
    sentences = [s for i in infos for s in _sentences(i)]
    every_stem: frozenset[str] = frozenset().union(*(stems for stems, _ in sentences))
    entities, predicate = _entities(info, every_stem, infos)
    if not entities:
        return None
    passages = _passages(sentences, entities)
    if lowered & (SAME_WORDS | DIFFERENT_WORDS) and len(entities) >= 2:
        same = _same(asked.content, entities, passages)
        if same is None:
            return 0.5
        return 1.0 - same if lowered & DIFFERENT_WORDS else same
    if not predicate:
        return None
    return min(_covered(predicate, passage.stems) for passage in passages)


def _covered(predicate: frozenset[str], stems: set[str]) -> float:
    """The share of the predicate's words a passage has, itself or a word of its group."""
    held = stems | {GROUP_OF[s] for s in stems if s in GROUP_OF}
    found = sum(1 for s in predicate if s in held or GROUP_OF.get(s, s) in held)
    return found / len(predicate)


def _sentences(info: TextInfo) -> list[tuple[frozenset[str], list[tuple[str, str]]]]:
    starts = info.sentence_starts
    return [
        (
            info.sentence_stems[i],
            list(
                zip(
                    info.raw[starts[i] : starts[i + 1]],
                    info.stems[starts[i] : starts[i + 1]],
                    strict=True,
                )
            ),
        )
        for i in range(len(info.sentences))
    ]


def _entities(
    info: TextInfo, known: frozenset[str], contexts: list[TextInfo]
) -> tuple[list[frozenset[str]], frozenset[str]]:
    """The entities' distinctive content stems (those found in the contexts) and the predicate's
    stems. ``known``: every stem of the contexts."""

    def adjacent(first: str, second: str) -> bool:
        return any(context.adjacent(first, second) for context in contexts)

    names = info.names
    raw, stems = info.raw, info.stems
    linked: set[int] = set()
    for index in range(len(names) - 1):
        between = [w.lower() for w in raw[names[index].end : names[index + 1].first]]
        if between in (["and"], ["or"]):
            linked.update((index, index + 1))
    entities: list[frozenset[str]] = []
    taken: set[str] = set()
    for index, name in enumerate(names):
        if not (index in linked if linked else not entities):
            continue
        first, end = name.first, name.end
        nationality_last = end - first > 1 and _NATIONALITY.search(raw[end - 1])
        if nationality_last and not adjacent(stems[end - 2], stems[end - 1]):
            end -= 1  # "Kings of Leon American rock bands": "American" is said of them
        while end < len(raw) and raw[end][0].islower() and adjacent(stems[end - 1], stems[end]):
            end += 1  # "Sake bomb": the contexts write the name on
        content = info.content_stems(first, end)
        taken.update(content)
        if content & known:
            entities.append(content)
    shared = {s for i, a in enumerate(entities) for b in entities[i + 1 :] for s in a & b}
    entities = [entity - shared or entity for entity in entities]
    predicate = frozenset(
        s
        for w, s in zip(raw, stems, strict=True)
        if is_content(w)
        and s not in taken
        and w.lower() not in PREDICATE_SKIP
        and w.lower() not in SAME_WORDS
        and w.lower() not in DIFFERENT_WORDS
    )
    return entities, predicate


class _Passage:
    __slots__ = ("first", "stems")

    def __init__(self) -> None:
        self.stems: set[str] = set()
        self.first: list[tuple[str, str]] | None = None


def _passages(
    sentences: list[tuple[frozenset[str], list[tuple[str, str]]]], entities: list[frozenset[str]]
) -> list[_Passage]:
    passages = [_Passage() for _ in entities]
    current: int | None = None
    for stems, words in sentences:
        hits = [k for k, entity in enumerate(entities) if entity & stems]
        current = hits[0] if len(hits) == 1 else (None if hits else current)
        for k in hits or ([current] if current is not None else []):
            passages[k].stems.update(stems)
            if passages[k].first is None:
                passages[k].first = words
    return passages


def _same(
    asked: frozenset[str], entities: list[frozenset[str]], passages: list[_Passage]
) -> float | None:
    """1 when the entities share a value of the asked attribute, 0 when they share none, None
    when a value is missing; for another attribute, the share of the smaller set of lowercase
    content words found in both."""
    kind = next((kind for asks, kind in _ATTRIBUTES if asked & asks), "words")
    values = [
        _values(kind, entity, passage.first or [])
        for entity, passage in zip(entities, passages, strict=True)
    ]
    if not all(values):
        return None
    shared = set.intersection(*values)
    if kind != "words":
        return 1.0 if shared else 0.0
    return len(shared) / min(len(v) for v in values)


def _values(kind: str, entity: frozenset[str], words: list[tuple[str, str]]) -> set[str]:
    """The values of one attribute in an entity's first sentence (``(word, stem)`` pairs)."""
    if kind == "years":
        return {s for w, s in words if is_number(w) and len(w) == 4}
    if kind == "words":
        return {s for w, s in words if is_content(w) and not w[0].isupper() and s not in entity}
    if kind == "names":
        return {s for w, s in words if w[0].isupper() and s not in entity}
    markers = _MAKER_MARKERS if kind == "makers" else _PLACE_MARKERS
    found = {
        s
        for (before, _), (w, s) in pairwise(words)
        if before.lower() in markers and w[0].isupper() and s not in entity
    }
    if kind == "nationality":
        found |= {
            s for w, s in words if w[0].isupper() and s not in entity and _NATIONALITY.search(w)
        }
    return found
