"""assay-answer: score a RAG answer from its text, from question, answer and retrieved
contexts to answer / review / abstain, with the claims and spans behind the decision.

:func:`score_answer` is the one call. The plugin registers the ``answer-support`` signal reader
(:class:`AnswerSupportReader`), which reads the text with
:func:`assay_faithfulness.analyze_answer` and maps what it finds to the scorecard's signals
(:mod:`assay_answer.mapping`); the scorecard (assay-scorecard) composes the rest, with preset
``grounded-v1``. The ``assay_answer`` MCP tool (:data:`ANSWER_TOOL`) serves the same call to an
agent through ``assay mcp``. Deterministic; calls no model.
"""

from assay_answer.mapping import (
    HIGH_SUPPORT,
    MEDIUM_SUPPORT,
    display_evidence,
    reading_from_evidence,
    signals_from_evidence,
    support_level,
)
from assay_answer.mcp_tool import ANSWER_TOOL, AnswerTool
from assay_answer.reader import ANSWER_SUPPORT, AnswerSupportReader
from assay_answer.score import score_answer
from assay_scorecard import AnswerResult

__all__ = [
    "ANSWER_SUPPORT",
    "ANSWER_TOOL",
    "HIGH_SUPPORT",
    "MEDIUM_SUPPORT",
    "AnswerResult",
    "AnswerSupportReader",
    "AnswerTool",
    "display_evidence",
    "reading_from_evidence",
    "score_answer",
    "signals_from_evidence",
    "support_level",
]
