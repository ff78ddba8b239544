"""The one converter: attrs records <-> the camelCase JSON wire shape."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime

import pytest

import assay
import assay.wire
import assay_scorecard


def test_inputs_to_wire_is_camel_case_and_omits_unset_fields() -> None:
    inputs = assay_scorecard.ScoringInputs(
        support_level="high",
        has_conflict=False,
        claim_support=assay_scorecard.ClaimSupport(total_claims=4, supported_claims=3),
        candidates=[
            assay_scorecard.Candidate(
                retrieval_scores={"semantic": 0.9},
                combined_score=0.9,
                document_id="d1",
                last_updated=datetime(2026, 1, 2, tzinfo=UTC),
            )
        ],
        index_integrity=assay_scorecard.IndexIntegrityInputs(acl_filter_confirmed=True),
    )
    wire = assay_scorecard.scoring_inputs_to_wire(inputs)
    assert wire == {
        "supportLevel": "high",
        "candidates": [
            {
                "retrievalScores": {"semantic": 0.9},
                "combinedScore": 0.9,
                "documentId": "d1",
                "lastUpdated": "2026-01-02T00:00:00+00:00",
            }
        ],
        "hasConflict": False,
        "claimSupport": {"totalClaims": 4, "supportedClaims": 3},
        "indexIntegrity": {"aclFilterConfirmed": True},
    }
    assert assay_scorecard.scoring_inputs_from_wire(wire) == inputs


def test_inputs_from_wire_reports_unreadable_fields() -> None:
    with pytest.raises(assay.AssayError) as caught:
        assay_scorecard.scoring_inputs_from_wire({"supportLevel": "high"})
    assert caught.value.code == "MALFORMED_INPUT"
    assert caught.value.path == "candidates"
    assert "required field missing" in caught.value.message


def test_config_round_trip_flattens_sections() -> None:
    config = assay_scorecard.ScoringConfig(
        preset="production-v0.3",
        weights={"grounding": 50},
        action_policy=assay_scorecard.ActionPolicyConfig(answer_at=70, review_on_warnings=[]),
        signal_policy=assay_scorecard.SignalPolicyConfig(require=["citationCount"]),
        validation="strict",
        sections={"freshness": {"maxAgeForFullScore": 60}},
    )
    wire = assay_scorecard.scoring_config_to_wire(config)
    assert wire == {
        "preset": "production-v0.3",
        "weights": {"grounding": 50},
        "actionPolicy": {"answerAt": 70, "reviewOnWarnings": []},
        "signalPolicy": {"require": ["citationCount"]},
        "validation": "strict",
        "freshness": {"maxAgeForFullScore": 60},
    }
    assert assay_scorecard.scoring_config_from_wire(wire) == config


def test_json_safe_tags_non_finite_numbers_and_round_trips() -> None:
    value = {"a": math.nan, "b": [math.inf, -math.inf, 2.0, 2.5], "c": "x"}
    safe = assay.wire.to_json_safe(value)
    assert safe == {
        "a": {"$float": "NaN"},
        "b": [{"$float": "Infinity"}, {"$float": "-Infinity"}, 2, 2.5],
        "c": "x",
    }
    json.dumps(safe, allow_nan=False)
    back = assay.wire.from_json_safe(safe)
    assert math.isnan(back["a"]) and back["b"][:2] == [math.inf, -math.inf]
    assert assay.wire.to_json_safe({"a": math.nan}, nonfinite="null") == {"a": None}


def test_bad_config_type_is_an_error() -> None:
    with pytest.raises(assay.AssayError) as caught:
        assay_scorecard.scoring_config_to_wire(42)  # type: ignore[arg-type]
    assert caught.value.code == "INVALID_CONFIG"


def test_errors_survive_pickling_across_processes() -> None:
    import pickle

    error = assay.AssayError("INVALID_INPUT", "bad", "a.b", {"line": 3})
    back = pickle.loads(pickle.dumps(error))
    assert (back.code, back.message, back.path, back.details) == (
        "INVALID_INPUT",
        "bad",
        "a.b",
        {"line": 3},
    )
    assert str(back) == "a.b: bad"


def test_to_wire_handles_every_scorecard_record() -> None:
    warning = assay.ScoreWarning("missing-x", "warn", "x missing", "x")
    assert assay.wire.to_wire(warning) == {
        "code": "missing-x",
        "severity": "warn",
        "message": "x missing",
        "path": "x",
    }
    silent = assay.dimension_score(raw=1, max_points=2, explanation="e", warnings=None)
    assert "warnings" not in assay.wire.to_wire(silent)
    loud = assay.dimension_score(raw=1, max_points=2, explanation="e", warnings=[warning])
    assert assay.wire.to_wire(loud)["warnings"] == [assay.wire.to_wire(warning)]
    assert assay.wire.to_wire(loud)["breakdown"] == {
        "components": {},
        "adjustments": {},
        "diagnostics": {},
        "uncappedRaw": 1,
        "raw": 1,
    }


def test_eval_sample_refuses_a_bare_string_as_contexts() -> None:
    with pytest.raises(assay.AssayError) as caught:
        assay.EvalSample(question="q", answer="a", contexts="one passage")  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.path) == ("INVALID_INPUT", "contexts")
    assert assay.EvalSample(question="q", answer="a", contexts=["p"]).contexts == ("p",)


def test_metric_signal_carries_an_optional_stable_id() -> None:
    signal = assay.MetricSignal("warn", "low support", id="faithfulness-low-support-1")
    assert signal.id == "faithfulness-low-support-1"
    assert assay.MetricSignal("info", "x").id is None


def test_wire_to_json_is_compact_json_that_reads_back() -> None:
    from assay_scorecard.wire import wire_to_json

    wire = {"total": 74, "label": "Moderate", "nested": [0.5, {"x": "é"}], "none": None}
    text = wire_to_json(wire)
    assert "\n" not in text and ": " not in text
    assert json.loads(text) == wire
    assert "é" in text  # UTF-8, not \\u escapes


def test_wire_to_json_tags_non_finite_numbers_and_takes_big_integers() -> None:
    from assay_scorecard.wire import wire_to_json

    assert json.loads(wire_to_json({"a": [math.nan]})) == {"a": [{"$float": "NaN"}]}
    assert json.loads(wire_to_json({"a": -math.inf})) == {"a": {"$float": "-Infinity"}}
    assert json.loads(wire_to_json({"big": 2**70})) == {"big": 2**70}  # beyond orjson's range
    assert "\n" in wire_to_json({"a": 1}, indent=2)


def test_json_loads_accepts_what_the_json_module_accepts() -> None:
    from assay_scorecard.wire import json_loads

    assert json_loads('{"a": 1.5, "b": [true, null]}') == {"a": 1.5, "b": [True, None]}
    assert math.isnan(json_loads('{"a": NaN}')["a"])
    # an integer beyond 64 bits reads as the nearest double, as JavaScript's JSON.parse reads it
    assert json_loads('{"big": 123456789012345678901234567890}')["big"] == 1.2345678901234568e29
    with pytest.raises(json.JSONDecodeError):
        json_loads('{"a": ')
