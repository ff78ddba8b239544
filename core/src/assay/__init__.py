"""assay: how far to trust each RAG answer, and how good and how stable the pipeline is.

This module is the public API. Everything importable from here (and from the public modules
:mod:`assay.cli` and :mod:`assay.testing`) is covered by the versioning policy in
docs/api.md; modules whose names start with an underscore are private and may change at any
release. Plugins import only from here.
"""

from assay._accel import load_speedups, speedups_allowed
from assay._errors import AssayError, ErrorCode, PluginLoadWarning
from assay._hookspecs import ENTRY_POINT_GROUP, hookimpl, hookspec
from assay._plugins import (
    PluginHost,
    build_registry,
    default_registry,
    register,
    reset_default_registry,
)
from assay._protocols import Dimension, Judge, Metric, MetricContext, Perturbation, Policy
from assay._registry import PluginRecord, Provider, Registrar, Registration, Registry
from assay._scorecard.batch import score_many
from assay._scorecard.engine import (
    ALGORITHM_VERSION,
    SCHEMA_VERSION,
    Scorer,
    compute_confidence,
    create_scorer,
)
from assay._scorecard.jsonl import JsonlSummary, score_jsonl
from assay._scorecard.observability import log_record, otel_attributes, record_on_span
from assay._scorecard.policy import ScorecardEvidence, ThresholdActionPolicy
from assay._scorecard.presets import Preset
from assay._scorecard.render import render_html, render_markdown, render_text
from assay._scorecard.types import (
    ActionPolicyConfig,
    Candidate,
    ClaimSupport,
    DimensionBreakdown,
    DimensionScore,
    IndexIntegrityInputs,
    Scorecard,
    ScorecardMeta,
    ScoreWarning,
    ScoringConfig,
    ScoringInputs,
    SignalPolicyConfig,
    TierResult,
    dimension_score,
)
from assay._types import (
    Chunk,
    Decision,
    EvalSample,
    JudgeReply,
    MetricResult,
    MetricSignal,
    PerturbationCase,
    Variant,
)
from assay._wire import (
    from_json_safe,
    scorecard_to_json,
    scorecard_to_wire,
    scoring_config_from_wire,
    scoring_config_to_wire,
    scoring_inputs_from_wire,
    scoring_inputs_to_wire,
    to_json_safe,
    to_wire,
)

__all__ = [
    "ALGORITHM_VERSION",
    "ENTRY_POINT_GROUP",
    "SCHEMA_VERSION",
    "ActionPolicyConfig",
    "AssayError",
    "Candidate",
    "Chunk",
    "ClaimSupport",
    "Decision",
    "Dimension",
    "DimensionBreakdown",
    "DimensionScore",
    "ErrorCode",
    "EvalSample",
    "IndexIntegrityInputs",
    "JsonlSummary",
    "Judge",
    "JudgeReply",
    "Metric",
    "MetricContext",
    "MetricResult",
    "MetricSignal",
    "Perturbation",
    "PerturbationCase",
    "PluginHost",
    "PluginLoadWarning",
    "PluginRecord",
    "Policy",
    "Preset",
    "Provider",
    "Registrar",
    "Registration",
    "Registry",
    "ScoreWarning",
    "Scorecard",
    "ScorecardEvidence",
    "ScorecardMeta",
    "Scorer",
    "ScoringConfig",
    "ScoringInputs",
    "SignalPolicyConfig",
    "ThresholdActionPolicy",
    "TierResult",
    "Variant",
    "build_registry",
    "compute_confidence",
    "create_scorer",
    "default_registry",
    "dimension_score",
    "from_json_safe",
    "hookimpl",
    "hookspec",
    "load_speedups",
    "log_record",
    "otel_attributes",
    "record_on_span",
    "register",
    "render_html",
    "render_markdown",
    "render_text",
    "reset_default_registry",
    "score_jsonl",
    "score_many",
    "scorecard_to_json",
    "scorecard_to_wire",
    "scoring_config_from_wire",
    "scoring_config_to_wire",
    "scoring_inputs_from_wire",
    "scoring_inputs_to_wire",
    "speedups_allowed",
    "to_json_safe",
    "to_wire",
]
