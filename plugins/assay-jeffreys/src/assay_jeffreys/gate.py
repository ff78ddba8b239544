"""The gate: one call from an output's scores to a pass / fail / escalate decision."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay_jeffreys.bayesfactor import bayes_factor
from assay_jeffreys.errors import INVALID_DIMENSION, fail
from assay_jeffreys.policies import PolicyOutcome, resolve_policy
from assay_jeffreys.scores import models_from_wire
from assay_jeffreys.types import BayesFactorResult, DimensionModel, GateDecision, GateGuards

__all__ = ["OutputGate", "decide_on_evidence", "evaluate", "resolve_policy"]


def _outcome(policy: Any, result: Any) -> PolicyOutcome:
    if hasattr(policy, "assess"):
        outcome: PolicyOutcome = policy.assess(result.log_bayes_factor)
        return outcome
    decision = policy.decide(result)  # any assay.Policy accepting a BayesFactorResult
    return PolicyOutcome(decision.action, decision.rule, decision.reason)


def evaluate(
    scores: Any,
    models: Sequence[DimensionModel],
    policy: Any,
    guards: GateGuards | None = None,
) -> GateDecision:
    """Weigh one output's scores against the models under a policy.

    :param scores: a score vector (object map or array of ``{dimension, value}``).
    :param models: the calibrated dimension models (records or their wire shape).
    :param policy: a :class:`~assay_jeffreys.BayesFactorPolicy`,
        :class:`~assay_jeffreys.DecisionTheoreticPolicy`, their config mapping, or any
        :class:`assay.Policy` that accepts a :class:`BayesFactorResult` (its ``rule`` becomes
        the rationale).
    :param guards: when given with a report and a ``require_*`` flag whose assumption fails,
        the action becomes ``"escalate"`` with rationale ``"assumption-violated"``; the Bayes
        factor, strength, contributions, posterior and expected loss are kept.
    :return: the :class:`GateDecision`.
    :raises AssayError: ``INVALID_SCORE`` for bad scores; ``INVALID_DIMENSION`` when no score
        matches a modeled dimension (there is no evidence to decide on); ``INVALID_CONFIG`` for
        a bad policy or models.
    """
    models = models_from_wire(models)
    result = bayes_factor(scores, models)
    if not result.contributions:
        fail(INVALID_DIMENSION, "no score matches a modeled dimension", "scores")
    return decide_on_evidence(result, resolve_policy(policy), guards)


def decide_on_evidence(
    result: BayesFactorResult,
    policy: Any,
    guards: GateGuards | None = None,
    insufficient_history: str | None = None,
) -> GateDecision:
    """The decision a resolved policy takes on a Bayes factor, after the gate's overrides.

    :param insufficient_history: when given (a sentence saying how much labeled history there
        is and how much the gate needs), the action becomes ``"escalate"`` with rationale
        ``"insufficient-history"``; this comes before the guards.
    :param guards: as for :func:`evaluate`.
    """
    outcome = _outcome(policy, result)
    action, rationale, reason = outcome.action, outcome.rationale, outcome.reason
    violated = guards.violated() if guards is not None else []
    if insufficient_history is not None:
        action, rationale = "escalate", "insufficient-history"
        reason = f"{insufficient_history}; policy said: {reason}"
    elif violated:
        action, rationale = "escalate", "assumption-violated"
        reason = f"required assumption(s) {', '.join(violated)} failed; policy said: {reason}"
    return GateDecision(
        action=action,
        bayes_factor=result.bayes_factor,
        log_bayes_factor=result.log_bayes_factor,
        strength=result.strength,
        rationale=rationale,
        contributions=result.contributions,
        reason=reason,
        posterior_high_quality=outcome.posterior_high_quality,
        expected_loss=outcome.expected_loss,
        assumptions=guards.assumptions if guards is not None else None,
        calibration=result.calibration,
    )


class OutputGate:
    """A gate with fixed models, policy and guards.

    :param models: the calibrated dimension models (checked once, here).
    :param policy: as for :func:`evaluate` (default: Bayes-factor policy 10 / 0.1).
    :param guards: as for :func:`evaluate`.
    """

    def __init__(
        self, models: Sequence[DimensionModel], policy: Any = None, guards: GateGuards | None = None
    ) -> None:
        from assay_jeffreys.policies import BayesFactorPolicy

        self.models = models_from_wire(models)
        self.policy = resolve_policy(policy if policy is not None else BayesFactorPolicy())
        self.guards = guards

    def evaluate(self, scores: Any) -> GateDecision:
        """:func:`evaluate` with this gate's models, policy and guards."""
        return evaluate(scores, self.models, self.policy, self.guards)

    def evaluate_many(self, score_matrix: Any, dimensions: Sequence[str]) -> Any:
        """The vectorised path: see :func:`assay_jeffreys.vectorized.decide_batch`."""
        from assay_jeffreys.vectorized import decide_batch  # numpy and scipy on first use

        return decide_batch(score_matrix, dimensions, self.models, self.policy, self.guards)
