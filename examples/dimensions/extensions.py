"""The four extension dimensions of the scorecard on one legal-documents answer.

An HOA question answered from five retrieved chunks (a declaration, an amendment, bylaws, board
minutes and an undated FAQ) with configured authority tiers, named corpus types, a freshness
window with a fixed clock, and index health signals. Scored with the default composition plus the
four extensions, it prints the total and both tiers, one line per extension dimension with its
points (components, then adjustments), and the warning codes:

    total 88  Strong  -> answer
    tier1 Answer Confidence  93  Strong
    tier2 System Readiness   80  Good
    authority       15/20  weightedAuthority 13, bonuses 2
    corpus           9/15  base 12, missingRelevantTypePenalty -3
    freshness       15/15  selectedAge 99, decayPenalty -0.4
    indexIntegrity  12/15  embeddingVersion 4, sourceVersionMatch 2, staleness 3, ...
    warnings: missing-faithfulness, ambiguous-top-results, authority-unclassified, ...

Authority: four of five chunks match a tier keyword (the FAQ stays unclassified, rank 99), the
score-weighted average is 12.55 -> 13, plus 1 for the amendment and 1 for several tiers. Corpus:
4 of 5 expected types (0.8 -> 12) minus 3 for the missing relevant type. Freshness: the median
age of the four dated chunks is 98.5 days, 8.5 beyond the window: 15 - 0.425 rounds to 15.
Index integrity loses 1 for a 0.97 source match and 2 for the unconfirmed ACL filter.

Last, the freshness dimension alone with an injected clock 400 days later (median age 498.5
days, 20.4 points of decay) instead of ``freshness.now``:

    freshness alone, clock 400 days later: 0/15 (hard cutoff? no; decay 20.4)

Run: uv run --all-packages --all-extras python examples/dimensions/extensions.py
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import assay_scorecard
from assay_freshness import FreshnessDimension

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def _chunk(score: float, doc: str, kind: str, days_old: int | None, **extra: Any) -> dict[str, Any]:
    chunk: dict[str, Any] = {
        "retrievalScores": {"semantic": score, "keyword": score - 0.05},
        "combinedScore": score,
        "documentId": doc,
        "documentType": kind,
        **extra,
    }
    if days_old is not None:
        chunk["lastUpdated"] = (NOW - timedelta(days=days_old)).isoformat()
    return chunk


INPUTS: dict[str, Any] = {
    "supportLevel": "high",
    "hasConflict": False,
    "candidates": [
        _chunk(0.88, "decl", "Declaration of CC&Rs", 400),
        _chunk(0.84, "amend-3", "Third Amendment to the Declaration", 127, isAmendment=True),
        _chunk(0.79, "bylaws", "Bylaws", 60),
        _chunk(0.71, "minutes", "Board Minutes 2026-03", 70),
        _chunk(0.55, "faq", "Owner FAQ", None),
    ],
    "presentTypes": ["CC&Rs", "Bylaws", "Rules", "Minutes"],
    "missingRelevantType": True,
    "indexIntegrity": {
        "expectedEmbeddingModelVersion": "text-embedding-3-large@2026-01",
        "actualEmbeddingModelVersion": "text-embedding-3-large@2026-01",
        "sourceVersionMatchRatio": 0.97,
        "staleIndexedDocumentRatio": 0.004,
        "failedIngestionCount": 0,
        "deletedSourceLeakageCount": 0,
    },
}

CONFIG: dict[str, Any] = {
    "authority": {
        "tiers": [
            {"name": "CC&Rs", "rank": 10, "keywords": ["CC&Rs", "Declaration"]},
            {"name": "Bylaws", "rank": 15, "keywords": ["Bylaws"]},
            {"name": "Rules", "rank": 20, "keywords": ["Rules", "Policy"]},
            {"name": "Board Notes", "rank": 30, "keywords": ["Minutes", "Resolution"]},
        ]
    },
    "corpus": {"expectedTypes": ["CC&Rs", "Bylaws", "Rules", "Minutes", "Amendments"]},
    "freshness": {"now": NOW.isoformat(), "maxAgeForFullScore": 90, "aggregation": "median"},
    "indexIntegrity": {},
}
EXTENSIONS = ("authority", "corpus", "freshness", "indexIntegrity")


def _points(points: dict[str, float]) -> str:
    return ", ".join(f"{key} {value:g}" for key, value in points.items())


def main() -> None:
    scorecard = assay_scorecard.compute_confidence(INPUTS, CONFIG)
    print(f"total {scorecard.total:g}  {scorecard.label}  -> {scorecard.recommended_action}")
    tiers = (
        ("tier1 Answer Confidence", scorecard.tier1),
        ("tier2 System Readiness", scorecard.tier2),
    )
    for title, tier in tiers:
        assert tier is not None
        print(f"{title:<23}  {tier.score:g}  {tier.label}")
    for name in EXTENSIONS:
        dim = scorecard.dimensions[name]
        points = {**dim.breakdown.components, **dim.breakdown.adjustments}
        print(f"{name:<15} {dim.raw:>2g}/{dim.max:g}  {_points(points)}")
    print("warnings: " + ", ".join(w.code for w in scorecard.meta.warnings))

    later = FreshnessDimension(clock=lambda: NOW + timedelta(days=400))
    config = {"freshness": {"maxAgeForFullScore": 90}}
    later.validate_config(config)
    alone = later.score(INPUTS, config)
    cutoff = "yes" if "hardCutoff" in alone.breakdown.adjustments else "no"
    decay = -alone.breakdown.adjustments.get("decayPenalty", 0)
    print(
        f"freshness alone, clock 400 days later: {alone.raw:g}/15 "
        f"(hard cutoff? {cutoff}; decay {decay:g})"
    )


if __name__ == "__main__":
    main()
