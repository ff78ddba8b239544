"""Answer-first scoring as an MCP tool (``assay_answer``), registered as kind ``mcp-tool``.

A plain object (name, description, input schema, ``call``): serving it needs the assay-mcp
plugin, defining and registering it does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from assay import AssayError
from assay.wire import to_json_safe
from assay_scorecard import INVALID_ANSWER_RECORD, score_answer_record

__all__ = ["ANSWER_TOOL", "AnswerTool"]

_CONTEXT = {
    "oneOf": [
        {"type": "string"},
        {
            "type": "object",
            "description": "a retrieved chunk: text, and optional id, title, retrievalScores, "
            "score, rank, date, sourceType, authorityRank",
            "properties": {"text": {"type": "string"}},
            "required": ["text"],
        },
    ]
}
_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "question": {"type": "string", "description": "the user's question"},
        "answer": {"type": "string", "description": "the answer the RAG pipeline gave"},
        "contexts": {"type": "array", "items": _CONTEXT, "description": "the retrieved chunks"},
        "signals": {
            "type": "object",
            "description": "scoring inputs already known (JSON input format), e.g. "
            "answerRelevanceScore",
        },
        "config": {"type": "object", "description": "ScoringConfig (optional; preset grounded-v1)"},
    },
    "required": ["question", "answer", "contexts"],
    "additionalProperties": False,
}
_DESCRIPTION = (
    "Decide how far to trust one RAG answer from its text: give the question, the answer and "
    "the retrieved chunks; get answer / review / abstain with the rule that decided, a 0-100 "
    "scorecard, and each claim of the answer with whether the chunks support it, the "
    "supporting span and what is unsupported. Deterministic; calls no model."
)


@attrs.frozen
class AnswerTool:
    """:func:`assay_scorecard.score_answer_record` on ``{"question", "answer", "contexts",
    "signals"?, "config"?}``, returning ``{"scorecard", "signals", "evidence"}`` (non-finite
    numbers as ``null``)."""

    name: str = "assay_answer"
    description: str = _DESCRIPTION
    input_schema: Mapping[str, Any] = attrs.field(factory=lambda: dict(_SCHEMA))

    def call(self, arguments: Any) -> dict[str, Any]:
        """Score the answer record ``arguments``.

        :raises AssayError: ``INVALID_ANSWER_RECORD`` when the arguments are not an object or
            carry an ``id``; otherwise as :func:`~assay_scorecard.score_answer_record`.
        """
        if isinstance(arguments, Mapping) and "id" in arguments:
            raise AssayError(INVALID_ANSWER_RECORD, "unknown field 'id'", "id")
        result = score_answer_record(arguments)
        wire: dict[str, Any] = to_json_safe(result.to_wire(), nonfinite="null")
        return wire


ANSWER_TOOL = AnswerTool()
"""The tool instance the plugin registers."""
