"""A small, deterministic RAG answerer used as the pipeline in the assay perturb example.

Reads one variant as JSON (standard input, or the file named by $ASSAY_PERTURB_INPUT):
{"query": ..., "chunks": [{"id": ..., "text": ...}], ...}. It picks the chunk that shares the
most keywords with the query and answers with the first number in that chunk.

    python3 answerer.py            picks the best-matching chunk; ties go to the smaller chunk id,
                                   so the order of the chunks never matters
    python3 answerer.py --biased   deliberately position-biased: answers from the FIRST chunk that
                                   shares any keyword with the query and holds a number

Prints {"answer": {"value": <number or null>, "source": <chunk id>, "text": <chunk text>}}.
"""

from __future__ import annotations

import json
import os
import re
import sys

STOPWORD_TEXT = (
    "a an the of to in on for and or is are be do does did how many much what which who when "
    "within by with have has per our your their its at from this that these those long"
)
STOPWORDS = frozenset(STOPWORD_TEXT.split())


def keywords(text: str) -> set[str]:
    """Lower-cased word stems: a trailing 's' and then 'ed' removed from longer words."""
    stems = set()
    for word in re.findall(r"[a-z]+", text.lower()):
        if word in STOPWORDS:
            continue
        if len(word) > 3 and word.endswith("s"):
            word = word[:-1]
        if len(word) > 4 and word.endswith("ed"):
            word = word[:-2]
        stems.add(word)
    return stems


def first_number(text: str) -> float | int | None:
    match = re.search(r"\b\d+(?:\.\d+)?\b", text)
    if match is None:
        return None
    number = float(match.group())
    return int(number) if number.is_integer() else number


def answer(query: str, chunks: list[dict[str, str]], biased: bool) -> dict[str, object]:
    wanted = keywords(query)
    candidates = [c for c in chunks if first_number(c["text"]) is not None]
    if biased:
        chosen = next((c for c in candidates if wanted & keywords(c["text"])), None)
    else:
        ranked = sorted(candidates, key=lambda c: (-len(wanted & keywords(c["text"])), c["id"]))
        chosen = ranked[0] if ranked else None
    if chosen is None:
        return {"answer": {"value": None, "source": None, "text": ""}}
    return {
        "answer": {
            "value": first_number(chosen["text"]),
            "source": chosen["id"],
            "text": chosen["text"],
        }
    }


def read_variant() -> dict[str, object]:
    """The variant JSON: from the file named by $ASSAY_PERTURB_INPUT, else standard input."""
    path = os.environ.get("ASSAY_PERTURB_INPUT")
    if path:
        with open(path, encoding="utf-8") as handle:
            return dict(json.load(handle))
    return dict(json.load(sys.stdin))


def main() -> int:
    variant = read_variant()
    result = answer(variant["query"], variant["chunks"], biased="--biased" in sys.argv[1:])
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
