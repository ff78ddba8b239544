"""Composition in the core, with dimensions of the test's own (no plugin needed)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

import assay
import assay.testing
import assay_scorecard
import assay_scorecard.plugin


class Fixed(assay.Dimension):
    """A dimension scoring a fixed number of points (for composition tests)."""

    def __init__(self, name: str, raw: float, max_points: float, tier: int = 1) -> None:
        self.name = name
        self.raw = raw
        self.max_points = max_points
        self.default_weight = max_points
        self.tier = tier

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        return assay.dimension_score(
            raw=self.raw, max_points=self.max_points, explanation=f"{self.raw} points"
        )


INPUTS = {"supportLevel": "high", "hasConflict": False, "candidates": []}


def scorecard_registry() -> assay.Registry:
    """A registry with this plugin only (its policy and presets), whatever else is installed."""
    return assay.build_registry(
        load_entry_points=False, extra_plugins={"scorecard": assay_scorecard.plugin}
    )


def scorer(*dims: assay.Dimension, config: dict[str, Any] | None = None) -> assay_scorecard.Scorer:
    registry = scorecard_registry()
    return assay_scorecard.create_scorer(config or {}, dimensions=list(dims), registry=registry)


def test_totals_weights_and_tiers() -> None:
    card = scorer(Fixed("a", 15, 30), Fixed("b", 10, 10), Fixed("c", 5, 20, tier=2)).compute(INPUTS)
    # raw total 15 + 10 + 5 = 30 of 60 -> 50
    assert card.total == 50
    assert (card.label, card.label_color) == ("Limited", "orange")
    assert card.tier1 == assay_scorecard.TierResult(
        63, "Limited", "orange"
    )  # 25/40 = 62.5 -> 63 (halves up)
    assert card.tier2 == assay_scorecard.TierResult(25, "Thin", "red")
    assert card.meta.weights == {"a": 30, "b": 10, "c": 20}
    assert card.meta.active_dimensions == ("a", "b", "c")


def test_custom_weight_changes_contribution_not_raw() -> None:
    card = scorer(Fixed("a", 15, 30), Fixed("b", 10, 10), config={"weights": {"a": 90}}).compute(
        INPUTS
    )
    assert card.dimensions["a"].raw == 15
    assert card.meta.raw_total == 55 and card.meta.max_possible == 100
    assert card.total == 55


def test_policy_thresholds_are_configurable() -> None:
    config = {"actionPolicy": {"answerAt": 90, "reviewAt": 50, "abstainBelow": 20}}
    card = scorer(Fixed("a", 8, 10), config=config).compute(INPUTS)
    assert (card.total, card.recommended_action, card.action_rule) == (80, "review", "review-at")
    assert card.action_reason == "Score 80 meets reviewAt threshold (50)."


@pytest.mark.filterwarnings("ignore::assay_scorecard.field_checks.FieldWarning")
def test_numeric_string_threshold_compares_as_its_number_in_warn_mode() -> None:
    # JavaScript compares 80 >= "75" as numbers and writes the string into the reason as given;
    # strict mode refuses the string (see test_field_checks)
    config = {"actionPolicy": {"answerAt": "75", "reviewAt": " 50 "}}
    card = scorer(Fixed("a", 8, 10), config=config).compute(INPUTS)
    assert (card.recommended_action, card.action_rule) == ("answer", "answer-at")
    assert card.action_reason == "Score 80 meets answerAt threshold (75)."
    card = scorer(Fixed("a", 6, 10), config={"actionPolicy": {"reviewAt": " 50 "}}).compute(INPUTS)
    assert card.action_reason == "Score 60 meets reviewAt threshold ( 50 )."


def test_invalid_weight_is_a_config_error_with_path() -> None:
    with pytest.raises(assay.AssayError) as caught:
        scorer(Fixed("a", 1, 1), config={"weights": {"a": -1}})
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", "weights.a")


def test_empty_composition_is_refused() -> None:
    with pytest.raises(assay.AssayError) as caught:
        scorer()
    assert caught.value.code == "INVALID_CONFIG"


def test_duplicate_dimension_in_composition_is_refused() -> None:
    with pytest.raises(assay.AssayError):
        scorer(Fixed("a", 1, 1), Fixed("a", 1, 1))


def test_structurally_broken_inputs() -> None:
    s = scorer(Fixed("a", 1, 1))
    for bad, path in (
        ({"supportLevel": "high"}, "candidates"),
        ({"candidates": [1]}, "candidates[0]"),
        ({"candidates": [{"combinedScore": 1}]}, "candidates[0].retrievalScores"),
    ):
        with pytest.raises(assay.AssayError) as caught:
            s.compute(bad)
        assert (caught.value.code, caught.value.path) == ("MALFORMED_INPUT", path)
    with pytest.raises(assay.AssayError) as caught:
        s.compute([])  # type: ignore[arg-type]
    assert caught.value.code == "MALFORMED_INPUT"


def test_compute_many_is_lazy() -> None:
    s = scorer(Fixed("a", 1, 2))
    stream = s.compute_many(iter([INPUTS, INPUTS]))
    assert next(stream).total == 50
    assert len(list(stream)) == 1


def test_check_dimension_helper_accepts_a_correct_dimension() -> None:
    assay.testing.check_dimension(Fixed("a", 1, 2), INPUTS)


def test_default_policy_rule_cascade() -> None:
    policy = assay_scorecard.ThresholdActionPolicy()
    evidence = assay_scorecard.ScorecardEvidence
    cases = [
        (evidence(100, 100, [], documents_silent=True), "abstain", "documents-silent"),
        (evidence(100, 100, [], abstain_missing=["x"]), "abstain", "abstain-when-missing"),
        (evidence(100, 100, ["documents-silent"]), "abstain", "abstain-on-warning"),
        (evidence(39, 100, []), "abstain", "abstain-below"),
        (evidence(70, 39, []), "review", "tier1-floor"),
        (evidence(70, 70, [], review_missing=["y"]), "review", "review-when-missing"),
        (evidence(70, 70, ["missing-conflict-signal"]), "review", "review-on-warning"),
        (evidence(65, 70, []), "answer", "answer-at"),
        (evidence(40, 70, []), "review", "review-at"),
    ]
    for ev, action, rule in cases:
        decision = assay.testing.check_policy(policy, ev)
        assert (decision.action, decision.rule) == (action, rule), ev
    lenient = policy.configure({"abstainBelow": 10, "reviewAt": 50})
    below = lenient.decide(evidence(45, 70, []))
    assert (below.action, below.rule) == ("abstain", "below-review-at")
    assert below.reason == "Score 45 is below reviewAt threshold (50) — abstaining."


class Sectioned(Fixed):
    """Active when its config section is present; counts how often it is asked."""

    config_activated = True

    def __init__(self, name: str) -> None:
        super().__init__(name, 5, 10)
        self.asked = 0

    def is_active(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> bool:
        self.asked += 1
        return self.name in config


def test_config_activated_dimension_is_asked_once_per_scorer() -> None:
    on, off = Sectioned("on"), Sectioned("off")
    built = scorer(Fixed("a", 10, 10), on, off, config={"on": {}})
    assert (on.asked, off.asked) == (1, 1)
    for _ in range(3):
        card = built.compute(INPUTS)
    assert (on.asked, off.asked) == (1, 1)
    assert card.meta.active_dimensions == ("a", "on")


def test_dimension_without_the_flag_is_asked_for_every_answer() -> None:
    class PerAnswer(Sectioned):
        config_activated = False

    dimension = PerAnswer("on")
    built = scorer(Fixed("a", 10, 10), dimension, config={"on": {}})
    for _ in range(3):
        built.compute(INPUTS)
    assert dimension.asked == 3


@pytest.mark.parametrize("dimensions", [False, 3, "grounding", {"grounding": 1}])
def test_dimensions_that_are_not_a_list_are_refused_with_a_path(dimensions: Any) -> None:
    # dimensions=False used to escape as TypeError ('bool' object is not iterable); a string
    # would have been split into one-letter names
    with pytest.raises(assay.AssayError) as caught:
        assay_scorecard.create_scorer({}, dimensions=dimensions, registry=scorecard_registry())
    assert (caught.value.code, caught.value.path) == ("INVALID_PLUGIN_OBJECT", "dimensions")


@pytest.mark.parametrize(
    "signal_policy",
    [
        {"require": ["citationCount", 1.5]},  # rendered: TypeError in render_text's join
        {"require": "citationCount"},  # read letter by letter: 'c', 'i', 't', ...
        {"reviewWhenMissing": [None]},
        {"abstainWhenMissing": {"citationCount": True}},
        {"require": False},
    ],
)
def test_signal_names_must_be_an_array_of_strings(signal_policy: dict[str, Any]) -> None:
    with pytest.raises(assay.AssayError) as caught:
        scorer(Fixed("a", 1, 1), config={"signalPolicy": signal_policy})
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", "signalPolicy")
    good = {"signalPolicy": {"require": ["citationCount"], "reviewWhenMissing": None}}
    card = scorer(Fixed("a", 1, 1), config=good).compute(INPUTS)
    assert "citationCount" in assay_scorecard.render_text(card)
