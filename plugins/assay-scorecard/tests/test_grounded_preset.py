"""Preset grounded-v1 and the signal policy's support floors, with dimensions of the test's own."""

from __future__ import annotations

from typing import Any

import pytest

import assay
import assay_scorecard
import assay_scorecard.plugin
from assay_scorecard.signal_policy import effective_support

CANDIDATE = {"retrievalScores": {"a": 0.9}, "combinedScore": 0.9}


class Full(assay.Dimension):
    """Always full points: whatever the action is, it is not the total's doing."""

    name = "grounding"
    tier = 1
    max_points = 30.0
    default_weight = 30.0

    def score(self, inputs: Any, config: Any) -> assay.DimensionScore:
        return assay.dimension_score(raw=30, max_points=30, explanation="full")


def card(preset: str, **signals: Any) -> assay_scorecard.Scorecard:
    registry = assay.build_registry(
        load_entry_points=False, extra_plugins={"scorecard": assay_scorecard.plugin}
    )
    registry.register(Full())
    inputs = {"supportLevel": "high", "hasConflict": False, "candidates": [CANDIDATE], **signals}
    return assay_scorecard.create_scorer({"preset": preset}, registry=registry).compute(inputs)


@pytest.mark.parametrize(
    ("signals", "action", "rule", "warning"),
    [
        ({"faithfulnessScore": 0.0}, "abstain", "abstain-on-warning", "unsupported-answer"),
        ({"faithfulnessScore": 0.49}, "abstain", "abstain-on-warning", "unsupported-answer"),
        ({"faithfulnessScore": 0.5}, "review", "review-on-warning", "low-support"),
        ({"faithfulnessScore": 0.89}, "review", "review-on-warning", "low-support"),
        ({"faithfulnessScore": 0.9}, "answer", "answer-at", None),
        (
            {"claimSupport": {"totalClaims": 3, "supportedClaims": 1}},
            "abstain",
            "abstain-on-warning",
            "unsupported-answer",
        ),
        # the lower of the two decides
        (
            {"faithfulnessScore": 1.0, "claimSupport": {"totalClaims": 4, "supportedClaims": 3}},
            "review",
            "review-on-warning",
            "low-support",
        ),
        ({}, "review", "review-when-missing", None),
        # a support signal that cannot be read is not support (low-support), and out of range
        ({"faithfulnessScore": "high"}, "review", "review-on-warning", "input-out-of-range"),
    ],
)
def test_grounded_never_answers_an_unsupported_answer(
    signals: dict[str, Any], action: str, rule: str, warning: str | None
) -> None:
    scored = card("grounded-v1", **signals)
    assert scored.total == 100  # the total would answer; the support floor decides
    assert (scored.recommended_action, scored.action_rule) == (action, rule)
    if warning:
        assert warning in scored.action_reason
        assert warning in {w.code for w in scored.meta.warnings}


def test_the_floor_warning_names_the_signal_and_the_numbers() -> None:
    scored = card(
        "grounded-v1", faithfulnessScore=1.0, claimSupport={"totalClaims": 3, "supportedClaims": 1}
    )
    (unsupported,) = [w for w in scored.meta.warnings if w.code == "unsupported-answer"]
    assert unsupported.path == "claimSupport"
    assert unsupported.message == (
        "Effective support score 0.33 is below unsupportedBelow (0.5): the sources do not "
        "support this answer."
    )
    assert scored.action_reason == "Warning 'unsupported-answer' matched abstainOnWarnings policy."


@pytest.mark.parametrize(
    ("signals", "path"),
    [
        ({"hasConflict": True}, "hasConflict"),
        ({"hasConflict": False, "conflictingCandidateCount": 2}, "conflictingCandidateCount"),
    ],
)
def test_grounded_reviews_a_supported_answer_when_the_sources_contradict_each_other(
    signals: dict[str, Any], path: str
) -> None:
    scored = card("grounded-v1", faithfulnessScore=1.0, **signals)
    assert scored.total == 100
    assert (scored.recommended_action, scored.action_rule) == ("review", "review-on-warning")
    assert scored.action_reason == (
        "Warning 'conflicting-sources' matched reviewOnWarnings policy."
    )
    (conflict,) = [w for w in scored.meta.warnings if w.code == "conflicting-sources"]
    assert conflict.path == path
    # an unsupported answer still abstains: the abstain rules come first
    refused = card("grounded-v1", faithfulnessScore=0.0, **signals)
    assert (refused.recommended_action, refused.action_rule) == ("abstain", "abstain-on-warning")
    # no conflict, no warning
    calm = card("grounded-v1", faithfulnessScore=1.0, conflictingCandidateCount=0)
    assert "conflicting-sources" not in {w.code for w in calm.meta.warnings}
    assert calm.recommended_action == "answer"
    for preset in ("balanced-v0.3", "legacy-v0.2"):  # transparent-confidence 0.3: unchanged
        other = card(preset, faithfulnessScore=1.0, **signals)
        assert "conflicting-sources" not in {w.code for w in other.meta.warnings}


