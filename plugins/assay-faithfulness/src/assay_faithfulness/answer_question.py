"""What a question asks for, as ``answer_support`` reads it (memoized by question text).

* The **slot** is where the answer goes: the first question word ("what", "who", "when"...), or
  the end of a question without one. Every content word of the question gets its distance in
  words from the slot (a capitalised word counts :data:`NAME_WORD_SHIFT` words farther: names
  in a question mostly say *which* passage to read, the other words say what to take from it).
* **Type words** name the kind of answer: the words after "what"/"which"/"whose" ("what
  *television series*"), or after "name of the".
* **Focus words** are the verb after "who" ("who *directed*") or the word before a final
  question word ("best known for *playing* who?").
* **Expects**: ``yes-no`` (no question word, and an auxiliary such as "is", "did", "have"),
  ``nationality``,
  ``place``, ``person``, ``year``, ``count`` or ``other``.
* **Options** of a choice question ("..., Crumb or Cancer?"): the answer should be one of them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import compress

from assay_faithfulness.answer_text import (
    NAME_PATTERN,
    QUESTION_WORDS,
    TextInfo,
    is_content,
    number_value,
    split_words,
    stems,
)

__all__ = ["NAME_WORD_SHIFT", "QuestionInfo", "question_info"]

NAME_WORD_SHIFT = 20
"""Extra distance from the slot for a capitalised question word (chosen on the design rows)."""

AUXILIARIES = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "do",
        "does",
        "did",
        "can",
        "could",
        "has",
        "have",
        "had",
        "will",
        "would",
        "should",
        "may",
        "might",
        "must",
    ]
)
"""Words that open a yes/no question."""

PLACE_WORDS = frozenset(
    [
        "city",
        "country",
        "state",
        "county",
        "town",
        "village",
        "region",
        "island",
        "province",
        "district",
        "area",
        "location",
        "capital",
        "continent",
        "borough",
        "neighborhood",
        "neighbourhood",
        "suburb",
        "municipality",
        "valley",
        "river",
        "mountain",
        "lake",
    ]
)
PERSON_WORDS = frozenset(
    [
        "person",
        "man",
        "woman",
        "actor",
        "actress",
        "singer",
        "musician",
        "writer",
        "author",
        "director",
        "producer",
        "player",
        "politician",
        "president",
        "king",
        "queen",
        "composer",
        "artist",
        "poet",
        "novelist",
        "journalist",
        "coach",
        "founder",
        "member",
        "footballer",
        "rapper",
        "comedian",
        "character",
    ]
)
YEAR_WORDS = frozenset(["year", "decade", "century", "date", "birthdate", "birthday"])
COUNT_WORDS = frozenset(
    ["many", "much", "old", "long", "tall", "population", "number", "age", "percentage"]
)
_DETERMINERS = frozenset(
    [
        "of",
        "the",
        "a",
        "an",
        "his",
        "her",
        "their",
        "its",
        "this",
        "that",
        "these",
        "those",
        "type",
        "kind",
    ]
)
# ``\d\d*``, not ``\d+``: a pattern that opens on a lone class lets ``re`` skip ahead to the
# next digit, which is faster on the many questions without one
_NUMBER = re.compile(r"\d\d*(?:[.,]\d+)*")
OPTION_WORDS = 6
"""A choice question's option has at most this many words."""
_CHOICE = re.compile(r"(?:^|[\s,:])([^,:]+?)\s+or\s+([^,?]+?)\s*[,?]")


class QuestionInfo:
    """What :mod:`answer_support` needs to know about one question (see the module docstring).

    Attributes:
        info: the question's words.
        content: stems of its content words.
        slot_distance: stem -> distance of its nearest occurrence from the slot.
        type_words: stems naming the kind of answer.
        focus: stems of the focus words.
        expects: what kind of answer the question asks for.
        options: the content stems of each option of a choice question (else empty).
        numbers: the numbers the question itself gives (as compared).
    """

    __slots__ = (
        "content",
        "expects",
        "focus",
        "info",
        "numbers",
        "options",
        "slot_distance",
        "type_words",
    )

    def __init__(self, question: str) -> None:
        stripped = question.strip()
        info = self.info = TextInfo(stripped)
        words, word_stems, mask = info.raw, info.stems, info.content
        lowered = [word.lower() for word in words]
        self.content = frozenset(compress(word_stems, mask))
        slot = _slot(lowered)
        distances: dict[str, int] = {}
        for index in compress(range(len(words)), mask):
            distance = index - slot if index >= slot else slot - index
            if index and words[index][0].isupper():
                distance += NAME_WORD_SHIFT
            word_stem = word_stems[index]
            if distance < distances.get(word_stem, distance + 1):
                distances[word_stem] = distance
        self.slot_distance = distances
        self.type_words = _frozen(_type_words(lowered, mask, word_stems, slot))
        self.focus = _frozen(_focus_words(lowered, mask, word_stems, slot))
        self.expects = _expects(lowered, slot, self.type_words)
        self.options = _options(stripped) if self.expects != "yes-no" and " or " in stripped else ()
        self.numbers = _frozen([number_value(n) for n in _NUMBER.findall(question)])


