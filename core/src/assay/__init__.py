"""assay: how far to trust each RAG answer, and how good and how stable the pipeline is.

This module is the public API. Everything importable from here (and from the public modules
:mod:`assay.cli` and :mod:`assay.testing`) is covered by the versioning policy in
docs/api.md; modules whose names start with an underscore are private and may change at any
release. Plugins import only from here.
"""

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

__all__ = [
    "ENTRY_POINT_GROUP",
    "ActionPolicyConfig",
    "Candidate",
    "ClaimSupport",
    "DimensionBreakdown",
    "DimensionScore",
    "IndexIntegrityInputs",
    "ScoreWarning",
    "Scorecard",
    "ScorecardMeta",
    "ScoringConfig",
    "ScoringInputs",
    "SignalPolicyConfig",
    "TierResult",
    "AssayError",
    "Chunk",
    "Decision",
    "Dimension",
    "ErrorCode",
    "EvalSample",
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
    "Provider",
    "Registrar",
    "Registration",
    "Registry",
    "Variant",
    "build_registry",
    "dimension_score",
    "default_registry",
    "hookimpl",
    "hookspec",
    "register",
    "reset_default_registry",
]
