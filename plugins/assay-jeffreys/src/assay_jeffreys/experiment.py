"""How good is a gate on labeled data it was not fit on?

:func:`run_gate_experiment` fits the hypotheses on one labeled set, decides every output of a
second one, and reports decision quality (accuracy of the decided outputs, the share
escalated), probability calibration of the posterior (Brier, ECE, reliability) and the model
diagnostics (goodness of fit per dimension and hypothesis, dependence within each hypothesis).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from assay_jeffreys.calibration import DecisionCalibration, decision_calibration
from assay_jeffreys.diagnostics import (
    DEFAULT_ALPHA,
    DEFAULT_DEPENDENCE_THRESHOLD,
    FitCheck,
    dependence_by_hypothesis,
    fit_checks,
)
from assay_jeffreys.errors import INVALID_OBSERVATION, fail
from assay_jeffreys.gate import evaluate
from assay_jeffreys.hypothesis import HypothesisManager
from assay_jeffreys.policies import BayesFactorPolicy, posterior_high_quality, resolve_policy
from assay_jeffreys.scores import observation_from_wire
from assay_jeffreys.types import (
    DependenceDiagnostic,
    DimensionModel,
    LabeledObservation,
    as_dict,
    as_tuple,
)

__all__ = ["GateExperiment", "run_gate_experiment"]


@attrs.frozen
class GateExperiment:
    """The outcome of :func:`run_gate_experiment`.

    Attributes:
        fitted: labeled outputs the hypotheses were fit on.
        tested: labeled outputs decided.
        counts: ``{"pass", "fail", "escalate"}`` over the tested outputs.
        decided_accuracy: among passed or failed outputs, the share whose action matches the
            label (pass for high, fail for low); ``None`` when nothing was decided.
        escalated_share: the share of tested outputs escalated.
        posterior_accuracy: the share of tested outputs whose posterior of high quality is on
            the label's side of 0.5 (ties count as wrong).
        prior_high_quality: the base rate used for the posterior (the fit set's share of high).
        calibration: Brier, ECE and reliability of the posterior against the labels.
        models: the fitted models.
        fits: goodness of fit of each model under each hypothesis, on the fit set.
        dependence: dependence within each hypothesis, on the fit set.
    """

    fitted: int
    tested: int
    counts: Mapping[str, int]
    decided_accuracy: float | None
    escalated_share: float
    posterior_accuracy: float
    prior_high_quality: float
    calibration: DecisionCalibration
    models: tuple[DimensionModel, ...] = attrs.field(converter=as_tuple)
    fits: tuple[FitCheck, ...] = attrs.field(converter=as_tuple)
    dependence: Mapping[str, DependenceDiagnostic] = attrs.field(converter=as_dict)


def _observations(items: Sequence[Any], name: str) -> list[LabeledObservation]:
    observations = [observation_from_wire(o, f"{name}[{i}]") for i, o in enumerate(items)]
    if not observations:
        fail(INVALID_OBSERVATION, f"{name} is empty", name)
    return observations


def run_gate_experiment(
    fit_set: Sequence[LabeledObservation | Mapping[str, Any]],
    test_set: Sequence[LabeledObservation | Mapping[str, Any]],
    policy: Any = None,
    manager: HypothesisManager | None = None,
    alpha: float = DEFAULT_ALPHA,
    dependence_threshold: float = DEFAULT_DEPENDENCE_THRESHOLD,
    bins: int = 10,
) -> GateExperiment:
    """Fit on ``fit_set``, decide ``test_set``, measure (see :class:`GateExperiment`).

    :param policy: the gate's policy (default Bayes-factor 10 / 0.1).
    :param manager: the manager to fit (default: a new one with the default priors).
    :raises AssayError: ``INVALID_OBSERVATION`` for an empty set, a fit set without both labels;
        otherwise as :func:`~assay_jeffreys.evaluate`.
    """
    train = _observations(fit_set, "fitSet")
    test = _observations(test_set, "testSet")
    highs = sum(o.label == "high" for o in train)
    if highs in (0, len(train)):
        fail(INVALID_OBSERVATION, "the fit set needs both high and low outputs", "fitSet")
    prior = highs / len(train)
    models = (manager or HypothesisManager()).fit(train).models()
    resolved = resolve_policy(policy if policy is not None else BayesFactorPolicy())
    counts = {"pass": 0, "fail": 0, "escalate": 0}
    correct = decided = on_side = 0
    posteriors = []
    for obs in test:
        decision = evaluate(obs.scores, models, resolved)
        counts[decision.action] += 1
        if decision.action != "escalate":
            decided += 1
            correct += (decision.action == "pass") == (obs.label == "high")
        p = posterior_high_quality(decision.log_bayes_factor, prior)
        posteriors.append(p)
        on_side += (p > 0.5) if obs.label == "high" else (p < 0.5)
    return GateExperiment(
        fitted=len(train),
        tested=len(test),
        counts=counts,
        decided_accuracy=correct / decided if decided else None,
        escalated_share=counts["escalate"] / len(test),
        posterior_accuracy=on_side / len(test),
        prior_high_quality=prior,
        calibration=decision_calibration(posteriors, [o.label for o in test], bins),
        models=models,
        fits=fit_checks(train, models, alpha),
        dependence=dependence_by_hypothesis(train, dependence_threshold),
    )
