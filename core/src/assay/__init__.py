"""assay: how far to trust each RAG answer, and how good and how stable the pipeline is.

This package is the kernel: the five protocols (:class:`Dimension`, :class:`Metric`,
:class:`Perturbation`, :class:`Policy`, :class:`Judge`) and the records they name, the plugin
host and registries, the error type and the exit codes shared by every command. The jobs
(scoring, evaluating, gating, perturbation testing, routing) are plugins with one import each;
see docs/architecture.md.

Everything importable from here, and from the public modules :mod:`assay.cli`,
:mod:`assay.wire`, :mod:`assay.jsmath` and :mod:`assay.testing`, is covered by the versioning
policy in docs/api.md; modules whose names start with an underscore are private.
"""

from __future__ import annotations

from assay._errors import AssayError, ErrorCode, ExitCode, PluginLoadWarning

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (10 ms on a slow start)
if TYPE_CHECKING:
    from typing import Any

    from assay._accel import load_speedups, speedups_allowed
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

# Where each public name lives. A name is imported on first use (PEP 562), so ``import assay``
# costs next to nothing: attrs loads with the first record, pluggy with the plugin host, and
# importlib.metadata only when a registry is built.
_HOMES = {
    "assay._accel": ("load_speedups", "speedups_allowed"),
    "assay._hookspecs": ("ENTRY_POINT_GROUP", "hookimpl", "hookspec"),
    "assay._plugins": (
        "PluginHost",
        "build_registry",
        "default_registry",
        "register",
        "reset_default_registry",
    ),
    "assay._protocols": ("Dimension", "Judge", "Metric", "MetricContext", "Perturbation", "Policy"),
    "assay._records": (
        "Chunk",
        "Decision",
        "DimensionBreakdown",
        "DimensionScore",
        "EvalSample",
        "JudgeReply",
        "MetricResult",
        "MetricSignal",
        "PerturbationCase",
        "ScoreWarning",
        "Variant",
        "dimension_score",
    ),
    "assay._registry": ("PluginRecord", "Provider", "Registrar", "Registration", "Registry"),
}
_LAZY = {name: module for module, names in _HOMES.items() for name in names}
_SUBMODULES = ("cli", "jsmath", "testing", "wire")

if not TYPE_CHECKING:  # type checkers see the imports above instead

    def __getattr__(name: str) -> Any:
        import importlib

        if name in _SUBMODULES:  # ``assay.wire`` after a bare ``import assay``
            return importlib.import_module(f"assay.{name}")
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module 'assay' has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, *_SUBMODULES})


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
    "speedups_allowed",
]
