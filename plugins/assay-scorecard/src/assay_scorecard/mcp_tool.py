"""The scorecard as an MCP tool (``assay_scorecard``), registered as kind ``mcp-tool``.

A plain object (name, description, input schema, ``call``): serving it needs the assay-mcp
plugin, defining and registering it does not. Nothing heavy is imported until a call.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

__all__ = ["SCORECARD_TOOL", "ScorecardTool"]

_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "inputs": {
            "type": "object",
            "description": "ScoringInputs: the answer's pipeline signals in the JSON input "
            "format (camelCase).",
        },
        "config": {"type": "object", "description": "ScoringConfig (optional)."},
    },
    "required": ["inputs"],
    "additionalProperties": False,
}

_DESCRIPTION = (
    "Score how far to trust one RAG answer from its pipeline signals (retrieval, grounding, "
    "sources, freshness, ...): a 0-100 scorecard with tiers, label, per-dimension breakdowns, "
    "warnings and a recommended action. Deterministic; calls no model."
)


@attrs.frozen
class ScorecardTool:
    """:func:`assay_scorecard.compute_confidence` on ``{"inputs", "config"?}``, returning the
    scorecard's wire shape (non-finite numbers as ``null``)."""

    name: str = "assay_scorecard"
    description: str = _DESCRIPTION
    input_schema: Mapping[str, Any] = attrs.field(factory=lambda: dict(_SCHEMA))

    def call(self, arguments: Any) -> dict[str, Any]:
        """Score ``arguments["inputs"]`` with ``arguments.get("config")``.

        :raises AssayError: ``MALFORMED_INPUT`` when the arguments are not an object with
            ``inputs`` and at most ``config``; otherwise as :func:`compute_confidence`.
        """
        from assay import AssayError, ErrorCode
        from assay.wire import to_json_safe
        from assay_scorecard.engine import compute_confidence
        from assay_scorecard.wire import scorecard_to_wire

        if not isinstance(arguments, Mapping) or "inputs" not in arguments:
            raise AssayError(ErrorCode.MALFORMED_INPUT, "input needs an 'inputs' object", "inputs")
        unknown = sorted(set(arguments) - {"inputs", "config"})
        if unknown:
            raise AssayError(
                ErrorCode.MALFORMED_INPUT, f"unknown field(s) {', '.join(unknown)}", "input"
            )
        card = compute_confidence(arguments["inputs"], arguments.get("config"))
        wire: dict[str, Any] = to_json_safe(scorecard_to_wire(card), nonfinite="null")
        return wire


SCORECARD_TOOL = ScorecardTool()
"""The scorecard tool instance the plugin registers."""
