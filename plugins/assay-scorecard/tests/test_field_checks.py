"""Unknown and misspelled fields: the known keys, the did-you-mean, the quick per-answer check,
the config check and how problems are reported (assay_scorecard.field_checks)."""

from __future__ import annotations

import json
import pickle
import types
from collections.abc import Mapping
from typing import Any

import pytest
from shared_data import shared_path

import assay
import assay.wire
import assay_scorecard
from assay_scorecard.field_checks import (
    SCORING_INPUT_FIELDS,
    SIGNAL_NAMES,
    FieldWarning,
    check_config_fields,
    input_field_check,
    input_field_problems,
    known_input_keys,
    report_field_problems,
    unknown_input_fields,
)
from assay_scorecard.input_checks import common_value_problems
from assay_scorecard.presets import DEFAULT_DIMENSIONS
from assay_scorecard.signals import closest_name


class Reader(assay.Dimension):
    """A dimension of the test's own that reads fields the JSON input format does not have."""

    name = "reader"
    tier = 1
    max_points = 10.0
    default_weight = 10.0
    reads = frozenset({"answerText", "candidates[].chunkText", "meta.source.url"})

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        return assay.dimension_score(raw=10, max_points=10, explanation="reads text")


KNOWN = known_input_keys([])
TOP = sorted(key for key in SCORING_INPUT_FIELDS if "." not in key and "[" not in key)
CANDIDATE = {"retrievalScores": {"dense": 0.9, "sparse": 0.8}, "combinedScore": 0.9}
CLEAN = {"supportLevel": "high", "hasConflict": False, "candidates": [CANDIDATE]}


def paths(problems: Any) -> list[tuple[str, str]]:
    return [(p.code, p.path) for p in problems]


# ------------------------------------------------------------------ did you mean
@pytest.mark.parametrize(
    ("name", "meant"),
    [
        ("support_level", "supportLevel"),  # snake_case
        ("support-level", "supportLevel"),  # kebab-case
        ("SupportLevel", "supportLevel"),  # another case
        ("suportLevel", "supportLevel"),  # a letter dropped
        ("faithfulness_score", "faithfulnessScore"),
        ("confidenceLevel", None),  # another word sharing a suffix
        ("somethingNew", None),
    ],
)
def test_closest_name_of_an_input_field(name: str, meant: str | None) -> None:
    assert closest_name(name, TOP) == meant


def test_closest_name_of_a_value_and_ties() -> None:
    assert closest_name("High", {"high", "medium", "low"}) == "high"
    assert closest_name("multihop", {"direct", "multi-hop"}) == "multi-hop"
    assert closest_name("certain", {"high", "medium", "low"}) is None
    # equally close (0.75 each): the first in sort order, whatever the order given
    assert closest_name("abcd", ["abcf", "abce"]) == closest_name("abcd", ["abce", "abcf"])
    assert closest_name("abcd", ["abcf", "abce"]) == "abce"


@pytest.mark.parametrize("name", ["hasConflict", "citationCount", "rank", "topK"])
def test_one_letter_dropped_added_or_swapped_is_recognised(name: str) -> None:
    """What SIMILAR_ENOUGH promises for names of four or more letters."""
    known = [*TOP, name]
    variants = {name[:i] + name[i + 1 :] for i in range(len(name))}  # dropped
    variants |= {name[:i] + "x" + name[i:] for i in range(len(name) + 1)}  # added
    variants |= {name[:i] + name[i + 1] + name[i] + name[i + 2 :] for i in range(len(name) - 1)}
    for variant in variants - {name}:
        assert closest_name(variant, known) == name, variant


# ------------------------------------------------------------------ known input keys
def test_known_input_keys_are_the_input_format_and_the_dimensions_reads() -> None:
    assert {
        "supportLevel",
        "candidates",
        "candidates[].documentId",
        "candidates[].lastUpdated",
        "claimSupport.totalClaims",
        "indexIntegrity.aclFilterConfirmed",
    } <= KNOWN
    assert not any(key.startswith("candidates.") for key in KNOWN)  # items, not members
    assert known_input_keys([Reader()]) == KNOWN | Reader.reads


