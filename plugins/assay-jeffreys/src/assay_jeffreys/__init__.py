"""assay-jeffreys: calibrated pass / fail / escalate decisions from quality scores.

Score models per dimension (high and low quality, Beta or empirical) calibrated from labeled
history, a combined Bayes factor (with weights learned so correlated dimensions are not counted
twice) read on the Jeffreys scale, Bayes-factor and expected-loss policies,
goodness-of-fit and dependence diagnostics, a gate, a monitored gate sealing decisions in
:mod:`assay_audit` chains, and the gate as a tool (registered for the assay-mcp server).

Names are loaded on first use (numpy and scipy stay unimported until needed), so importing the
package, as plugin discovery does, is cheap. Public modules: ``types``, ``errors``, ``scores``,
``beta``, ``hypothesis``, ``likelihood``, ``bayesfactor``, ``policies``, ``diagnostics``,
``calibration``, ``experiment``, ``gate``, ``vectorized``, ``monitor``, ``sampling``, ``adapter``,
``loaders``, ``wire``, ``drift`` (the monitor's default drift detector), ``scoremodel`` (Beta and empirical score models), ``combination``
(learned weights), ``gateconfig`` and ``gatefit`` (the gate fitted on labeled history).
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    # records
    "AssumptionReport": "types",
    "BayesFactorResult": "types",
    "BetaParams": "types",
    "DependenceDiagnostic": "types",
    "DimensionContribution": "types",
    "DimensionCorrelation": "types",
    "DimensionModel": "types",
    "EvidenceCalibration": "types",
    "ExpectedLoss": "types",
    "GateDecision": "types",
    "GateGuards": "types",
    "GoodnessOfFit": "types",
    "LabeledObservation": "types",
    "QualityScore": "types",
    # models
    "BetaModel": "beta",
    "DimensionSpec": "hypothesis",
    "HypothesisManager": "hypothesis",
    "BetaScoreModel": "scoremodel",
    "EmpiricalScoreModel": "scoremodel",
    "fit_empirical_pair": "scoremodel",
    "model_goodness_of_fit": "scoremodel",
    # evidence
    "clamp_score": "likelihood",
    "log_binary_marginal_likelihood": "likelihood",
    "log_score_likelihood": "likelihood",
    "log_vector_likelihood": "likelihood",
    "bayes_factor": "bayesfactor",
    "jeffreys_strength": "bayesfactor",
    "binary_bayes_factor": "bayesfactor",
    "to_score_map": "scores",
    # policies
    "BayesFactorPolicy": "policies",
    "DecisionTheoreticPolicy": "policies",
    "policy_from_config": "policies",
    "posterior_high_quality": "policies",
    # diagnostics and calibration
    "assess_assumptions": "diagnostics",
    "dependence_diagnostic": "diagnostics",
    "goodness_of_fit": "diagnostics",
    "wrong_direction_dimensions": "diagnostics",
    "DecisionCalibration": "calibration",
    "decision_calibration": "calibration",
    # gate
    "OutputGate": "gate",
    "evaluate": "gate",
    "GateConfig": "gateconfig",
    "MIN_HISTORY": "gateconfig",
    "gate_config_from_wire": "gateconfig",
    "DimensionFit": "gatefit",
    "FittedGate": "gatefit",
    "fit_gate": "gatefit",
    "BatchDecisions": "vectorized",
    "decide_batch": "vectorized",
    "DriftAlert": "monitor",
    "ScaledPageHinkley": "drift",
    "OutputGateMonitor": "monitor",
    "sample_score_matrix": "sampling",
    "GateExperiment": "experiment",
    "run_gate_experiment": "experiment",
    # adapter and loaders
    "BAYES_OUTPUT_GATE_TOOL": "adapter",
    "describe_tool": "adapter",
    "run_tool": "adapter",
    "load_history": "loaders",
    "load_models": "loaders",
    "load_score_vectors": "loaders",
    "to_wire": "wire",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'assay_jeffreys' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"assay_jeffreys.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
