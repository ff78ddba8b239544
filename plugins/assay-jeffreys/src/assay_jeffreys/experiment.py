"""How good is a gate on labeled data it was not fit on?

:func:`run_gate_experiment` fits a gate on one labeled set (:func:`~assay_jeffreys.fit_gate`),
decides every output of a second one, and reports decision quality (accuracy of the decided
outputs, the share escalated), probability quality of the posterior (Brier, ECE, reliability,
log-loss, the share confidently wrong) and the model diagnostics (the Beta goodness of fit per
dimension and hypothesis, dependence within each hypothesis, and the fitted gate's own report).
"""

from __future__ import annotations

import math
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
from assay_jeffreys.gateconfig import GateConfig
from assay_jeffreys.gatefit import FittedGate, fit_gate
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

__all__ = ["CONFIDENT", "GateExperiment", "run_gate_experiment"]

CONFIDENT = 0.999
"""A posterior above this for a label is "confident": :attr:`GateExperiment.confident_wrong_share`
counts the outputs given that much probability for the label they do not have."""


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
        models: the Beta models of the fit set (BayesOutputGate's calibration).
        fits: goodness of fit of each Beta model under each hypothesis, on the fit set.
        dependence: dependence within each hypothesis, on the fit set.
        log_loss: mean negative natural log of the posterior given to the true label
            (computed from the log-odds, so a confident miss counts in full, never as infinity
            clipped away).
        confident_wrong_share: the share of tested outputs whose posterior gives more than
            :data:`CONFIDENT` to the wrong label.
        confident_wrong_low_share: the same among the tested low-quality outputs (confidently
            passed as high).
        gate: the fitted gate (its :meth:`~assay_jeffreys.FittedGate.report` says which score
            models, weights and exclusions decided).
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
    log_loss: float
    confident_wrong_share: float
    confident_wrong_low_share: float | None
    gate: FittedGate = attrs.field(eq=False)


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
    config: GateConfig | Mapping[str, Any] | str | None = None,
) -> GateExperiment:
    """Fit on ``fit_set``, decide ``test_set``, measure (see :class:`GateExperiment`).

    :param policy: the gate's policy (default Bayes-factor 10 / 0.1).
    :param manager: dimension specs and Beta priors (default: a new one with the default
        priors); its observations are not used.
    :param config: how the gate is fitted (see :func:`~assay_jeffreys.fit_gate`; default the
        calibrated gate, ``"compatible"`` for BayesOutputGate's numbers).
    :raises AssayError: ``INVALID_OBSERVATION`` for an empty set, a fit set without both labels;
        otherwise as :func:`~assay_jeffreys.evaluate`.
    """
    train = _observations(fit_set, "fitSet")
    test = _observations(test_set, "testSet")
    highs = sum(o.label == "high" for o in train)
    if highs in (0, len(train)):
        fail(INVALID_OBSERVATION, "the fit set needs both high and low outputs", "fitSet")
    prior = highs / len(train)
    gate = fit_gate(train, config, manager, dependence_threshold)
    resolved = resolve_policy(policy if policy is not None else BayesFactorPolicy())
    counts = {"pass": 0, "fail": 0, "escalate": 0}
    correct = decided = on_side = 0
    posteriors, losses = [], []
    confident = math.log(CONFIDENT / (1.0 - CONFIDENT))
    wrong = wrong_low = 0
    prior_log_odds = math.log(prior / (1.0 - prior))
    for obs in test:
        decision = gate.evaluate(obs.scores, resolved)
        counts[decision.action] += 1
        if decision.action != "escalate":
            decided += 1
            correct += (decision.action == "pass") == (obs.label == "high")
        p = posterior_high_quality(decision.log_bayes_factor, prior)
        posteriors.append(p)
        on_side += (p > 0.5) if obs.label == "high" else (p < 0.5)
        # log-odds for the true label; -ln P(true) = ln(1 + exp(-odds))
        odds = decision.log_bayes_factor + prior_log_odds
        odds = odds if obs.label == "high" else -odds
        losses.append(_softplus(-odds))
        if odds < -confident:
            wrong += 1
            wrong_low += obs.label == "low"
    lows = sum(o.label == "low" for o in test)
    return GateExperiment(
        fitted=len(train),
        tested=len(test),
        counts=counts,
        decided_accuracy=correct / decided if decided else None,
        escalated_share=counts["escalate"] / len(test),
        posterior_accuracy=on_side / len(test),
        prior_high_quality=prior,
        calibration=decision_calibration(posteriors, [o.label for o in test], bins),
        models=gate.models,
        fits=fit_checks(train, gate.models, alpha),
        dependence=dependence_by_hypothesis(train, dependence_threshold),
        log_loss=math.fsum(losses) / len(test),
        confident_wrong_share=wrong / len(test),
        confident_wrong_low_share=wrong_low / lows if lows else None,
        gate=gate,
    )


def _softplus(x: float) -> float:
    """``ln(1 + exp(x))`` without overflow."""
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))