@pytest.mark.parametrize("preset", ["balanced-v0.3", "legacy-v0.2", "production-v0.3"])
def test_the_other_presets_keep_their_actions(preset: str) -> None:
    scored = card(preset, faithfulnessScore=0.0, answerRelevanceScore=0.95)
    assert (scored.recommended_action, scored.action_rule) == ("answer", "answer-at")
    assert not {"low-support", "unsupported-answer"} & {w.code for w in scored.meta.warnings}


def test_support_floors_are_signal_policy_settings_of_any_preset() -> None:
    registry = assay.build_registry(
        load_entry_points=False, extra_plugins={"scorecard": assay_scorecard.plugin}
    )
    registry.register(Full())
    config = {
        "signalPolicy": {"minSupportScore": 0.8},
        "actionPolicy": {"reviewOnWarnings": ["low-support"]},
    }
    scorer = assay_scorecard.create_scorer(config, registry=registry)
    inputs = {"supportLevel": "high", "hasConflict": False, "candidates": [CANDIDATE]}
    assert scorer.compute({**inputs, "faithfulnessScore": 0.7}).recommended_action == "review"
    assert scorer.compute({**inputs, "faithfulnessScore": 0.8}).recommended_action == "answer"


@pytest.mark.parametrize("value", [1.5, -0.1, "0.5", True, float("nan")])
def test_a_support_floor_must_be_a_number_in_the_unit_range(value: Any) -> None:
    registry = assay.build_registry(
        load_entry_points=False, extra_plugins={"scorecard": assay_scorecard.plugin}
    )
    registry.register(Full())
    with pytest.raises(assay.AssayError) as caught:
        assay_scorecard.create_scorer(
            {"signalPolicy": {"unsupportedBelow": value}}, registry=registry
        )
    assert (caught.value.code, caught.value.path) == (
        "INVALID_CONFIG",
        "signalPolicy.unsupportedBelow",
    )


def test_effective_support_is_the_lower_signal() -> None:
    support = effective_support
    assert support({}) is None
    assert support({"faithfulnessScore": 0.4}) == (0.4, "faithfulnessScore")
    assert support(
        {"faithfulnessScore": 0.9, "claimSupport": {"totalClaims": 2, "supportedClaims": 1}}
    ) == (0.5, "claimSupport")
    assert support({"claimSupport": {"totalClaims": 0, "supportedClaims": 0}}) == (
        None,
        "claimSupport",
    )


@pytest.mark.parametrize(
    ("preset", "message"),
    [
        ("grounded-v1", "Preset grounded-v1 requires faithfulnessScore or claimSupport."),
        # transparent-confidence 0.3's own text for its production preset
        ("production-v0.3", "Production preset requires faithfulnessScore or claimSupport."),
    ],
)
def test_the_missing_support_warning_names_the_preset_in_use(preset: str, message: str) -> None:
    warnings = [w for w in card(preset).meta.warnings if w.code == "required-signal-missing"]
    assert [(w.path, w.message) for w in warnings if w.path == "faithfulnessScore"] == [
        ("faithfulnessScore", message)
    ]


def test_a_score_outside_0_to_1_is_reviewed_under_grounded_and_shown_under_the_decision() -> None:
    raw_bm25 = {"retrievalScores": {"dense": 0.82, "bm25": 14.7}, "combinedScore": 7.76}
    grounded = card("grounded-v1", candidates=[raw_bm25], faithfulnessScore=1.0)
    assert (grounded.recommended_action, grounded.action_rule) == ("review", "review-on-warning")
    assert "input-out-of-range" in grounded.action_reason
    lines = assay_scorecard.render_text(grounded).splitlines()
    assert lines[3] == (
        "  ! out of range, scored as given: candidates[0].combinedScore, "
        "candidates[0].retrievalScores.bm25 (scores are read as 0..1; normalise retrieval "
        "scores such as BM25 first)"
    )
    # the presets of transparent-confidence 0.3 score it as given, as before
    unreadable = card("grounded-v1", faithfulnessScore="high")
    assert {"low-support", "input-out-of-range"} <= {w.code for w in unreadable.meta.warnings}
    balanced = card("balanced-v0.3", candidates=[raw_bm25], faithfulnessScore=1.0)
    assert balanced.recommended_action == "answer"
    assert "! out of range" in assay_scorecard.render_text(balanced)
