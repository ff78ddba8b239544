"""Hostile input to the gate: only AssayError escapes, run_tool never raises, the CLI prints
``error [CODE] path: message`` and exits 2 (reproducers of the hardening issue)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings

import assay
import assay_jeffreys as J
from assay import ExitCode
from assay.testing import hostile_json, mutated_json, only_assay_errors, plugin_cli
from assay_jeffreys import plugin
from assay_jeffreys.scores import models_from_wire

M = [{"dimension": "f", "high": {"a": 8, "b": 2}, "low": {"a": 2, "b": 8}}]
HUGE = 10**400


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: J.evaluate({"f": 0.5}, M, {"kind": {}}), "INVALID_CONFIG"),
        (lambda: J.evaluate({"f": 0.5}, M, {"kind": ["bayes-factor"]}), "INVALID_CONFIG"),
        (lambda: J.evaluate({"f": HUGE}, M, J.BayesFactorPolicy()), "INVALID_SCORE"),
        (
            lambda: J.evaluate(
                {"f": 0.5},
                [{"dimension": "f", "high": {"a": HUGE, "b": 2}, "low": {"a": 2, "b": 8}}],
                J.BayesFactorPolicy(),
            ),
            "INVALID_CONFIG",
        ),
        (lambda: J.BayesFactorPolicy(pass_above=HUGE), "INVALID_CONFIG"),
        (lambda: J.OutputGateMonitor(policy=J.BayesFactorPolicy()).fit(2.0), "INVALID_OBSERVATION"),
        (lambda: J.HypothesisManager().fit(2.0), "INVALID_OBSERVATION"),
        (lambda: J.OutputGate(M).evaluate_many(np.zeros((0, 1)), 3), "INVALID_DIMENSION"),
        (lambda: J.OutputGate(M).evaluate_many(np.zeros((0, 1)), [2.0]), "INVALID_DIMENSION"),
        (lambda: J.OutputGate(M).evaluate_many([["x"]], ["f"]), "INVALID_SCORE"),
        (lambda: J.binary_bayes_factor(0, models_from_wire(M)), "INVALID_OBSERVATION"),
        (
            lambda: J.binary_bayes_factor({"f": (7, 2**64 + 1)}, models_from_wire(M)),
            "INVALID_OBSERVATION",
        ),
        (lambda: J.HypothesisManager(dimensions=[3]), "INVALID_CONFIG"),
        (lambda: J.HypothesisManager(dimensions=3), "INVALID_CONFIG"),
        (lambda: J.HypothesisManager(dimensions=[{"weight": 1}]), "INVALID_DIMENSION"),
        (lambda: J.HypothesisManager(dimensions=[{"dimension": "f", "x": 1}]), "INVALID_CONFIG"),
        (
            lambda: J.HypothesisManager(dimensions=[{"dimension": "f", "priorHigh": {"a": -1}}]),
            "INVALID_CONFIG",
        ),
        (
            lambda: J.HypothesisManager(dimensions=[{"dimension": "f", "weight": HUGE}]),
            "INVALID_CONFIG",
        ),
    ],
)
def test_bad_input_raises_assay_error_with_code(call, code):
    with pytest.raises(assay.AssayError) as caught:
        call()
    assert caught.value.code == code


def test_hypothesis_manager_accepts_the_specification_dict_shape():
    manager = J.HypothesisManager(
        dimensions=[
            {"dimension": "factuality", "weight": 2, "priorHigh": {"a": 3, "b": 1}},
            {"dimension": "relevance", "priorLow": {"a": 1, "b": 4}},
        ]
    )
    assert manager.dimensions == ["factuality", "relevance"]
    models = {m.dimension: m for m in manager.models()}
    assert models["factuality"].weight == 2.0
    assert (models["factuality"].high.a, models["factuality"].high.b) == (3.0, 1.0)
    assert (models["relevance"].low.a, models["relevance"].low.b) == (1.0, 4.0)


@pytest.mark.parametrize(
    "arguments",
    [
        {"scores": {"f": 0.5}, "models": M, "policy": {"kind": []}},
        {"scores": {"f": 0.5}, "models": [{**M[0], "weight": HUGE}]},
        {"scores": {"f": HUGE}, "models": M},
        {"scores": {"f": 0.5}, "models": M, "policy": {"kind": "bayes-factor", "passAbove": HUGE}},
    ],
)
def test_run_tool_returns_a_coded_error(arguments):
    reply = J.run_tool(arguments)
    assert reply["ok"] is False
    assert reply["error"]["code"] in {"INVALID_CONFIG", "INVALID_SCORE"}


def test_run_tool_never_raises_even_when_the_handler_has_a_bug():
    def broken(arguments):
        raise KeyError("a bug")

    tool = J.adapter.Tool("broken", "d", {}, broken)
    reply = J.run_tool({}, tool)
    assert reply == {
        "ok": False,
        "error": {
            "code": "PLUGIN_ERROR",
            "message": "the tool failed on this input (KeyError)",
            "path": None,
        },
    }


def _run(*args: str, stdin: str | bytes | None = None):
    return CliRunner().invoke(plugin_cli(plugin), list(args), input=stdin)


@pytest.mark.parametrize("flag", ["-v", "--version"])
def test_gate_version_flags(flag):
    result = _run("gate", flag)
    assert result.exit_code == 0
    assert result.output.startswith("assay gate ")


def test_bayes_factor_with_no_models_is_a_usage_error(tmp_path):
    (tmp_path / "m.json").write_text("[]")
    (tmp_path / "s.json").write_text('[{"f": 0.5}]')
    result = _run("gate", "bayes-factor", str(tmp_path / "m.json"), str(tmp_path / "s.json"))
    assert result.exit_code == ExitCode.USAGE
    assert "error [INVALID_CONFIG]" in result.output
    assert "BF=" not in result.output


@pytest.mark.parametrize(
    "content",
    [
        b'[{"x": "\xff"}]',
        b"[" * 100_000 + b"]" * 100_000,
        b'[{"f": ' + b"1" * 5000 + b"}]",
        b'"a string"',
        b'{"f": 0.5}',
    ],
    ids=["invalid-utf8", "deep-nesting", "5000-digit-int", "top-level-string", "top-level-object"],
)
@pytest.mark.parametrize("command", ["calibrate", "decide", "bayes-factor"])
def test_gate_cli_bad_file_is_a_coded_usage_error(tmp_path, content, command):
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    good_scores = tmp_path / "s.json"
    good_scores.write_text('[{"f": 0.5}]')
    args = {"calibrate": [str(bad)], "decide": [str(bad), str(good_scores)]}.get(
        command, [str(bad), str(good_scores)]
    )
    result = _run("gate", command, *args)
    assert result.exit_code == ExitCode.USAGE, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.output.startswith("error [INVALID_CONFIG] ")


# --------------------------------------------------------------------------- fuzz

NASTY = hostile_json()


TOOL_INPUT = {
    "scores": {"f": 0.9, "g": 0.4},
    "models": [
        {"dimension": "f", "high": {"a": 8, "b": 2}, "low": {"a": 2, "b": 6}, "weight": 1},
        {"dimension": "g", "high": {"a": 5, "b": 3}, "low": {"a": 3, "b": 5}},
    ],
    "policy": {"kind": "bayes-factor", "passAbove": 10, "failBelow": 0.1},
}
HISTORY = [{"scores": {"f": 0.9 - i * 0.02, "g": 0.8}, "label": "high"} for i in range(4)] + [
    {"scores": {"f": 0.2 + i * 0.02, "g": 0.3}, "label": "low"} for i in range(4)
]


@settings(max_examples=300, derandomize=True, deadline=None)
@given(mutated_json(TOOL_INPUT))
def test_fuzz_run_tool_never_raises(arguments):
    reply = J.run_tool(arguments)
    json.dumps(reply, allow_nan=False)
    assert reply["ok"] or reply["error"]["code"]


@settings(max_examples=150, derandomize=True, deadline=None)
@given(mutated_json(TOOL_INPUT), mutated_json({"f": [7, 9], "g": [3, 4]}))
def test_fuzz_gate_apis_raise_only_assay_error(data, outcomes):
    if isinstance(data, dict):
        scores, models, policy = data.get("scores"), data.get("models"), data.get("policy")
    else:
        scores, models, policy = data, TOOL_INPUT["models"], None
    only_assay_errors(lambda: J.evaluate(scores, models, policy or J.BayesFactorPolicy()))
    only_assay_errors(lambda: J.OutputGate(models, policy).evaluate(scores))
    pairs = (
        {k: tuple(v) if isinstance(v, list) else v for k, v in outcomes.items()}
        if isinstance(outcomes, dict)
        else outcomes
    )
    only_assay_errors(lambda: J.binary_bayes_factor(pairs, TOOL_INPUT["models"]))


@settings(max_examples=80, derandomize=True, deadline=None)
@given(mutated_json(HISTORY), NASTY)
def test_fuzz_fit_and_batch_raise_only_assay_error(history, dimensions):
    only_assay_errors(lambda: J.HypothesisManager().fit(history))
    only_assay_errors(
        lambda: J.OutputGate(TOOL_INPUT["models"]).evaluate_many(np.zeros((1, 2)), dimensions)
    )