def test_unknown_input_fields_top_level_nested_and_items() -> None:
    data = {
        "support_level": "high",
        "candidates": [CANDIDATE, {**CANDIDATE, "documnetId": "d-1"}],
        "claimSupport": {"total_claims": 3, "supportedClaims": 2},
        "indexIntegrity": {"aclFilter": True},
        "somethingNew": 1,
    }
    found = unknown_input_fields(data, KNOWN)
    assert paths(found) == [
        ("unknown-field", "support_level"),
        ("unknown-field", "candidates[1].documnetId"),
        ("unknown-field", "claimSupport.total_claims"),
        ("unknown-field", "indexIntegrity.aclFilter"),
        ("unknown-field", "somethingNew"),
    ]
    messages = [p.message for p in found]
    assert messages[0] == "unknown input field; did you mean 'supportLevel'?"
    assert messages[1].endswith("did you mean 'documentId'?")
    assert messages[2].endswith("did you mean 'totalClaims'?")
    assert messages[4] == (
        "unknown input field: not in the JSON input format, and no dimension of this scorer "
        "reads it"
    )


def test_method_names_are_free_and_a_dimensions_reads_are_known() -> None:
    data = {
        **CLEAN,
        "candidates": [{**CANDIDATE, "retrievalScores": {"anything": 0.5}, "chunkText": "t"}],
        "answerText": "an answer",
        "meta": {"source": {"url": "u", "urk": "v"}},
    }
    known = known_input_keys([Reader()])
    assert paths(unknown_input_fields(data, known)) == [("unknown-field", "meta.source.urk")]
    assert paths(unknown_input_fields(data, KNOWN)) == [
        ("unknown-field", "candidates[0].chunkText"),
        ("unknown-field", "answerText"),
        ("unknown-field", "meta"),
    ]


# ------------------------------------------------------------------ values
def test_common_value_problems_name_the_expected_value() -> None:
    data = {
        "supportLevel": "High",
        "hasConflict": "false",
        "queryComplexity": "multihop",
        "citationCount": True,
        "answerRelevanceScore": "0.9",
        "presentTypes": "statute",
        "indexIntegrity": [],
        "ambiguityNotes": None,  # a provided null is a value of every field
        "documentsSilent": False,
        "conflictingCandidateCount": 10**400,  # a number, however large (its range: elsewhere)
    }
    found = common_value_problems(data)
    assert [(p.path, p.message) for p in found] == [
        ("supportLevel", "'High' is not one of 'high', 'medium', 'low'; did you mean 'high'?"),
        ("hasConflict", "expected a boolean, got the string 'false'"),
        (
            "queryComplexity",
            "'multihop' is not one of 'direct', 'inferential', 'multi-hop', 'comparative'; "
            "did you mean 'multi-hop'?",
        ),
        ("citationCount", "expected a number, got the boolean true"),
        ("answerRelevanceScore", "expected a number, got the string '0.9'"),
        ("presentTypes", "expected an array, got the string 'statute'"),
        ("indexIntegrity", "expected an object, got an array"),
    ]
    assert {p.code for p in found} == {"invalid-value"}
    assert common_value_problems({"supportLevel": "certain"})[0].message == (
        "'certain' is not one of 'high', 'medium', 'low'"
    )
    long = common_value_problems({"documentsSilent": 10**400})[0].message
    assert long.startswith("expected a boolean, got the number 1000") and long.endswith("...")


def test_values_of_subclasses_and_other_mappings_are_accepted() -> None:
    class Level(str):
        pass

    data = {
        "supportLevel": Level("high"),
        "indexIntegrity": types.MappingProxyType({}),
        "citationCount": 2.0,
        "missingTypes": ("statute",),
    }
    assert common_value_problems(data) == []
    assert list(input_field_check(KNOWN)(data)) == []


# ------------------------------------------------------------------ the per-answer check
FIELD_CASES = [
    CLEAN,
    {**CLEAN, "support_level": "high"},
    {**CLEAN, "supportLevel": "High"},
    {**CLEAN, "supportLevel": ["high"]},  # unhashable where a choice is expected
    {**CLEAN, "hasConflict": "false"},
    {**CLEAN, "queryComplexity": "multi-hop", "citationCount": 3},
    {**CLEAN, "candidates": [CANDIDATE, {**CANDIDATE, "rnak": 2}]},
    {**CLEAN, "candidates": [CANDIDATE, 3]},  # no object: the walk skips it
    {**CLEAN, "candidates": []},
    {**CLEAN, "claimSupport": {"totalClaims": 2, "supportedClaims": 1}},
    {**CLEAN, "claimSupport": {"totalClaims": 2, "supported": 1}},
    {**CLEAN, "claimSupport": "all"},
    {**CLEAN, "indexIntegrity": {"failedIngestionCount": 0, "failed_ingestion_count": 1}},
    {**CLEAN, "documentsSilent": None, "ambiguityNotes": ""},
]


