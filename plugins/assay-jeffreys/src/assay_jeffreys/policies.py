"""The gate's decision policies, as :class:`assay.Policy` plugins.

* :class:`BayesFactorPolicy` (``"bayes-factor"``): pass at or above ``pass_above``, fail at or
  below ``fail_below``, escalate in between.
* :class:`DecisionTheoreticPolicy` (``"decision-theoretic"``): turn the log Bayes factor into a
  posterior probability of high quality through an explicit prior, then take the action of
  least expected loss.

Both accept as evidence a :class:`~assay_jeffreys.types.BayesFactorResult` or a plain
natural-log Bayes factor, and both decide whole numpy arrays of log Bayes factors at once
(:meth:`decide_codes`) for the vectorised gate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

import assay
from assay_jeffreys.bayesfactor import safe_exp
from assay_jeffreys.errors import INVALID_CONFIG, NUMERIC, fail
from assay_jeffreys.types import BayesFactorResult, ExpectedLoss, finite

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "BayesFactorPolicy",
    "DecisionTheoreticPolicy",
    "PolicyOutcome",
    "policy_from_config",
    "posterior_high_quality",
    "resolve_policy",
]

PASS, FAIL, ESCALATE = 0, 1, 2
"""Action codes of the vectorised path: indexes into :data:`~assay_jeffreys.types.ACTIONS`."""


def _log_bayes_factor(evidence: Any) -> float:
    if isinstance(evidence, BayesFactorResult):
        value = evidence.log_bayes_factor
    elif isinstance(evidence, int | float) and not isinstance(evidence, bool):
        value = float(evidence)
    else:
        raise assay.AssayError(
            INVALID_CONFIG,
            f"evidence must be a BayesFactorResult or a log Bayes factor, got {evidence!r}",
            "evidence",
        )
    if math.isnan(value):
        fail(NUMERIC, "the log Bayes factor is NaN", "logBayesFactor")
    return value


def _number(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not finite(value):
        fail(INVALID_CONFIG, f"must be a finite number, got {value!r}", path)
    return float(value)


@attrs.frozen
class PolicyOutcome:
    """What a gate policy concluded about one log Bayes factor.

    Attributes:
        action: ``"pass"``, ``"fail"`` or ``"escalate"``.
        rationale: ``"bayes-factor"`` or ``"expected-loss"``.
        reason: a sentence naming the rule and the numbers it compared.
        posterior_high_quality: the posterior under a decision-theoretic policy, else ``None``.
        expected_loss: the expected losses under a decision-theoretic policy, else ``None``.
    """

    action: str
    rationale: str
    reason: str
    posterior_high_quality: float | None = None
    expected_loss: ExpectedLoss | None = None


class _GatePolicy:
    """Shared :class:`assay.Policy` plumbing: ``decide`` wraps :meth:`assess`."""

    name: str
    evidence_type = BayesFactorResult

    def assess(self, log_bayes_factor: float) -> PolicyOutcome:  # pragma: no cover - abstract
        raise NotImplementedError

    def details(self) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def decide(self, evidence: Any) -> assay.Decision:
        """Decide on a :class:`BayesFactorResult` or a log Bayes factor.

        :raises AssayError: ``INVALID_CONFIG`` for evidence of another type; ``NUMERIC`` for
            a NaN log Bayes factor.
        """
        log_bf = _log_bayes_factor(evidence)
        outcome = self.assess(log_bf)
        details: dict[str, Any] = {
            "logBayesFactor": log_bf,
            "bayesFactor": safe_exp(log_bf) if math.isfinite(safe_exp(log_bf)) else None,
            **self.details(),
        }
        if outcome.posterior_high_quality is not None:
            details["posteriorHighQuality"] = outcome.posterior_high_quality
        if outcome.expected_loss is not None:
            loss = outcome.expected_loss
            details["expectedLoss"] = {
                "pass": loss.pass_,
                "fail": loss.fail,
                "escalate": loss.escalate,
            }
        return assay.Decision(outcome.action, outcome.rationale, outcome.reason, details)


class BayesFactorPolicy(_GatePolicy):
    """Pass when ``BF >= pass_above``, fail when ``BF <= fail_below``, else escalate.

    Compared in log space (``ln BF >= ln pass_above``), so a Bayes factor exactly at a
    threshold takes that threshold's action; when both thresholds are 1, a factor of exactly 1
    passes.

    :param pass_above: at least 1 (default 10).
    :param fail_below: in (0, 1] (default 0.1).
    :raises AssayError: ``INVALID_CONFIG`` (path ``passAbove`` / ``failBelow``) otherwise.
    """

    name = "bayes-factor"
    rationale = "bayes-factor"

    def __init__(self, pass_above: float = 10.0, fail_below: float = 0.1) -> None:
        self.pass_above = _number(pass_above, "passAbove")
        self.fail_below = _number(fail_below, "failBelow")
        if self.pass_above < 1.0:
            fail(INVALID_CONFIG, f"must be >= 1, got {pass_above!r}", "passAbove")
        if not 0.0 < self.fail_below <= 1.0:
            fail(INVALID_CONFIG, f"must be in (0, 1], got {fail_below!r}", "failBelow")
        self._log_pass = math.log(self.pass_above)
        self._log_fail = math.log(self.fail_below)

    def assess(self, log_bayes_factor: float) -> PolicyOutcome:
        """The action for one natural-log Bayes factor (see the class docstring)."""
        bf = f"BF {safe_exp(log_bayes_factor):.6g}"
        if log_bayes_factor >= self._log_pass:
            reason = f"{bf} >= pass-above {self.pass_above:g}"
            return PolicyOutcome("pass", self.rationale, reason)
        if log_bayes_factor <= self._log_fail:
            reason = f"{bf} <= fail-below {self.fail_below:g}"
            return PolicyOutcome("fail", self.rationale, reason)
        reason = (
            f"{bf} is between fail-below {self.fail_below:g} and pass-above {self.pass_above:g}"
        )
        return PolicyOutcome("escalate", self.rationale, reason)

    def decide_codes(self, log_bayes_factors: np.ndarray) -> np.ndarray:
        """Action codes (0 pass, 1 fail, 2 escalate) for an array of log Bayes factors."""
        import numpy as np

        codes = np.full(log_bayes_factors.shape, ESCALATE, dtype=np.int8)
        codes[log_bayes_factors <= self._log_fail] = FAIL
        codes[log_bayes_factors >= self._log_pass] = PASS
        return codes

    def details(self) -> dict[str, Any]:
        """The thresholds, for decision details and audit payloads."""
        return {"kind": self.name, "passAbove": self.pass_above, "failBelow": self.fail_below}

    def __repr__(self) -> str:
        return f"BayesFactorPolicy(pass_above={self.pass_above}, fail_below={self.fail_below})"


def posterior_high_quality(log_bayes_factor: float, prior_high_quality: float) -> float:
    """``P(high | scores)`` from posterior log-odds ``ln BF + ln(prior / (1 - prior))``,
    through a logistic that neither overflows nor loses precision at large magnitudes.

    :raises AssayError: ``INVALID_CONFIG`` unless ``0 < prior_high_quality < 1``; ``NUMERIC``
        for a NaN log Bayes factor.
    """
    if not 0.0 < prior_high_quality < 1.0:
        fail(INVALID_CONFIG, "must be in (0, 1)", "priorHighQuality")
    if math.isnan(log_bayes_factor):
        fail(NUMERIC, "the log Bayes factor is NaN", "logBayesFactor")
    z = log_bayes_factor + math.log(prior_high_quality) - math.log1p(-prior_high_quality)
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


class DecisionTheoreticPolicy(_GatePolicy):
    """Take the action of least expected loss given the posterior ``p`` of high quality.

    Expected losses: pass ``(1 - p) * loss_false_pass``, fail ``p * loss_false_fail``,
    escalate ``escalation_cost``. Ties go to the more cautious action: escalate before fail
    before pass.

    :param prior_high_quality: the base rate of high quality, in (0, 1) (default 0.5).
    :param loss_false_pass: cost of passing a low-quality output, >= 0 (default 10).
    :param loss_false_fail: cost of failing a high-quality output, >= 0 (default 1).
    :param escalation_cost: fixed cost of a review, >= 0 (default 0.5).
    :raises AssayError: ``INVALID_CONFIG`` with the parameter's camelCase path otherwise.
    """

    name = "decision-theoretic"
    rationale = "expected-loss"

    def __init__(
        self,
        prior_high_quality: float = 0.5,
        loss_false_pass: float = 10.0,
        loss_false_fail: float = 1.0,
        escalation_cost: float = 0.5,
    ) -> None:
        self.prior_high_quality = _number(prior_high_quality, "priorHighQuality")
        if not 0.0 < self.prior_high_quality < 1.0:
            fail(
                INVALID_CONFIG, f"must be in (0, 1), got {prior_high_quality!r}", "priorHighQuality"
            )
        self.loss_false_pass = _number(loss_false_pass, "lossFalsePass")
        self.loss_false_fail = _number(loss_false_fail, "lossFalseFail")
        self.escalation_cost = _number(escalation_cost, "escalationCost")
        for path, value in (
            ("lossFalsePass", self.loss_false_pass),
            ("lossFalseFail", self.loss_false_fail),
            ("escalationCost", self.escalation_cost),
        ):
            if value < 0:
                fail(INVALID_CONFIG, f"must be >= 0, got {value!r}", path)

    def assess(self, log_bayes_factor: float) -> PolicyOutcome:
        """The least-expected-loss action for one natural-log Bayes factor."""
        p = posterior_high_quality(log_bayes_factor, self.prior_high_quality)
        loss = ExpectedLoss(
            (1.0 - p) * self.loss_false_pass, p * self.loss_false_fail, self.escalation_cost
        )
        by_caution = (("escalate", loss.escalate), ("fail", loss.fail), ("pass", loss.pass_))
        action = min(by_caution, key=lambda item: item[1])[0]
        reason = (
            f"posterior {p:.6g}: expected loss pass {loss.pass_:.6g}, fail {loss.fail:.6g}, "
            f"escalate {loss.escalate:.6g}; {action} is least"
        )
        return PolicyOutcome(action, self.rationale, reason, p, loss)

    def decide_codes(self, log_bayes_factors: np.ndarray) -> np.ndarray:
        """Action codes (0 pass, 1 fail, 2 escalate) for an array of log Bayes factors."""
        import numpy as np
        from scipy.special import expit

        prior_log_odds = math.log(self.prior_high_quality) - math.log1p(-self.prior_high_quality)
        p = expit(log_bayes_factors + prior_log_odds)
        loss_pass = (1.0 - p) * self.loss_false_pass
        loss_fail = p * self.loss_false_fail
        codes = np.full(p.shape, ESCALATE, dtype=np.int8)
        fail_wins = loss_fail < self.escalation_cost
        codes[fail_wins] = FAIL
        pass_wins = loss_pass < np.minimum(loss_fail, self.escalation_cost)
        codes[pass_wins] = PASS
        return codes

    def details(self) -> dict[str, Any]:
        """The prior and the losses, for decision details and audit payloads."""
        return {
            "kind": self.name,
            "priorHighQuality": self.prior_high_quality,
            "lossFalsePass": self.loss_false_pass,
            "lossFalseFail": self.loss_false_fail,
            "escalationCost": self.escalation_cost,
        }

    def __repr__(self) -> str:
        return (
            f"DecisionTheoreticPolicy(prior_high_quality={self.prior_high_quality}, "
            f"loss_false_pass={self.loss_false_pass}, loss_false_fail={self.loss_false_fail}, "
            f"escalation_cost={self.escalation_cost})"
        )


_CONFIG_KEYS = {
    "bayes-factor": (BayesFactorPolicy, {"passAbove": "pass_above", "failBelow": "fail_below"}),
    "decision-theoretic": (
        DecisionTheoreticPolicy,
        {
            "priorHighQuality": "prior_high_quality",
            "lossFalsePass": "loss_false_pass",
            "lossFalseFail": "loss_false_fail",
            "escalationCost": "escalation_cost",
        },
    ),
}


def policy_from_config(
    config: Any, path: str = "policy"
) -> BayesFactorPolicy | DecisionTheoreticPolicy:
    """A policy from its JSON wire shape (compatible with bayesoutputgate): ``{"kind":
    "bayes-factor", "passAbove", "failBelow"}`` or ``{"kind": "decision-theoretic",
    "priorHighQuality", "lossFalsePass", "lossFalseFail", "escalationCost"}``. Omitted fields take
    the constructor defaults; a policy object is returned as is.

    :raises AssayError: ``INVALID_CONFIG`` for an unknown kind, an unknown field or a bad value
        (path ``policy.<field>``).
    """
    if isinstance(config, BayesFactorPolicy | DecisionTheoreticPolicy):
        return config
    if not isinstance(config, Mapping):
        fail(INVALID_CONFIG, "a policy must be an object with a 'kind'", path)
    kind = config.get("kind")
    if not isinstance(kind, str) or kind not in _CONFIG_KEYS:
        fail(
            INVALID_CONFIG,
            f"unknown policy kind {kind!r}; use one of {sorted(_CONFIG_KEYS)}",
            f"{path}.kind",
        )
    cls, keys = _CONFIG_KEYS[kind]
    unknown = sorted(set(config) - set(keys) - {"kind"})
    if unknown:
        fail(INVALID_CONFIG, f"unknown field(s) {', '.join(unknown)} for {kind}", path)
    try:
        policy: BayesFactorPolicy | DecisionTheoreticPolicy = cls(
            **{keys[k]: v for k, v in config.items() if k != "kind"}
        )
        return policy
    except assay.AssayError as exc:
        fail(exc.code, exc.message, f"{path}.{exc.path}")


def resolve_policy(policy: Any) -> Any:
    """A policy object from a policy object (anything with ``decide``) or a config mapping.

    Shared by the gate (:mod:`assay_jeffreys.gate`), its vectorised path
    (:mod:`assay_jeffreys.vectorized`), the monitor and the experiment, which is why it lives
    here and not in either of the first two (they would import each other).
    """
    if hasattr(policy, "decide"):
        return policy
    return policy_from_config(policy)
