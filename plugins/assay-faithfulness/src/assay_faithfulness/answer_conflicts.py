"""Contradictions between contexts: two contexts giving different numbers for the same thing.

A number is *about* the name that opens its sentence (the sentence's subject) and is *cued* by
the nearest content word before it in its clause ("born", "founded", "population"), or by its
place in a life span ("(1900 – 1980)": born / died). Two contexts that give different numbers
of the same kind (years with years) for the same subject and cue contradict each other:
"contexts[0] gives 1935 and contexts[1] gives 1936 for 'Peggy Seeger ... born'". Only
contradictions *between* contexts are reported; one context restating itself is left alone.
"""

from __future__ import annotations

from functools import lru_cache

from assay_faithfulness.answer_relation import is_year
from assay_faithfulness.answer_text import MONTHS, Name, Number, TextInfo, text_info

__all__ = ["CUE_REACH", "clear_conflict_caches", "find_conflicts"]

CUE_REACH = 4
"""How many words before a number its cue word may stand."""

_Key = tuple[frozenset[str], str, bool]


@lru_cache(maxsize=256)
def find_conflicts(contexts: tuple[str, ...]) -> tuple[str, ...]:
    """Readable sentences, one per contradiction found between the contexts (see the module
    docstring); empty for fewer than two contexts."""
    if len(contexts) < 2:
        return ()
    first_seen: dict[_Key, tuple[int, str, str]] = {}
    conflicts: list[str] = []
    for index, context in enumerate(contexts):
        for key, value, about in _keyed_numbers(context):
            seen = first_seen.setdefault(key, (index, value, about))
            if seen[0] != index and seen[1] != value:
                conflicts.append(
                    f"contexts[{seen[0]}] gives {seen[1]} and contexts[{index}] gives "
                    f"{value} for {about!r}."
                )
    return tuple(dict.fromkeys(conflicts))


@lru_cache(maxsize=4096)
def _keyed_numbers(context: str) -> tuple[tuple[_Key, str, str], ...]:
    """``(key, value, about)`` of every number of a context that has a key (:func:`_key`), in
    order (memoized by text: a passage recurs across samples)."""
    info = text_info(context)
    if not info.numbers:
        return ()
    subjects: dict[int, Name] = {}  # sentence -> its first name
    sentence_of = info.sentence_of
    for name in info.names:
        subjects.setdefault(sentence_of[name.first], name)
    keyed = []
    for number in info.numbers:
        found = _key(info, number, subjects)
        if found is not None:
            keyed.append((found[0], number.value, found[1]))
    return tuple(keyed)


def _key(info: TextInfo, number: Number, subjects: dict[int, Name]) -> tuple[_Key, str] | None:
    """(subject, cue, is a year) of a number, and a readable form of the first two;
    ``subjects``: sentence -> its first name."""
    sentence = info.sentence_of[number.first]
    start = info.sentence_starts[sentence]
    subject = subjects.get(sentence)
    if subject is None or subject.first > start + 1:
        return None
    cue = number.role
    if not cue:
        raw, content = info.raw, info.content
        clause_of, in_parentheses = info.layout.clause_of, info.layout.in_parentheses
        clause = clause_of[number.first]
        for index in range(number.first - 1, max(start, number.first - CUE_REACH) - 1, -1):
            word = raw[index]
            if clause_of[index] != clause and not in_parentheses[index]:
                break
            if content[index] and word.lower() not in MONTHS and not word[0].isdigit():
                cue = info.stems[index]
                break
    if not cue:
        return None
    name = info.content_stems(subject.first, subject.end)
    about = f"{info.span_text(subject.first, subject.end)} ... {cue}"
    return (name, cue, is_year(number.value)), about


def clear_conflict_caches() -> None:
    """Forget the memoized conflicts and numbers of every context."""
    find_conflicts.cache_clear()
    _keyed_numbers.cache_clear()
