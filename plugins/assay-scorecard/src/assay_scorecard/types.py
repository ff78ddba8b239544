"""Frozen records of the confidence scorecard: inputs, configuration and the scorecard.

The Python API is snake_case; the JSON wire shape is camelCase (the JSON input format of
transparent-confidence 0.3), produced and read by :mod:`assay_scorecard.wire`. In these classes
``None`` means *not provided*. (The wire shape can also carry an explicit JSON ``null``, which
the reference treats differently from an absent key; pass a plain dict when you need that
distinction.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

import attrs

from assay import DimensionScore, ScoreWarning

__all__ = [
    "ActionPolicyConfig",
    "Candidate",
    "ClaimSupport",
    "IndexIntegrityInputs",
    "Scorecard",
    "ScorecardMeta",
    "ScoringConfig",
    "ScoringInputs",
    "SignalPolicyConfig",
    "TierResult",
]

Action = Literal["answer", "review", "abstain"]


def _tuple_or_none(value: Sequence[Any] | None) -> tuple[Any, ...] | None:
    return None if value is None else tuple(value)


# ----------------------------------------------------------------------------------------- inputs


@attrs.frozen
class Candidate:
    """One retrieved chunk as the scorecard sees it.

    Attributes:
        retrieval_scores: score per retrieval method, e.g. ``{"semantic": 0.8, "keyword": 0.6}``.
        combined_score: the final blended score in [0, 1] used for ranking.
        document_id: source document id (source diversity).
        document_type: type label matched against authority tier keywords.
        authority_rank: explicit authority rank (lower is more authoritative).
        is_amendment: the chunk comes from an amendment.
        extraction_quality: OCR / extraction quality multiplier in [0, 1].
        last_updated: when the document last changed (freshness); timezone-aware.
        content_hash: stable hash of the content (duplicate diagnostics).
        rank: 1-based final retrieval position (rank diagnostics).
    """

    retrieval_scores: Mapping[str, float]
    combined_score: float
    document_id: str | None = None
    document_type: str | None = None
    authority_rank: float | None = None
    is_amendment: bool | None = None
    extraction_quality: float | None = None
    last_updated: datetime | None = None
    content_hash: str | None = None
    rank: int | None = None


@attrs.frozen
class ClaimSupport:
    """Claim-level support summary of the answer."""

    total_claims: int
    supported_claims: int
    unsupported_claims: int | None = None
    contradicted_claims: int | None = None


@attrs.frozen
class IndexIntegrityInputs:
    """Operational health signals of the index (Tier 2, index integrity dimension)."""

    expected_embedding_model_version: str | None = None
    actual_embedding_model_version: str | None = None
    source_version_match_ratio: float | None = None
    stale_indexed_document_ratio: float | None = None
    failed_ingestion_count: int | None = None
    acl_filter_confirmed: bool | None = None
    deleted_source_leakage_count: int | None = None


@attrs.frozen
class ScoringInputs:
    """The signals of one RAG answer (``ScoringInputs`` of transparent-confidence 0.3). See docs/scorecard.md."""

    support_level: Literal["high", "medium", "low"]
    candidates: tuple[Candidate, ...] = attrs.field(converter=tuple)
    ambiguity_notes: str | None = None
    requires_expert_review: bool | None = None
    external_constraint_note: str | None = None
    documents_silent: bool | None = None
    has_conflict: bool | None = None
    conflicting_candidate_count: int | None = None
    query_complexity: Literal["direct", "inferential", "multi-hop", "comparative"] | None = None
    faithfulness_score: float | None = None
    claim_support: ClaimSupport | None = None
    citation_count: int | None = None
    citation_coverage_score: float | None = None
    invalid_citation_count: int | None = None
    answer_relevance_score: float | None = None
    corpus_type_count: int | None = None
    present_types: tuple[str, ...] | None = attrs.field(default=None, converter=_tuple_or_none)
    missing_relevant_type: bool | None = None
    missing_types: tuple[str, ...] | None = attrs.field(default=None, converter=_tuple_or_none)
    index_integrity: IndexIntegrityInputs | None = None


# ----------------------------------------------------------------------------------------- config


@attrs.frozen
class ActionPolicyConfig:
    """Thresholds and warning lists of the default action policy (``None``: the default)."""

    answer_at: float | None = None
    review_at: float | None = None
    abstain_below: float | None = None
    require_tier1_at_least: float | None = None
    review_on_warnings: tuple[str, ...] | None = attrs.field(default=None, converter=_tuple_or_none)
    abstain_on_warnings: tuple[str, ...] | None = attrs.field(
        default=None, converter=_tuple_or_none
    )


@attrs.frozen
class SignalPolicyConfig:
    """Which signals are required, and what their absence does to the action; the support floors
    (``min_support_score``: review below, ``unsupported_below``: abstain below) are those of the
    ``grounded-v1`` preset."""

    require: tuple[str, ...] | None = attrs.field(default=None, converter=_tuple_or_none)
    review_when_missing: tuple[str, ...] | None = attrs.field(
        default=None, converter=_tuple_or_none
    )
    abstain_when_missing: tuple[str, ...] | None = attrs.field(
        default=None, converter=_tuple_or_none
    )
    min_citation_coverage_score: float | None = None
    max_invalid_citation_count: float | None = None
    min_support_score: float | None = None
    unsupported_below: float | None = None


@attrs.frozen
class ScoringConfig:
    """Configuration of a scorer (``ScoringConfig`` of transparent-confidence 0.3).

    The per-dimension sections (``retrieval``, ``relevance``, ``authority``, ``corpus``,
    ``freshness``, ``index_integrity`` and any section a third-party dimension reads) are plain
    mappings in the wire shape (camelCase keys): each dimension plugin owns and validates its own
    section, so the core does not need to know them. Passing a section activates the dimension
    that owns it.

    Attributes:
        preset: a registered preset name (default ``"balanced-v0.3"``).
        weights: max-point weight per dimension name.
        action_policy: thresholds and warning lists of the default action policy.
        signal_policy: required signals and their effect on the action.
        validation: ``"warn"`` (input issues become warnings) or ``"strict"`` (they raise).
        sections: per-dimension configuration sections, keyed by wire name.
    """

    preset: str | None = None
    weights: Mapping[str, float] | None = None
    action_policy: ActionPolicyConfig | None = None
    signal_policy: SignalPolicyConfig | None = None
    validation: Literal["warn", "strict"] | None = None
    sections: Mapping[str, Mapping[str, Any]] = attrs.field(factory=dict)


# ----------------------------------------------------------------------------------------- output


@attrs.frozen
class TierResult:
    """A tier's normalized score with its label and display colour."""

    score: float
    label: str
    color: str


