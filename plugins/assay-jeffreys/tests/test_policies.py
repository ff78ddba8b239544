"""The Bayes-factor and decision-theoretic policies: boundaries, expected losses, registry."""

from __future__ import annotations

import math

import numpy as np
import pytest

import assay
from assay_jeffreys import (
    BayesFactorPolicy,
    DecisionTheoreticPolicy,
    bayes_factor,
    policy_from_config,
    posterior_high_quality,
)


@pytest.mark.parametrize(
    ("bf", "action"),
    [
        (10.0, "pass"),
        (10.000001, "pass"),
        (9.99999, "escalate"),
        (1.0, "escalate"),
        (0.1, "fail"),
        (0.0999, "fail"),
    ],
)
def test_bayes_factor_policy_at_and_around_its_thresholds(bf, action):
    policy = BayesFactorPolicy(pass_above=10, fail_below=0.1)
    decision = policy.decide(math.log(bf))
    assert decision.action == action
    assert decision.rule == "bayes-factor"
    assert decision.details["passAbove"] == 10 and decision.details["failBelow"] == 0.1


def test_bayes_factor_policy_with_both_thresholds_at_one_passes_a_factor_of_one():
    policy = BayesFactorPolicy(1.0, 1.0)
    assert [policy.decide(x).action for x in (0.0, 1e-9, -1e-9)] == ["pass", "pass", "fail"]


@pytest.mark.parametrize(
    ("kwargs", "path"),
    [
        ({"pass_above": 0.9}, "passAbove"),
        ({"fail_below": 0.0}, "failBelow"),
        ({"fail_below": 1.5}, "failBelow"),
        ({"pass_above": math.inf}, "passAbove"),
    ],
)
def test_bayes_factor_policy_refuses_bad_thresholds(kwargs, path):
    with pytest.raises(assay.AssayError) as info:
        BayesFactorPolicy(**kwargs)
    assert (info.value.code, info.value.path) == ("INVALID_CONFIG", path)


def test_posterior_is_a_stable_logistic_of_log_odds():
    # prior 0.2 -> prior odds 1/4; BF 8 -> posterior odds 2 -> p = 2/3
    assert posterior_high_quality(math.log(8), 0.2) == pytest.approx(2 / 3, abs=1e-15)
    assert posterior_high_quality(0.0, 0.5) == 0.5
    assert posterior_high_quality(1000.0, 0.5) == 1.0
    assert 0.0 <= posterior_high_quality(-1000.0, 0.5) < 1e-300
    assert posterior_high_quality(math.inf, 0.3) == 1.0
    with pytest.raises(assay.AssayError):
        posterior_high_quality(0.0, 1.0)


def test_expected_losses_match_hand_computation():
    # prior 0.5, BF 3 -> p = 0.75; losses: pass 0.25 * 10 = 2.5, fail 0.75 * 1 = 0.75, escalate 0.5
    policy = DecisionTheoreticPolicy(
        0.5, loss_false_pass=10, loss_false_fail=1, escalation_cost=0.5
    )
    outcome = policy.assess(math.log(3))
    assert outcome.posterior_high_quality == pytest.approx(0.75, abs=1e-15)
    assert outcome.expected_loss.pass_ == pytest.approx(2.5, abs=1e-14)
    assert outcome.expected_loss.fail == pytest.approx(0.75, abs=1e-14)
    assert outcome.expected_loss.escalate == 0.5
    assert outcome.action == "escalate" and outcome.rationale == "expected-loss"
    # BF 99 -> p = 0.99: pass 0.1 < fail 0.99, escalate 0.5 -> pass
    assert policy.assess(math.log(99)).action == "pass"
    # BF 1/9 -> p = 0.1: pass 9, fail 0.1, escalate 0.5 -> fail
    assert policy.assess(math.log(1 / 9)).action == "fail"


