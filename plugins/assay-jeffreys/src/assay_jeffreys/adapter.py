"""The gate as a framework-agnostic tool (``bayes_output_gate``): a name, a description, a
JSON Schema for the input and a handler, in the shape MCP servers and LLM tool-calling APIs
expect. The plugin registers it as kind ``mcp-tool``, so ``assay mcp`` (the assay-mcp plugin)
serves it.

Input arriving from a model is validated defensively (unknown keys, wrong types, out-of-range
numbers are refused with an :class:`assay.AssayError` naming the field), and the output is
JSON-safe: non-finite numbers (an infinite Bayes factor) become ``null``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from assay_jeffreys.errors import INVALID_CONFIG, fail

__all__ = ["BAYES_OUTPUT_GATE_TOOL", "INPUT_SCHEMA", "Tool", "describe_tool", "run_tool"]

_UNIT = {"type": "number", "minimum": 0, "maximum": 1}
_BETA = {
    "type": "object",
    "properties": {
        "a": {"type": "number", "exclusiveMinimum": 0},
        "b": {"type": "number", "exclusiveMinimum": 0},
    },
    "required": ["a", "b"],
    "additionalProperties": False,
}

INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "scores": {
            "description": "The output's quality scores in [0, 1]: an object map "
            "{dimension: value} or an array of {dimension, value}.",
            "oneOf": [
                {"type": "object", "additionalProperties": _UNIT},
                {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "dimension": {"type": "string", "minLength": 1},
                            "value": _UNIT,
                        },
                        "required": ["dimension", "value"],
                        "additionalProperties": False,
                    },
                },
            ],
        },
        "models": {
            "description": "Calibrated dimension models: Beta parameters of the scores of "
            "known-high and known-low quality outputs, and a weight.",
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "properties": {
                    "dimension": {"type": "string", "minLength": 1},
                    "high": _BETA,
                    "low": _BETA,
                    "weight": {"type": "number", "minimum": 0},
                },
                "required": ["dimension", "high", "low"],
                "additionalProperties": False,
            },
        },
        "policy": {
            "description": "Decision policy; default Bayes-factor policy passAbove 10, failBelow 0.1.",
            "oneOf": [
                {
                    "type": "object",
                    "properties": {
                        "kind": {"const": "bayes-factor"},
                        "passAbove": {"type": "number", "minimum": 1},
                        "failBelow": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
                    },
                    "required": ["kind"],
                    "additionalProperties": False,
                },
                {
                    "type": "object",
                    "properties": {
                        "kind": {"const": "decision-theoretic"},
                        "priorHighQuality": {
                            "type": "number",
                            "exclusiveMinimum": 0,
                            "exclusiveMaximum": 1,
                        },
                        "lossFalsePass": {"type": "number", "minimum": 0},
                        "lossFalseFail": {"type": "number", "minimum": 0},
                        "escalationCost": {"type": "number", "minimum": 0},
                    },
                    "required": ["kind"],
                    "additionalProperties": False,
                },
            ],
        },
    },
    "required": ["scores", "models"],
    "additionalProperties": False,
}
"""The JSON Schema (2020-12 subset) of the tool's input."""

DESCRIPTION = (
    "Decide pass, fail or escalate for one output from its per-dimension quality scores, by a "
    "Bayes factor of calibrated Beta models of high- versus low-quality outputs, read on the "
    "Jeffreys scale. Returns the action, the Bayes factor and its strength, the rationale, the "
    "per-dimension contributions and, under a decision-theoretic policy, the posterior "
    "probability of high quality and the expected loss of each action. The gate recommends; "
    "it does not act."
)


def _handle(arguments: Any) -> dict[str, Any]:
    from assay_jeffreys.gate import evaluate
    from assay_jeffreys.policies import BayesFactorPolicy, policy_from_config
    from assay_jeffreys.scores import models_from_wire
    from assay_jeffreys.wire import to_wire

    if not isinstance(arguments, Mapping):
        fail(INVALID_CONFIG, "tool input must be a JSON object", "input")
    unknown = sorted(set(arguments) - set(INPUT_SCHEMA["properties"]))
    if unknown:
        fail(INVALID_CONFIG, f"unknown field(s) {', '.join(unknown)}", "input")
    for key in INPUT_SCHEMA["required"]:
        if key not in arguments:
            fail(INVALID_CONFIG, f"missing required field {key!r}", key)
    models = models_from_wire(arguments["models"], "models")
    policy_config = arguments.get("policy")
    policy = BayesFactorPolicy() if policy_config is None else policy_from_config(policy_config)
    wire: dict[str, Any] = to_wire(evaluate(arguments["scores"], models, policy))
    return wire


@attrs.frozen
class Tool:
    """A tool definition.

    Attributes:
        name: the tool's name.
        description: what it does, for the model choosing tools.
        input_schema: the JSON Schema of its input.
        handler: takes the parsed input, returns a JSON-safe dict; raises
            :class:`assay.AssayError` for invalid input.
    """

    name: str
    description: str
    input_schema: Mapping[str, Any]
    handler: Callable[[Any], dict[str, Any]]

    def call(self, arguments: Any) -> dict[str, Any]:
        """Run the handler on ``arguments`` (the ``call`` of an MCP tool, registry kind
        ``mcp-tool``); raises :class:`assay.AssayError` for invalid input."""
        return self.handler(arguments)


BAYES_OUTPUT_GATE_TOOL = Tool("bayes_output_gate", DESCRIPTION, INPUT_SCHEMA, _handle)
"""The gate as a tool."""


def describe_tool(tool: Tool = BAYES_OUTPUT_GATE_TOOL) -> dict[str, Any]:
    """``{"name", "description", "inputSchema"}``: the tool as tool-calling APIs list it."""
    return {
        "name": tool.name,
        "description": tool.description,
        "inputSchema": dict(tool.input_schema),
    }


def run_tool(arguments: Any, tool: Tool = BAYES_OUTPUT_GATE_TOOL) -> dict[str, Any]:
    """Run ``tool`` on ``arguments`` without raising for bad input.

    :return: ``{"ok": true, "result": <decision>}`` or ``{"ok": false, "error": {"code",
        "message", "path"}}``; always JSON-safe.
    """
    import assay

    try:
        return {"ok": True, "result": tool.handler(arguments)}
    except assay.AssayError as error:
        return {"ok": False, "error": error.to_dict()}
    except (RecursionError, MemoryError):
        return {
            "ok": False,
            "error": {
                "code": INVALID_CONFIG,
                "message": "input too large or nested too deeply",
                "path": None,
            },
        }
    except Exception as error:  # documented never to raise: a coded result instead
        return {
            "ok": False,
            "error": {
                "code": "PLUGIN_ERROR",
                "message": f"the tool failed on this input ({type(error).__name__})",
                "path": None,
            },
        }
