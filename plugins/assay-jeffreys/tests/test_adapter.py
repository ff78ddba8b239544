"""The bayes_output_gate tool: description, schema, defensive handler, JSON-safe output."""

from __future__ import annotations

import json

import pytest

import assay
from assay_jeffreys import BAYES_OUTPUT_GATE_TOOL, describe_tool, run_tool, to_wire


@pytest.fixture
def wire_models(models):
    return [to_wire(m) for m in models]


def test_describe_tool_lists_name_description_and_schema():
    described = describe_tool()
    assert described["name"] == "bayes_output_gate"
    assert "Bayes factor" in described["description"]
    schema = described["inputSchema"]
    assert schema["type"] == "object" and schema["required"] == ["scores", "models"]
    assert set(schema["properties"]) == {"scores", "models", "policy"}
    json.dumps(schema)  # the schema itself is JSON


def test_handler_decides_with_the_default_policy(wire_models):
    result = BAYES_OUTPUT_GATE_TOOL.handler({"scores": {"factuality": 0.93}, "models": wire_models})
    assert result["action"] == "pass" and result["rationale"] == "bayes-factor"
    assert result["contributions"][0]["dimension"] == "factuality"


def test_handler_takes_a_decision_theoretic_policy(wire_models):
    result = BAYES_OUTPUT_GATE_TOOL.handler(
        {
            "scores": [{"dimension": "factuality", "value": 0.5}],
            "models": wire_models,
            "policy": {
                "kind": "decision-theoretic",
                "priorHighQuality": 0.5,
                "lossFalsePass": 10,
                "lossFalseFail": 1,
                "escalationCost": 0.5,
            },
        }
    )
    assert set(result["expectedLoss"]) == {"pass", "fail", "escalate"}
    assert 0 < result["posteriorHighQuality"] < 1


def test_non_finite_numbers_become_null(wire_models):
    huge = [{"dimension": "d", "high": {"a": 1e6, "b": 1}, "low": {"a": 1, "b": 1e6}}]
    result = run_tool({"scores": {"d": 0.999}, "models": huge})
    assert result["ok"] and result["result"]["bayesFactor"] is None
    assert result["result"]["logBayesFactor"] > 700
    json.dumps(result, allow_nan=False)


@pytest.mark.parametrize(
    ("arguments", "code", "path"),
    [
        ("decide", "INVALID_CONFIG", "input"),
        ({"scores": {"factuality": 0.5}}, "INVALID_CONFIG", "models"),
        ({"scores": {"factuality": 0.5}, "models": [], "extra": 1}, "INVALID_CONFIG", "input"),
        (
            {"scores": {"factuality": "high"}, "models": "WIRE"},
            "INVALID_SCORE",
            "scores.factuality",
        ),
        (
            {"scores": {"factuality": 0.5}, "models": [{"dimension": "x"}]},
            "INVALID_CONFIG",
            "models[0].high",
        ),
        (
            {"scores": {"factuality": 0.5}, "models": "WIRE", "policy": {"kind": "x"}},
            "INVALID_CONFIG",
            "policy.kind",
        ),
        ({"scores": {"tone": 0.5}, "models": "WIRE"}, "INVALID_DIMENSION", "scores"),
    ],
)
def test_bad_input_is_refused_with_code_and_path(wire_models, arguments, code, path):
    if isinstance(arguments, dict) and arguments.get("models") == "WIRE":
        arguments = {**arguments, "models": wire_models}
    with pytest.raises(assay.AssayError) as info:
        BAYES_OUTPUT_GATE_TOOL.handler(arguments)
    assert (info.value.code, info.value.path) == (code, path)
    assert run_tool(arguments) == {
        "ok": False,
        "error": {"code": code, "message": info.value.message, "path": path},
    }
