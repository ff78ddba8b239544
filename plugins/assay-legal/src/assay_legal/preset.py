"""The legal and governance preset: authority tiers of a governing-document hierarchy, the
document types a complete corpus holds, a slow freshness window, and production-grade signal
requirements."""

from __future__ import annotations

import assay_scorecard

LEGAL_GOVERNANCE = "legal-governance-v1"

AUTHORITY_TIERS = [
    {
        "name": "Declaration",
        "rank": 10,
        "keywords": ["CC&Rs", "Declaration", "Master Deed", "Articles"],
    },
    {"name": "Amendment", "rank": 12, "keywords": ["Amendment", "Restated"]},
    {"name": "Bylaws", "rank": 15, "keywords": ["Bylaws", "By-Laws"]},
    {"name": "Rules", "rank": 20, "keywords": ["Rules", "Regulations", "Policy"]},
    {"name": "Board records", "rank": 30, "keywords": ["Minutes", "Resolution"]},
]
EXPECTED_TYPES = ["Declaration", "Bylaws", "Rules", "Amendments", "Minutes", "Budget"]


def legal_governance_preset() -> assay_scorecard.Preset:
    """The preset object (registered by this plugin under ``legal-governance-v1``).

    Freshness needs the caller's reference time: pass ``{"freshness": {"now": ...}}`` in the
    config (sections merge one level deep with the preset's).
    """
    return assay_scorecard.Preset(
        name=LEGAL_GOVERNANCE,
        description="governing documents: authority hierarchy, named corpus types, slow freshness",
        require=("answerRelevanceScore", "conflictSignal", "citationCount"),
        review_when_missing=("answerRelevanceScore", "conflictSignal", "citationCount"),
        require_support_evaluator=True,
        config={
            "authority": {"tiers": AUTHORITY_TIERS, "aggregation": "weighted", "topK": 5},
            "corpus": {"expectedTypes": EXPECTED_TYPES},
            "freshness": {
                "maxAgeForFullScore": 365,
                "penaltyPerMonth": 1,
                "hardCutoffAge": 3650,
                "aggregation": "oldest",
            },
            "weights": {"grounding": 30, "authority": 25},
            "actionPolicy": {"answerAt": 70},
        },
    )
