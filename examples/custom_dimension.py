"""Register your own Dimension at runtime and compose a scorer with it.

Defines a toy `politeness` dimension (5 points when the answer text says "please"), registers it
in the process-wide registry without any packaging, builds a scorer from the three core
dimensions plus it, and scores a polite and a curt answer. Prints:

    registered: runtime/politeness
    polite answer: politeness 5/5, total 100
    curt answer: politeness 0/5, total 93

Run: uv run --all-packages --all-extras python examples/custom_dimension.py
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import assay
import assay_scorecard
from assay.jsmath import js_number


class Politeness(assay.Dimension):
    """5 points when the answer text contains "please"."""

    name = "politeness"
    tier = 1
    max_points = 5.0
    default_weight = 5.0
    reads = ("answerText",)  # an input field of its own: declared, so it is not "unknown"

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        polite = "please" in str(inputs.get("answerText", "")).lower()
        points = 5.0 if polite else 0.0
        return assay.dimension_score(
            raw=points,
            max_points=self.max_points,
            explanation="answer says please" if polite else "answer does not say please",
            components={"politeness": points},
        )


def main() -> None:
    registration = assay.default_registry().register(Politeness())
    print(f"registered: {registration.qualified_name}")
    scorer = assay_scorecard.create_scorer(
        dimensions=["grounding", "retrieval", "consistency", "politeness"]
    )
    base = {
        "supportLevel": "high",
        "hasConflict": False,
        "faithfulnessScore": 0.96,
        "citationCount": 3,
        "candidates": [
            {
                "retrievalScores": {"dense": 0.9, "bm25": 0.7},
                "combinedScore": 0.9,
                "documentId": "a",
            },
            {
                "retrievalScores": {"dense": 0.8, "bm25": 0.6},
                "combinedScore": 0.8,
                "documentId": "b",
            },
            {
                "retrievalScores": {"dense": 0.7, "bm25": 0.5},
                "combinedScore": 0.7,
                "documentId": "c",
            },
        ],
    }
    for label, text in (("polite", "Please see section 4."), ("curt", "See section 4.")):
        card = scorer.compute({**base, "answerText": text})
        dim = card.dimensions["politeness"]
        print(f"{label} answer: politeness {dim.raw:g}/{dim.max:g}, total {js_number(card.total)}")


if __name__ == "__main__":
    main()