@pytest.mark.parametrize("data", FIELD_CASES)
def test_the_quick_check_agrees_with_the_full_one(data: dict[str, Any]) -> None:
    check = input_field_check(KNOWN)
    for _ in range(2):  # the second call finds the input's shape already seen
        assert list(check(data)) == input_field_problems(data, KNOWN)


def test_a_shape_already_seen_still_reads_the_values_with_choices() -> None:
    check = input_field_check(KNOWN)
    assert check(CLEAN) == ()
    same_shape = {**CLEAN, "supportLevel": "High"}
    assert paths(check(same_shape)) == [("invalid-value", "supportLevel")]
    assert check(CLEAN) == ()


def test_keys_nested_deeper_than_one_level_are_checked_too() -> None:
    check = input_field_check(known_input_keys([Reader()]))
    data = {**CLEAN, "meta": {"source": {"url": "u", "ulr": "v"}}}
    assert paths(check(data)) == [("unknown-field", "meta.source.ulr")]
    assert list(check({**CLEAN, "meta": {"source": {"url": "u"}}})) == []


# ------------------------------------------------------------------ config
DIMENSIONS = [types.SimpleNamespace(name=name) for name in ("grounding", "retrieval", "authority")]
DEFAULT_POLICY = assay_scorecard.ThresholdActionPolicy()
PRESETS = ["legacy-v0.2", "balanced-v0.3", "production-v0.3"]


def config_problems(config: Any, policy: Any = DEFAULT_POLICY) -> list[tuple[str, str, str]]:
    found = check_config_fields(config, dimensions=DIMENSIONS, policy=policy, presets=PRESETS)
    return [(p.code, p.path, p.message) for p in found]


def test_config_fields_each_section() -> None:
    config = {
        "preset": "Production-v0.3",
        "validation": "STRICT",
        "weights": {"retreival": 2, "bogus": 1, "grounding": 3},
        "actionPolicy": {"answer_at": 70, "reviewAt": "40", "abstainOnWarnings": ["x"]},
        "signalPolicy": {"require": ["faithfulness_score", "citationCount"], "floor": 1},
        "retrival": {},
        "somethingElse": {"a": 1},
        "authority": {"anything": "the dimension's to validate"},
    }
    assert config_problems(config) == [
        (
            "invalid-value",
            "preset",
            "'Production-v0.3' is not a registered preset, so 'balanced-v0.3' applies; did you "
            "mean 'production-v0.3'?",
        ),
        (
            "invalid-value",
            "validation",
            "'STRICT' is not one of 'warn', 'strict'; did you mean 'strict'?",
        ),
        ("unknown-field", "weights.retreival", "unknown dimension; did you mean 'retrieval'?"),
        (
            "unknown-field",
            "weights.bogus",
            "unknown dimension: this scorer's dimensions are grounding, retrieval, authority",
        ),
        (
            "unknown-field",
            "actionPolicy.answer_at",
            "unknown actionPolicy setting; did you mean 'answerAt'?",
        ),
        ("invalid-value", "actionPolicy.reviewAt", "expected a number, got the string '40'"),
        (
            "unknown-field",
            "signalPolicy.floor",
            "unknown signalPolicy setting: the scorer does not read it",
        ),
        (
            "invalid-value",
            "signalPolicy.require[0]",
            "'faithfulness_score' is not a signal name (an unknown name counts as missing "
            "while inputs.indexIntegrity is absent); did you mean 'faithfulnessScore'?",
        ),
        ("unknown-field", "retrival", "unknown config field; did you mean 'retrieval'?"),
        (
            "unknown-field",
            "somethingElse",
            "unknown config field: neither a scorer setting nor the section of one of this "
            "scorer's dimensions (grounding, retrieval, authority)",
        ),
    ]


def test_config_fields_left_to_others() -> None:
    # another policy reads its own settings; without preset names the preset is not checked
    assert config_problems({"actionPolicy": {"anything": 1}}, policy=object()) == []
    assert check_config_fields({"preset": "v9"}, dimensions=DIMENSIONS) == []
    # a qualified preset name, a provided null, a config that is not an object
    assert config_problems({"preset": "scorecard/production-v0.3", "validation": None}) == []
    assert config_problems([("preset", "x")]) == []
    assert {"conflictSignal", "freshnessDates", "indexIntegrity"} <= SIGNAL_NAMES


