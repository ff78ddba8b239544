"""Hand-computed cases for every rule of the source authority dimension (RULES.md section 7)."""

from __future__ import annotations

from typing import Any

import pytest

import assay
from assay.testing import check_dimension
from assay_authority import DEFAULT_TIERS, AuthorityDimension, rank_points

HOA_TIERS = [
    {"name": "CC&Rs", "rank": 10, "keywords": ["CC&Rs", "Declaration"]},
    {"name": "Bylaws", "rank": 15, "keywords": ["Bylaws"]},
    {"name": "Rules", "rank": 20, "keywords": ["Rules", "Policy"]},
    {"name": "Board Notes", "rank": 30, "keywords": ["Minutes"]},
]
DIM = AuthorityDimension()


def cand(score: float, **fields: Any) -> dict[str, Any]:
    return {"retrievalScores": {"a": score, "b": score}, "combinedScore": score, **fields}


def score(candidates: list[dict[str, Any]], **section: Any) -> assay.DimensionScore:
    return DIM.score({"supportLevel": "high", "candidates": candidates}, {"authority": section})


def test_registers_through_its_entry_point() -> None:
    registry = assay.build_registry()
    assert isinstance(registry.get("dimension", "authority"), AuthorityDimension)


def test_contract_attributes_and_activation() -> None:
    assert (DIM.name, DIM.tier, DIM.max_points, DIM.default_weight) == ("authority", 1, 20, 20)
    assert DIM.extension is True
    assert DIM.is_active({}, {"authority": {}})
    assert not DIM.is_active({}, {"corpus": {}})
    check_dimension(DIM, {"candidates": [cand(0.9, authorityRank=10)]}, {"authority": {}})


@pytest.mark.parametrize(
    ("rank", "points"),
    [(0, 18), (10, 18), (10.5, 13), (20, 13), (30, 7), (30.5, 2), (99, 2), (float("nan"), 2)],
)
def test_rank_points_table(rank: float, points: int) -> None:
    assert rank_points(rank) == points


def test_default_tiers_have_no_keywords_so_types_stay_unclassified() -> None:
    assert all("keywords" not in tier for tier in DEFAULT_TIERS)
    result = score([cand(0.9, documentType="Primary"), cand(0.8, documentType="CC&Rs")])
    # both rank 99 -> 2 points each -> weighted 2
    assert result.breakdown.components == {"weightedAuthority": 2, "bonuses": 0}
    assert result.breakdown.diagnostics["unclassifiedCount"] == 2
    (warning,) = result.warnings or ()
    assert (warning.code, warning.path) == ("authority-unclassified", "candidates[].authorityRank")
    assert warning.message.startswith("2 of 2 included candidate(s)")


def test_keywords_match_case_insensitive_substrings_first_tier_wins() -> None:
    tiers = [
        {"name": "Anything", "rank": 25, "keywords": ["e"]},
        {"name": "Primary", "rank": 5, "keywords": ["CC&Rs"]},
    ]
    # "Declaration of CC&Rs" contains "e" -> the first tier (rank 25, 7 points) wins.
    assert score([cand(0.9, documentType="Declaration of CC&Rs")], tiers=tiers).raw == 7
    # "x MINUTES y" matches the "Minutes" keyword of the 30 tier -> 7 points.
    assert score([cand(0.9, documentType="x MINUTES y")], tiers=HOA_TIERS).raw == 7
    # no keyword matches -> 99 -> 2 points
    assert score([cand(0.9, documentType="Newsletter")], tiers=HOA_TIERS).raw == 2


def test_explicit_rank_overrides_keywords_and_null_reads_as_zero() -> None:
    assert score([cand(0.9, documentType="CC&Rs", authorityRank=30)], tiers=HOA_TIERS).raw == 7
    assert score([cand(0.9, authorityRank=None)]).raw == 18
    # an explicit 99 counts as unclassified, 100 does not
    result = score([cand(0.9, authorityRank=99), cand(0.8, authorityRank=100)])
    assert result.breakdown.diagnostics["unclassifiedCount"] == 1


def test_weighted_aggregation_uses_score_shares_and_rounds_half_up() -> None:
    # equal scores: 0.5 * 18 + 0.5 * 7 = 12.5 -> 13, plus 1 for two buckets
    result = score([cand(0.8, authorityRank=10), cand(0.8, authorityRank=30)])
    assert result.breakdown.components == {"weightedAuthority": 13, "bonuses": 1}
    assert result.raw == 14 and result.normalized == 70
    # 0.9 / 1.2 * 18 + 0.3 / 1.2 * 2 = 13.5 + 0.5 = 14, plus 1
    assert score([cand(0.9, authorityRank=10), cand(0.3, authorityRank=31)]).raw == 15


def test_weighted_falls_back_to_uniform_weights_when_scores_sum_to_zero() -> None:
    # (18 + 13 + 2) / 3 = 11 -> 11, plus 1 for several buckets
    zero = [cand(0.0, authorityRank=10), cand(0.0, authorityRank=20), cand(0.0, authorityRank=31)]
    assert score(zero).breakdown.components["weightedAuthority"] == 11