@attrs.frozen(slots=False)
class ScorecardMeta:
    """Versions, totals, active dimensions, warnings and weights behind a scorecard."""

    algorithm_version: str
    schema_version: str
    raw_total: float
    max_possible: float
    active_extensions: tuple[str, ...]
    active_dimensions: tuple[str, ...]
    missing_signals: tuple[str, ...]
    warnings: tuple[ScoreWarning, ...]
    weights: Mapping[str, float]


@attrs.frozen(slots=False)
class Scorecard:
    """The confidence scorecard of one answer (``ConfidenceScorecard`` of transparent-confidence 0.3).

    Attributes:
        total: normalized score 0-100 (an integer, NaN only for NaN inputs in warn mode).
        label: ``Strong`` / ``Moderate`` / ``Limited`` / ``Insufficient``.
        label_color: ``green`` / ``amber`` / ``orange`` / ``red``.
        recommended_action: ``answer`` / ``review`` / ``abstain``.
        action_reason: the rule that decided, with its numbers.
        action_rule: stable id of that rule (not part of the reference's wire shape).
        tier1: Answer Confidence tier.
        tier2: System Readiness tier, ``None`` while no Tier 2 dimension is active.
        dimensions: active dimensions in composition order, by wire name.
        meta: versions, totals, warnings, missing signals, weights.
    """

    total: float
    label: str
    label_color: str
    recommended_action: str
    action_reason: str
    tier1: TierResult | None
    tier2: TierResult | None
    dimensions: Mapping[str, DimensionScore]
    meta: ScorecardMeta
    action_rule: str = ""
