"""assay: how far to trust each RAG answer, and how good and how stable the pipeline is.

This package is the kernel: the five protocols (:class:`Dimension`, :class:`Metric`,
:class:`Perturbation`, :class:`Policy`, :class:`Judge`) and the records they name, the plugin
host and registries, the error type and the exit codes shared by every command. The jobs
(scoring, evaluation, gating, perturbation testing, routing) are plugins with one import each;
see docs/architecture.md.

Everything importable from here, and from the public modules :mod:`assay.cli`,
:mod:`assay.wire`, :mod:`assay.jsmath` and :mod:`assay.testing`, is covered by the versioning
policy in docs/api.md; modules whose names start with an underscore are private.
"""

from assay._accel import load_speedups
from assay._errors import AssayError, ErrorCode, ExitCode, PluginLoadWarning
from assay._hookspecs import ENTRY_POINT_GROUP, hookimpl, hookspec
from assay._plugins import (
    PluginHost,
    build_registry,
    default_registry,
    register,
    reset_default_registry,
)
from assay._protocols import Dimension, Judge, Metric, MetricContext, Perturbation, Policy
from assay._records import (
    Chunk,
    Decision,
    DimensionBreakdown,
    DimensionScore,
    EvalSample,
    JudgeReply,
    MetricResult,
    MetricSignal,
    PerturbationCase,
    ScoreWarning,
    Variant,
    dimension_score,
)
from assay._registry import PluginRecord, Provider, Registrar, Registration, Registry

__all__ = [
    "ENTRY_POINT_GROUP",
    "AssayError",
    "Chunk",
    "Decision",
    "Dimension",
    "DimensionBreakdown",
    "DimensionScore",
    "ErrorCode",
    "EvalSample",
    "ExitCode",
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
    "ScoreWarning",
    "Variant",
    "build_registry",
    "default_registry",
    "dimension_score",
    "hookimpl",
    "hookspec",
    "load_speedups",
    "register",
    "reset_default_registry",
]