def test_the_typed_configs_settings_are_known() -> None:
    typed = assay_scorecard.ScoringConfig(
        preset="production-v0.3",
        weights={"grounding": 2},
        action_policy=assay_scorecard.ActionPolicyConfig(answer_at=70, review_on_warnings=["x"]),
        signal_policy=assay_scorecard.SignalPolicyConfig(
            require=["conflictSignal"], min_citation_coverage_score=0.5
        ),
        validation="strict",
        sections={"retrieval": {"topK": 5}},
    )
    assert config_problems(assay_scorecard.scoring_config_to_wire(typed)) == []


# ------------------------------------------------------------------ reporting
PROBLEM = assay.ScoreWarning(
    "unknown-field", "warn", "unknown input field; did you mean 'supportLevel'?", "support_level"
)


def test_strict_raises_the_first_problem() -> None:
    with pytest.raises(assay.AssayError) as caught:
        report_field_problems([PROBLEM, PROBLEM], strict=True, code="INVALID_INPUT")
    assert (caught.value.code, caught.value.path) == ("INVALID_INPUT", "support_level")
    assert str(caught.value) == "support_level: unknown input field; did you mean 'supportLevel'?"


def test_otherwise_each_problem_is_a_field_warning() -> None:
    config_problem = assay.ScoreWarning("invalid-value", "warn", "expected a number", "x.y")
    with pytest.warns(FieldWarning) as caught:
        report_field_problems([PROBLEM], strict=False, code="INVALID_INPUT")
        report_field_problems([config_problem], strict=False, code="INVALID_CONFIG")
    assert [w.message.warning for w in caught] == [PROBLEM, config_problem]  # type: ignore[union-attr]
    assert [w.filename for w in caught] == ["scoring inputs", "scoring config"]
    assert (
        str(caught[0].message) == "support_level: unknown input field; did you mean 'supportLevel'?"
    )
    copy = pickle.loads(pickle.dumps(caught[0].message))
    assert isinstance(copy, FieldWarning) and copy.warning == PROBLEM
    rebuilt = FieldWarning(*caught[0].message.args)  # how pytest-xdist relays a worker's warning
    assert str(rebuilt) == str(caught[0].message) and rebuilt.warning == PROBLEM
    report_field_problems([], strict=True, code="INVALID_INPUT")  # nothing to report


# ------------------------------------------------------------------ the conformance vectors
# (vectors in warn mode with unknown keys give FieldWarnings: what this test counts is elsewhere)
@pytest.mark.filterwarnings("ignore::assay_scorecard.field_checks.FieldWarning")
def test_no_vector_under_strict_validation_has_a_field_problem() -> None:
    """Where the problems live: in strict validation they raise, so no vector run strict may
    carry one (none does); vectors run in warn mode do carry some, and their expected
    ``meta.warnings`` lack them, so a warning there would break them: outside strict validation
    the problems are Python warnings, and the scorecard stays the reference's."""
    vectors = shared_path("conformance", "scorecard")
    registry = assay.default_registry()
    missing = [name for name in DEFAULT_DIMENSIONS if not registry.has("dimension", name)]
    if missing:
        pytest.skip(f"needs the dimensions {missing} (uv run --all-packages installs them)")
    presets = registry.names("preset")
    scorers: dict[str, Any] = {}
    in_warn_mode = []
    for name in ("cases.jsonl", "examples.jsonl"):
        for line in (vectors / name).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if "fn" in record:
                continue
            config = assay.wire.from_json_safe(record["config"])
            inputs = assay.wire.from_json_safe(record["inputs"])
            key = json.dumps(record["config"], sort_keys=True)
            if key not in scorers:
                try:
                    scorers[key] = assay_scorecard.create_scorer(config)
                except assay.AssayError:  # the reference rejects this config first
                    scorers[key] = None
            scorer = scorers[key]
            if scorer is None:
                continue
            found = check_config_fields(
                config, dimensions=scorer.dimensions, policy=scorer.policy, presets=presets
            )
            if isinstance(inputs, dict) and isinstance(inputs.get("candidates"), list):
                found += input_field_problems(inputs, known_input_keys(scorer.dimensions))
            if not found:
                continue
            assert config.get("validation") != "strict", (record["id"], paths(found))
            expected = record["expected"].get("meta", {}).get("warnings", [])
            assert not {w["code"] for w in expected} & {"unknown-field", "invalid-value"}
            in_warn_mode.append(record["id"])
    assert "c-b-inv-unknown-extra-fields" in in_warn_mode  # somethingNew, somethingElse
    assert "c-b-inv-supportlevel-unknown" in in_warn_mode  # supportLevel "certain"
    assert len(in_warn_mode) == 13, in_warn_mode