_NOTHING: frozenset[str] = frozenset()


def _frozen(items: list[str]) -> frozenset[str]:
    """``frozenset(items)``, the one shared empty set when ``items`` is empty (most questions
    give no number and no focus word; the garbage collector keeps walking every set a memoized
    question holds, but not one shared set)."""
    return frozenset(items) if items else _NOTHING


def _slot(lowered: list[str]) -> int:
    """The interrogative word's index: an opening one ("What year...", "In which city..."),
    else the last one ("...named after who?"), else the end of the question."""
    for index in range(min(2, len(lowered))):
        if lowered[index] in QUESTION_WORDS:
            return index
    for index in range(len(lowered) - 1, -1, -1):
        if lowered[index] in QUESTION_WORDS:
            return index
    return len(lowered)


def _type_words(
    lowered: list[str], content: Sequence[bool], stems: Sequence[str], slot: int
) -> list[str]:
    found: list[str] = []
    starts = []
    if slot < len(lowered) and lowered[slot] in ("what", "which", "whose"):
        starts.append(slot + 1)
    if "name" in lowered:
        for index in range(len(lowered) - 2):
            if lowered[index] == "name" and lowered[index + 1] == "of":
                starts.append(index + 2)
    for start in starts:
        index = start
        while index < len(lowered) and lowered[index] in _DETERMINERS:
            index += 1
        while (
            index < len(lowered)
            and len(found) < 3
            and content[index]
            and lowered[index] not in AUXILIARIES
        ):
            found.append(stems[index])
            index += 1
    return found


def _focus_words(
    lowered: list[str], content: Sequence[bool], stems: Sequence[str], slot: int
) -> list[str]:
    found: list[str] = []
    if slot >= len(lowered):
        return found
    if lowered[slot] in ("who", "whom"):
        index = slot + 1
        while index < len(lowered) and len(found) < 2 and content[index]:
            found.append(stems[index])
            index += 1
    last = len(lowered) - 1
    if slot >= last - 1:
        index = slot - 1
        while index >= 0 and not content[index]:
            index -= 1
        if index >= 0:
            found.append(stems[index])
    return found


def _expects(lowered: list[str], slot: int, type_words: frozenset[str]) -> str:
    if slot == len(lowered) and not AUXILIARIES.isdisjoint(lowered):
        return "yes-no"
    wh = lowered[slot] if slot < len(lowered) else ""
    after = lowered[slot + 1] if slot + 1 < len(lowered) else ""
    if "nationality" in lowered or "citizenship" in type_words:
        return "nationality"
    if wh == "when" or (wh in ("what", "which") and after in YEAR_WORDS) or type_words & YEAR_WORDS:
        return "year"
    if (wh == "how" and after in COUNT_WORDS) or type_words & {"population", "number", "age"}:
        return "count"
    if wh == "where" or type_words & PLACE_WORDS:
        return "place"
    if wh in ("who", "whom", "whose") or type_words & PERSON_WORDS:
        return "person"
    return "other"


def _options(question: str) -> tuple[frozenset[str], ...]:
    """The two options around the last " or ": the names that end and start there, else the
    phrases between commas (at most :data:`OPTION_WORDS` words each)."""
    where = question.rfind(" or ")
    if where < 0:
        return ()
    left = [m for m in NAME_PATTERN.finditer(question, 0, where) if m.end() >= where - 1]
    right = NAME_PATTERN.match(question, where + 4)
    if left and right is not None:
        texts = [left[-1].group(), right.group()]
    else:
        match = _CHOICE.search(question)
        if match is None:
            return ()
        texts = [match.group(1), match.group(2)]
    options = []
    for text in texts:
        words = split_words(text)
        if not words or len(words) > OPTION_WORDS:
            return ()
        options.append(
            frozenset(s for w, s in zip(words, stems(words), strict=True) if is_content(w))
        )
    return tuple(options)


@lru_cache(maxsize=1024)
def question_info(question: str) -> QuestionInfo:
    """The :class:`QuestionInfo` of ``question``, memoized."""
    return QuestionInfo(question)
