"""Word stems for the answer detectors: plural and simple inflection folded, and a table of
irregular forms.

:func:`stem` folds ``churros`` / ``churro``, ``-es``, ``-ies``, ``-ed`` and ``-ing`` (with
doubled consonants undone), a final ``e`` (``based`` / ``base``), and the irregular forms of
:data:`IRREGULAR` (``women`` / ``woman``, ``wrote`` / ``written`` / ``write``, ``was`` /
``is`` / ``be``, ``bore`` / ``born``, ``made`` / ``make``). Deterministic; the stems are cached
by word.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["IRREGULAR", "STEMS_LIMIT", "stem", "stems"]

IRREGULAR = {
    "women": "woman",
    "men": "man",
    "children": "child",
    "people": "person",
    "feet": "foot",
    "teeth": "tooth",
    "mice": "mouse",
    "geese": "goose",
    "wrote": "write",
    "written": "write",
    "won": "win",
    "began": "begin",
    "begun": "begin",
    "sang": "sing",
    "sung": "sing",
    "became": "become",
    "born": "born",
    "died": "die",
    "dies": "die",
    "dying": "die",
    "death": "die",
    "was": "be",
    "were": "be",
    "is": "be",
    "are": "be",
    "been": "be",
    "am": "be",
    "bore": "born",
    "borne": "born",
    "made": "make",
    "built": "build",
    "held": "hold",
    "took": "take",
    "taken": "take",
    "gave": "give",
    "given": "give",
    "went": "go",
    "gone": "go",
    "came": "come",
    "sold": "sell",
    "told": "tell",
    "ran": "run",
    "knew": "know",
    "known": "know",
    "grew": "grow",
    "grown": "grow",
    "drew": "draw",
    "drawn": "draw",
    "threw": "throw",
    "thrown": "throw",
    "chose": "choose",
    "chosen": "choose",
    "spoke": "speak",
    "spoken": "speak",
    "stole": "steal",
    "stolen": "steal",
    "fought": "fight",
    "taught": "teach",
    "brought": "bring",
    "bought": "buy",
    "thought": "think",
    "caught": "catch",
    "sent": "send",
    "spent": "spend",
    "lost": "lose",
    "paid": "pay",
    "said": "say",
    "kept": "keep",
    "felt": "feel",
    "fell": "fall",
    "fallen": "fall",
    "broke": "break",
    "broken": "break",
    "wore": "wear",
    "worn": "wear",
    "flew": "fly",
    "flown": "fly",
    "drove": "drive",
    "driven": "drive",
    "rode": "ride",
    "ridden": "ride",
    "hid": "hide",
    "hidden": "hide",
    "ate": "eat",
    "eaten": "eat",
    "stood": "stand",
    "struck": "strike",
    "sank": "sink",
    "sunk": "sink",
    "swam": "swim",
    "swum": "swim",
    "got": "get",
    "gotten": "get",
    "forgot": "forget",
    "forgotten": "forget",
    "led": "lead",
    "meant": "mean",
    "shook": "shake",
    "shaken": "shake",
    "understood": "understand",
}
"""Word forms the suffix rules would miss: irregular plurals and the past forms of common
irregular verbs (``born`` is listed to keep it whole; ``death`` and ``died`` meet at ``die``).
Forms that are also common words of another meaning ("found", "left", "saw", "rose") are not
listed."""

STEMS_LIMIT = 200_000
"""The word caches are emptied when they grow past this many words (memory stays bounded)."""


class _StemCache(dict[str, str]):
    """Word as written -> its stem; filled on first sight of a word."""

    def __missing__(self, word: str) -> str:
        value = self[word] = _stem(word)
        return value


def _stem(word: str) -> str:
    lowered = word.lower()
    if lowered in IRREGULAR:
        return IRREGULAR[lowered]
    if len(lowered) <= 3 or not lowered.isalpha():
        return lowered
    base = lowered
    if base.endswith("ies") and len(base) > 4:
        base = base[:-3] + "y"
    elif base.endswith(("sses", "xes", "zes", "ches", "shes")):
        base = base[:-2]
    elif base.endswith("s") and not base.endswith(("ss", "us", "is")):
        base = base[:-1]
    elif base.endswith("ied") and len(base) > 4:
        base = base[:-3] + "y"
    elif base.endswith("ed") and len(base) > 4:
        base = _undouble(base[:-2])
    elif base.endswith("ing") and len(base) > 5:
        base = _undouble(base[:-3])
    if base.endswith("e") and len(base) > 3:
        base = base[:-1]
    return base


def _undouble(base: str) -> str:
    if len(base) > 2 and base[-1] == base[-2] and base[-1] not in "lsz":
        return base[:-1]
    return base


_STEMS = _StemCache()


def stem(word: str) -> str:
    """The stem of one word (lowercased; see the module docstring)."""
    if len(_STEMS) > STEMS_LIMIT:
        _STEMS.clear()
    return _STEMS[word]


def stems(words: Iterable[str]) -> list[str]:
    """:func:`stem` of each word."""
    if len(_STEMS) > STEMS_LIMIT:
        _STEMS.clear()
    return list(map(_STEMS.__getitem__, words))