def test_best_aggregation_scores_the_most_authoritative_included_source() -> None:
    candidates = [cand(0.9, authorityRank=30), cand(0.5, authorityRank=12), cand(0.4)]
    result = score(candidates, aggregation="best")
    assert result.breakdown.components == {"weightedAuthority": 13, "bonuses": 1}
    assert result.breakdown.diagnostics["aggregation"] == "best"
    # an unknown aggregation is echoed and behaves as weighted (not validated by the reference)
    other = score(candidates, aggregation="mean")
    assert other.breakdown.diagnostics["aggregation"] == "mean"
    assert other.breakdown.components["weightedAuthority"] == 8  # (0.9*7+0.5*13+0.4*2)/1.8


def test_top_k_takes_the_best_scored_candidates_not_the_first_given() -> None:
    candidates = [cand(0.5, authorityRank=10), cand(0.9, authorityRank=30)]
    result = score(candidates, topK=1)
    assert result.raw == 7
    assert result.breakdown.diagnostics["includedCount"] == 1


def test_top_k_behaves_as_a_javascript_slice_end() -> None:
    candidates = [cand(0.9, authorityRank=30), cand(0.8, authorityRank=10, isAmendment=True)]
    zero = score(candidates, topK=0)
    assert zero.raw == 0 and zero.breakdown.diagnostics["includedCount"] == 0
    assert "All included candidates are unclassified" in zero.explanation
    assert score(candidates, topK=0, aggregation="best").raw == 2  # min of nothing -> 2 points
    # -1 drops the last candidate: only the rank-30 one is left
    assert score(candidates, topK=-1).raw == 7


def test_amendment_bonus_needs_an_included_candidate_with_is_amendment_true() -> None:
    base = [cand(0.9, authorityRank=10)]
    assert score([*base, cand(0.8, authorityRank=10, isAmendment=True)]).raw == 19
    assert score([*base, cand(0.8, authorityRank=10, isAmendment="yes")]).raw == 18
    assert score([*base, cand(0.8, authorityRank=10, isAmendment=True)], topK=1).raw == 18


def test_multi_bucket_bonus_and_unique_tier_count() -> None:
    same = score([cand(0.9, authorityRank=10), cand(0.8, authorityRank=5)])
    assert same.breakdown.components["bonuses"] == 0
    assert same.breakdown.diagnostics["uniqueTierCount"] == 1
    mixed = score([cand(0.6, authorityRank=r) for r in (10, 10.5, 20, 30, 30.5)])
    assert mixed.breakdown.diagnostics["uniqueTierCount"] == 4


def test_cap_at_20_is_recorded_as_an_adjustment() -> None:
    # a negative score inflates the other weight: 0.9/0.7*18 - 0.2/0.7*2 = 22.57 -> 23 (+1)
    result = score([cand(0.9, authorityRank=10), cand(-0.2, authorityRank=31)])
    assert result.raw == 20
    assert result.breakdown.uncapped_raw == 24
    assert result.breakdown.adjustments == {"cap": -4}


def test_no_candidates() -> None:
    result = score([], topK=2)
    assert result.raw == 0
    assert result.breakdown.components == {"weightedAuthority": 0}
    assert result.breakdown.diagnostics == {"candidateCount": 0, "unclassifiedCount": 0, "topK": 2}
    assert result.warnings == ()


def test_explanation_names_the_aggregation_and_bonuses() -> None:
    result = score(
        [cand(0.9, authorityRank=30), cand(0.8, documentType="CC&Rs", isAmendment=True)],
        tiers=HOA_TIERS,
    )
    assert result.explanation == (
        "Weighted authority across 2 candidate(s): 12.18 → 12 pts. Amendment sections included "
        "— amended version controls over original language (+1). Multiple authority tiers "
        "consulted (+1)."
    )


@pytest.mark.parametrize(
    ("section", "path"),
    [
        ([], "authority"),
        ({"tiers": "CC&Rs"}, "authority.tiers"),
        ({"tiers": [{"name": "x"}]}, "authority.tiers[0].rank"),
        ({"tiers": [{"name": "x", "rank": 1, "keywords": "CC&Rs"}]}, "authority.tiers[0].keywords"),
        ({"topK": "5"}, "authority.topK"),
    ],
)
def test_structurally_broken_config_is_rejected(section: Any, path: str) -> None:
    with pytest.raises(assay.AssayError) as raised:
        DIM.validate_config({"authority": section})
    assert (raised.value.code, raised.value.path) == ("INVALID_CONFIG", path)


def test_values_the_reference_does_not_validate_are_accepted() -> None:
    DIM.validate_config({"authority": {"aggregation": "mean", "topK": -1}})
    DIM.validate_config({"authority": {"tiers": [{"name": "NoKeywords", "rank": 10}]}})
    DIM.validate_config({})


def test_candidates_must_be_a_list() -> None:
    with pytest.raises(assay.AssayError) as raised:
        DIM.score({"candidates": None}, {"authority": {}})
    assert (raised.value.code, raised.value.path) == ("MALFORMED_INPUT", "candidates")
