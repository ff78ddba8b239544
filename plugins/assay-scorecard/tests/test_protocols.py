"""The protocols mean what they say: any object with a Dimension's or a Policy's members works in
a scorer, with no hidden attribute required and no subclassing (the two classes below are the
README's examples, word for word); classes, missing members and policies that decide on other
evidence are refused when the scorer is built. Also: compute_confidence's cache of scorers."""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any

import pytest

import assay
import assay_scorecard
import assay_scorecard.engine
import assay_scorecard.plugin
from assay_scorecard import ScorecardEvidence, compute_confidence, create_scorer

# inputs made for duck-typed dimensions carry fields the JSON input format does not know: the
# FieldWarning each gives is tested in test_field_checks.py and noise here
pytestmark = pytest.mark.filterwarnings("ignore::assay_scorecard.field_checks.FieldWarning")


# --- README: a Dimension is any object with these members (no subclassing) -------------------
class Politeness:
    """Up to 10 points when the answer was judged polite."""

    name = "politeness"
    tier = 1  # 1: answer confidence, 2: system readiness
    max_points = 10.0
    default_weight = 10.0

    def is_active(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> bool:
        return "polite" in inputs

    def validate_config(self, config: Mapping[str, Any]) -> None:
        return None

    def check_inputs(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> list[Any]:
        return []

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        polite = inputs["polite"] is True
        return assay.dimension_score(
            raw=10.0 if polite else 0.0,
            max_points=10.0,
            explanation="Polite answer." if polite else "Impolite answer.",
        )


# --- README: a Policy is any object with a name, an evidence_type and decide() ----------------
class ReviewEverything:
    """Sends every answer to a person, quoting the score."""

    name = "review-everything"
    evidence_type = ScorecardEvidence

    def decide(self, evidence: ScorecardEvidence) -> assay.Decision:
        return assay.Decision(
            "review", "review-everything", f"Score {evidence.total:g}: every answer is reviewed."
        )


INPUTS = {"supportLevel": "high", "hasConflict": False, "candidates": [], "polite": True}


def registry() -> assay.Registry:
    """A registry with this plugin only (its policy and presets), whatever else is installed."""
    return assay.build_registry(
        load_entry_points=False, extra_plugins={"scorecard": assay_scorecard.plugin}
    )


def test_duck_typed_dimension_and_policy_work_in_a_scorer() -> None:
    scorer = create_scorer(
        dimensions=[Politeness()], policy=ReviewEverything(), registry=registry()
    )
    card = scorer.compute(INPUTS)
    assert (card.total, card.recommended_action, card.action_rule) == (
        100,
        "review",
        "review-everything",
    )
    assert card.action_reason == "Score 100: every answer is reviewed."
    assert card.meta.active_dimensions == ("politeness",)
    assert card.meta.active_extensions == ("politeness",)  # `extension` defaults to True
    assert card.dimensions["politeness"].explanation == "Polite answer."
    # is_active is asked per answer: without the signal the dimension sits out
    assert scorer.compute({**INPUTS, "polite": False}).total == 0
    assert (
        create_scorer(dimensions=[Politeness()], registry=registry())
        .compute({"candidates": []})
        .meta.active_dimensions
        == ()
    )


def test_only_the_protocol_members_are_needed() -> None:
    class Bare:  # no is_active, validate_config, check_inputs: the documented defaults apply
        name = "bare"
        tier = 2
        max_points = 4.0
        default_weight = 4.0

        def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> Any:
            return assay.dimension_score(raw=1.0, max_points=4.0, explanation="one of four")

    class Decides:  # no evidence_type: accepted
        name = "answers"

        def decide(self, evidence: Any) -> assay.Decision:
            return assay.Decision("answer", "always", "Always answers.")

    card = create_scorer(dimensions=[Bare()], policy=Decides(), registry=registry()).compute(INPUTS)
    assert (card.total, card.tier2.score if card.tier2 else None) == (25, 25)
    assert card.recommended_action == "answer"


@pytest.mark.parametrize("evidence_type", [Any, object, "ScorecardEvidence"])
def test_policies_that_take_any_evidence_are_accepted(evidence_type: Any) -> None:
    policy = ReviewEverything()
    policy.evidence_type = evidence_type  # type: ignore[assignment]
    create_scorer(dimensions=[Politeness()], policy=policy, registry=registry())


def test_a_policy_for_other_evidence_is_refused_when_the_scorer_is_built() -> None:
    class Verdict:
        pass

    class Gate:
        name = "gate"
        evidence_type = Verdict

        def decide(self, evidence: Verdict) -> assay.Decision:
            raise AssertionError("never called")

    with pytest.raises(assay.AssayError) as caught:
        create_scorer(dimensions=[Politeness()], policy=Gate(), registry=registry())
    error = caught.value
    assert error.code == "INVALID_CONFIG"
    assert "'gate'" in error.message and "Verdict" in error.message
    assert "ScorecardEvidence" in error.message


def test_the_bayes_factor_policy_is_refused_by_name() -> None:
    pytest.importorskip(
        "assay_jeffreys",
        reason="the bayes-factor policy comes from assay-jeffreys (installed in CI)",
    )
    with pytest.raises(assay.AssayError) as caught:
        create_scorer(policy="bayes-factor")
    assert caught.value.code == "INVALID_CONFIG"
    for name in ("bayes-factor", "BayesFactorResult", "ScorecardEvidence"):
        assert name in caught.value.message


def test_a_class_instead_of_an_instance_is_refused() -> None:
    for kwargs in ({"dimensions": [Politeness]}, {"policy": ReviewEverything}):
        options: dict[str, Any] = {"dimensions": [Politeness()], **kwargs}
        with pytest.raises(assay.AssayError) as caught:
            create_scorer(registry=registry(), **options)
        assert caught.value.code == "INVALID_PLUGIN_OBJECT"
        assert "is a class; pass an instance" in caught.value.message


def test_an_object_lacking_a_member_is_refused() -> None:
    class NoScore:
        name, tier, max_points, default_weight = "x", 1, 1.0, 1.0

    with pytest.raises(assay.AssayError) as caught:
        create_scorer(dimensions=[NoScore()], registry=registry())  # type: ignore[list-item]
    assert caught.value.code == "INVALID_PLUGIN_OBJECT" and "score()" in caught.value.message


def test_missing_signals_come_from_the_dimensions_declarations() -> None:
    class Cited(Politeness):
        name = "cited"
        missing_signals = MappingProxyType({"missing-citations": "citations"})

        def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> Any:
            warning = assay.ScoreWarning("missing-citations", "warn", "No citations.", "citations")
            return assay.dimension_score(
                raw=0.0, max_points=10.0, explanation="no citations", warnings=[warning]
            )

    card = create_scorer(dimensions=[Cited()], registry=registry()).compute(INPUTS)
    # the scorecard's own code (no candidates) first, then the dimension's
    assert card.meta.missing_signals == ("candidates", "citations")


# --- compute_confidence keeps the scorers it builds ---------------------------------------------
@pytest.fixture
def toy_registry(monkeypatch: pytest.MonkeyPatch) -> assay.Registry:
    """The default registry, for compute_confidence, holding the plugin, Politeness and a preset
    that composes it."""
    toy = registry()
    toy.register(Politeness())
    toy.register(
        assay_scorecard.Preset("toy", dimensions=("politeness",)), kind="preset", name="toy"
    )
    monkeypatch.setattr(assay_scorecard.engine, "default_registry", lambda: toy)
    return toy


def test_compute_confidence_reads_a_config_changed_after_a_call(
    toy_registry: assay.Registry,
) -> None:
    config: dict[str, Any] = {"preset": "toy", "actionPolicy": {"answerAt": 65}}
    assert compute_confidence(INPUTS, config).recommended_action == "answer"
    config["actionPolicy"]["answerAt"] = 101  # the same dict, changed in place
    assert compute_confidence(INPUTS, config).recommended_action == "review"
    config["actionPolicy"]["answerAt"] = 65
    assert compute_confidence(INPUTS, config).recommended_action == "answer"


def test_compute_confidence_sees_what_is_registered_later(toy_registry: assay.Registry) -> None:
    config = {"preset": "strict-toy"}  # not registered yet: the default preset applies
    with pytest.raises(assay.AssayError):  # (whose dimensions are not installed here)
        compute_confidence(INPUTS, config)
    toy_registry.register(
        assay_scorecard.Preset("strict-toy", dimensions=("politeness",)),
        kind="preset",
        name="strict-toy",
    )
    assert compute_confidence(INPUTS, config).meta.active_dimensions == ("politeness",)


def test_compute_confidence_raises_a_config_error_every_time(
    toy_registry: assay.Registry,
) -> None:
    config = {"preset": "toy", "weights": {"politeness": -1}}
    errors = []
    for _ in range(3):
        with pytest.raises(assay.AssayError) as caught:
            compute_confidence(INPUTS, config)
        errors.append(caught.value)
    assert {(e.code, e.path) for e in errors} == {("INVALID_CONFIG", "weights.politeness")}
    assert len({id(e) for e in errors}) == 3  # a fresh exception each time


def test_compute_confidence_takes_configs_that_are_not_plain_json(
    toy_registry: assay.Registry,
) -> None:
    # NaN (JSON text would write it as null), a tuple, a datetime: built each time, never
    # confused with the plain config of the same text
    plain = {"preset": "toy", "actionPolicy": {"answerAt": 101, "reviewAt": None}}
    odd = {"preset": "toy", "actionPolicy": {"answerAt": 101, "reviewAt": math.nan}}
    for _ in range(2):
        # null is "not given" (40): review; NaN compares false: abstain
        assert compute_confidence(INPUTS, plain).action_rule == "review-at"
        assert compute_confidence(INPUTS, odd).action_rule == "below-review-at"
    dated = {"preset": "toy", "now": datetime(2026, 1, 1, tzinfo=UTC), "tags": ("a",)}
    assert compute_confidence(INPUTS, dated).total == 100
    with pytest.raises(assay.AssayError):  # the default preset: its dimensions are not here
        compute_confidence(INPUTS, None)


def test_compute_confidence_cache_is_bounded(
    toy_registry: assay.Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(assay_scorecard.engine, "SCORER_CACHE_SIZE", 3)
    for answer_at in range(10):
        compute_confidence(INPUTS, {"preset": "toy", "actionPolicy": {"answerAt": answer_at}})
    assert len(assay_scorecard.engine._built) <= 3
