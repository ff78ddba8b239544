"""Countries, their nationality words, and the states of the United States, for
``answer_support``.

A question asks "both *American*?" and a passage says "a band from *the United States*"; it
asks "which *country*?" and a passage names "*France*". This module knows which country a
nationality word names and which names are countries or states, compared by stem
(:func:`~assay_faithfulness.answer_text.stem`, lowercased): :data:`COUNTRY_OF` maps a
nationality word or a country's name (each of its content words) to one key per country, and
:data:`PLACE_NAMES` holds the stems of every country and state name (a name of several words
by each of its words).
"""

from __future__ import annotations

from assay_faithfulness.inflection import stem

__all__ = ["COUNTRY_OF", "COUNTRY_PHRASES", "PLACE_NAMES", "STATE_NAMES", "country_keys"]

_COUNTRIES = (
    "united states|america|usa|american",
    "united kingdom|britain|uk|british",
    "england|english",
    "scotland|scottish",
    "wales|welsh",
    "ireland|irish",
    "canada|canadian",
    "australia|australian",
    "new zealand|zealander",
    "france|french",
    "germany|german",
    "italy|italian",
    "spain|spanish",
    "portugal|portuguese",
    "netherlands|holland|dutch",
    "belgium|belgian",
    "switzerland|swiss",
    "austria|austrian",
    "sweden|swedish",
    "norway|norwegian",
    "denmark|danish",
    "finland|finnish",
    "iceland|icelandic",
    "poland|polish",
    "russia|russian",
    "ukraine|ukrainian",
    "belarus|belarusian",
    "czech republic|czechia|czech",
    "slovakia|slovak",
    "hungary|hungarian",
    "romania|romanian",
    "bulgaria|bulgarian",
    "greece|greek",
    "turkey|turkish",
    "serbia|serbian",
    "croatia|croatian",
    "china|chinese",
    "japan|japanese",
    "korea|korean",
    "india|indian",
    "pakistan|pakistani",
    "bangladesh|bangladeshi",
    "indonesia|indonesian",
    "philippines|filipino",
    "vietnam|vietnamese",
    "thailand|thai",
    "iran|iranian|persian",
    "iraq|iraqi",
    "israel|israeli",
    "egypt|egyptian",
    "nigeria|nigerian",
    "kenya|kenyan",
    "mexico|mexican",
    "brazil|brazilian",
    "argentina|argentine|argentinian",
    "chile|chilean",
    "colombia|colombian",
    "peru|peruvian",
    "cuba|cuban",
)
"""One line per country: its names, then its nationality words."""

_STATES = (
    "alabama alaska arizona arkansas california colorado connecticut delaware florida georgia "
    "hawaii idaho illinois indiana iowa kansas kentucky louisiana maine maryland massachusetts "
    "michigan minnesota mississippi missouri montana nebraska nevada ohio oklahoma oregon "
    "pennsylvania tennessee texas utah vermont virginia washington wisconsin wyoming"
)
"""The one-word states of the United States."""
_TWO_WORD_STATES = (
    "new hampshire",
    "new jersey",
    "new mexico",
    "new york",
    "rhode island",
    "north carolina",
    "south carolina",
    "north dakota",
    "south dakota",
)
"""The states of two words, read by their last word ("New *York*", "North *Carolina*")."""


def _keys() -> tuple[dict[str, str], dict[tuple[str, ...], str]]:
    words: dict[str, str] = {}
    phrases: dict[tuple[str, ...], str] = {}
    for line in _COUNTRIES:
        names = line.split("|")
        key = names[0]
        for name in names:
            if " " in name:
                phrases[tuple(stem(word) for word in name.split())] = key
            else:
                words[stem(name)] = key
    return words, phrases


COUNTRY_OF, COUNTRY_PHRASES = _keys()
"""Stem of a one-word country name or nationality word -> a key shared by all of one
country's ("american", "america" -> one key); the stems of a country's name of several words
("united", "states": each alone names no country) -> the same key."""

STATE_NAMES = frozenset(
    [stem(state) for state in _STATES.split()]
    + [stem(name.split()[-1]) for name in _TWO_WORD_STATES]
)
"""Stems of the states of the United States (a two-word state by its last word)."""

PLACE_NAMES = frozenset(COUNTRY_OF) | STATE_NAMES | {s for p in COUNTRY_PHRASES for s in p}
"""Stems that name a country (or say its nationality) or a state."""


def country_keys(word_stems: set[str] | frozenset[str]) -> set[str]:
    """The countries (values of :data:`COUNTRY_OF`) that ``word_stems`` name or describe (a
    name of several words: when all of its words are among them)."""
    keys = {COUNTRY_OF[s] for s in word_stems if s in COUNTRY_OF}
    keys.update(
        key for phrase, key in COUNTRY_PHRASES.items() if all(s in word_stems for s in phrase)
    )
    return keys
