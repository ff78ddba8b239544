"""An answer verifier used as a pipeline: is the proposed answer supported by the context?

Reads one variant as JSON (standard input, or the file named by $ASSAY_PERTURB_INPUT) whose
query reads "Question: ...\\nProposed answer: ...". It picks the passage that shares the most
keywords with the question (ties go to the smaller chunk id, so order never matters) and says
"supported" when the proposed answer appears in it, else "unsupported".

    python3 verifier.py            the fair verifier
    python3 verifier.py --biased   position-biased: reads only the first passage that shares
                                   any keyword with the question

Prints {"verdict": "supported" | "unsupported", "evidence": <chunk id or null>}.
"""

from __future__ import annotations

import json
import sys

from answerer import keywords, read_variant


def verdict(query: str, chunks: list[dict[str, str]], biased: bool) -> dict[str, object]:
    question, _, proposed = query.partition("\nProposed answer:")
    wanted = keywords(question.removeprefix("Question:"))
    if biased:
        chosen = next((c for c in chunks if wanted & keywords(c["text"])), None)
    else:
        ranked = sorted(chunks, key=lambda c: (-len(wanted & keywords(c["text"])), c["id"]))
        chosen = ranked[0] if ranked else None
    supported = chosen is not None and proposed.strip().lower() in chosen["text"].lower()
    return {
        "verdict": "supported" if supported else "unsupported",
        "evidence": chosen["id"] if chosen else None,
    }


def main() -> int:
    variant = read_variant()
    print(json.dumps(verdict(variant["query"], variant["chunks"], "--biased" in sys.argv[1:])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
