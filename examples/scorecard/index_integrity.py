"""Index integrity: the opt-in Tier 2 dimension for index health.

A healthy index (matching embedding model, near-complete source versions, ACL filter confirmed)
and one that leaks deleted documents and was built with another embedding model. Prints one line
each with Tier 2 and the warning codes:

    healthy index: index integrity 15/15, Tier 2 100 Complete, warnings none
    degraded index: index integrity 8/15, Tier 2 53 Partial, warnings embedding-version-mismatch, acl-filter-unconfirmed, deleted-source-leakage

Run: uv run --all-packages --all-extras python examples/scorecard/index_integrity.py
"""

import assay_scorecard

answer = {
    "supportLevel": "high",
    "hasConflict": False,
    "faithfulnessScore": 0.95,
    "candidates": [
        {"retrievalScores": {"dense": 0.88, "bm25": 0.7}, "combinedScore": 0.88, "documentId": "a"},
        {"retrievalScores": {"dense": 0.8, "bm25": 0.6}, "combinedScore": 0.8, "documentId": "b"},
    ],
}
healthy = {
    "expectedEmbeddingModelVersion": "text-embedding-3-large@2026-01",
    "actualEmbeddingModelVersion": "text-embedding-3-large@2026-01",
    "sourceVersionMatchRatio": 0.998,
    "staleIndexedDocumentRatio": 0.004,
    "failedIngestionCount": 0,
    "aclFilterConfirmed": True,
    "deletedSourceLeakageCount": 0,
}
degraded = {
    **healthy,
    "actualEmbeddingModelVersion": "text-embedding-3-small@2025-06",
    "aclFilterConfirmed": False,
    "deletedSourceLeakageCount": 3,
}
scorer = assay_scorecard.create_scorer({"indexIntegrity": {}})
for label, health in (("healthy", healthy), ("degraded", degraded)):
    card = scorer.compute({**answer, "indexIntegrity": health})
    dim = card.dimensions["indexIntegrity"]
    codes = ", ".join(w.code for w in dim.warnings or ()) or "none"
    print(
        f"{label} index: index integrity {dim.raw:g}/15, Tier 2 {card.tier2.score:g} {card.tier2.label}, warnings {codes}"
    )