def test_ties_go_to_the_cautious_action():
    # p = 0.5 with equal losses 1: pass 0.5, fail 0.5, escalate 0.5 -> escalate
    tie3 = DecisionTheoreticPolicy(0.5, 1.0, 1.0, 0.5)
    assert tie3.assess(0.0).action == "escalate"
    # escalation dearer: pass and fail tie at 0.5 -> fail
    tie2 = DecisionTheoreticPolicy(0.5, 1.0, 1.0, 2.0)
    assert tie2.assess(0.0).action == "fail"


def test_decision_theoretic_decide_reports_posterior_and_losses():
    decision = DecisionTheoreticPolicy().decide(math.log(3))
    assert decision.rule == "expected-loss"
    assert decision.details["posteriorHighQuality"] == pytest.approx(0.75)
    assert set(decision.details["expectedLoss"]) == {"pass", "fail", "escalate"}


@pytest.mark.parametrize(
    ("kwargs", "path"),
    [
        ({"prior_high_quality": 0.0}, "priorHighQuality"),
        ({"prior_high_quality": 1.0}, "priorHighQuality"),
        ({"loss_false_pass": -1}, "lossFalsePass"),
        ({"loss_false_fail": math.nan}, "lossFalseFail"),
        ({"escalation_cost": -0.1}, "escalationCost"),
    ],
)
def test_decision_theoretic_policy_refuses_bad_parameters(kwargs, path):
    with pytest.raises(assay.AssayError) as info:
        DecisionTheoreticPolicy(**kwargs)
    assert (info.value.code, info.value.path) == ("INVALID_CONFIG", path)


def test_policies_accept_a_bayes_factor_result_and_refuse_other_evidence(models):
    result = bayes_factor({"factuality": 0.95}, models)
    assert BayesFactorPolicy().decide(result).action == "pass"
    with pytest.raises(assay.AssayError) as info:
        BayesFactorPolicy().decide("strong")
    assert info.value.code == "INVALID_CONFIG"
    with pytest.raises(assay.AssayError) as info:
        BayesFactorPolicy().decide(math.nan)
    assert info.value.code == "NUMERIC"


def test_policy_from_config_reads_the_wire_shape():
    bf = policy_from_config({"kind": "bayes-factor", "passAbove": 20, "failBelow": 0.05})
    assert (bf.pass_above, bf.fail_below) == (20, 0.05)
    dt = policy_from_config({"kind": "decision-theoretic", "priorHighQuality": 0.9})
    assert (dt.prior_high_quality, dt.loss_false_pass) == (0.9, 10.0)
    for config, path in (
        ({"kind": "vote"}, "policy.kind"),
        ({"kind": "bayes-factor", "passabove": 3}, "policy"),
        ({"kind": "bayes-factor", "passAbove": 0.5}, "policy.passAbove"),
        ("bayes-factor", "policy"),
    ):
        with pytest.raises(assay.AssayError) as info:
            policy_from_config(config)
        assert (info.value.code, info.value.path) == ("INVALID_CONFIG", path)


@pytest.mark.parametrize(
    "policy",
    [
        BayesFactorPolicy(),
        BayesFactorPolicy(3, 0.5),
        DecisionTheoreticPolicy(),
        DecisionTheoreticPolicy(0.3, 1, 5, 0.2),
    ],
)
def test_vectorised_codes_agree_with_the_scalar_policy(policy):
    log_bfs = np.concatenate([np.linspace(-8, 8, 2001), [math.log(10), math.log(0.1), 0.0]])
    codes = policy.decide_codes(log_bfs)
    scalar = [("pass", "fail", "escalate").index(policy.assess(float(x)).action) for x in log_bfs]
    assert codes.tolist() == scalar


def test_both_policies_are_registered_through_the_plugin_hook():
    # Allow-list this plugin so another plugin's state cannot make this test fail.
    registry = assay.build_registry(env={"ASSAY_PLUGINS": "jeffreys"})
    assert isinstance(registry.get("policy", "bayes-factor"), BayesFactorPolicy)
    assert isinstance(registry.get("policy", "decision-theoretic"), DecisionTheoreticPolicy)
    assert registry.lookup("policy", "jeffreys/bayes-factor").provider.plugin == "jeffreys"
    assert isinstance(registry.get("policy", "bayes-factor"), assay.Policy)
