"""assay-scorecard: how far to trust one RAG answer, in microseconds.

Composes registered :class:`~assay.Dimension` objects into a 0-100 scorecard with tiers, labels,
per-point reasons and warnings, and lets a :class:`~assay.Policy` recommend ``answer``,
``review`` or ``abstain``, naming the rule that decided. Compatible with transparent-confidence
0.3 (TypeScript): the same numbers, and the same JSON input format and scorecard shape.

Start with :func:`compute_confidence` (one answer) or :func:`create_scorer` (many answers, one
config); :func:`score_many` and :func:`score_jsonl` score batches and JSON Lines streams.
"""

from assay_scorecard.batch import score_many
from assay_scorecard.engine import (
    ALGORITHM_VERSION,
    SCHEMA_VERSION,
    Scorer,
    compute_confidence,
    create_scorer,
)
from assay_scorecard.jsonl import JsonlSummary, score_jsonl
from assay_scorecard.observability import log_record, otel_attributes, record_on_span
from assay_scorecard.policy import ScorecardEvidence, ThresholdActionPolicy
from assay_scorecard.presets import Preset
from assay_scorecard.render import render_html, render_markdown, render_text
from assay_scorecard.types import (
    ActionPolicyConfig,
    Candidate,
    ClaimSupport,
    IndexIntegrityInputs,
    Scorecard,
    ScorecardMeta,
    ScoringConfig,
    ScoringInputs,
    SignalPolicyConfig,
    TierResult,
)
from assay_scorecard.wire import (
    scorecard_to_json,
    scorecard_to_wire,
    scoring_config_from_wire,
    scoring_config_to_wire,
    scoring_inputs_from_wire,
    scoring_inputs_to_wire,
)

__all__ = [
    "ALGORITHM_VERSION",
    "SCHEMA_VERSION",
    "ActionPolicyConfig",
    "Candidate",
    "ClaimSupport",
    "IndexIntegrityInputs",
    "JsonlSummary",
    "Preset",
    "Scorecard",
    "ScorecardEvidence",
    "ScorecardMeta",
    "Scorer",
    "ScoringConfig",
    "ScoringInputs",
    "SignalPolicyConfig",
    "ThresholdActionPolicy",
    "TierResult",
    "compute_confidence",
    "create_scorer",
    "log_record",
    "otel_attributes",
    "record_on_span",
    "render_html",
    "render_markdown",
    "render_text",
    "score_jsonl",
    "score_many",
    "scorecard_to_json",
    "scorecard_to_wire",
    "scoring_config_from_wire",
    "scoring_config_to_wire",
    "scoring_inputs_from_wire",
    "scoring_inputs_to_wire",
]
