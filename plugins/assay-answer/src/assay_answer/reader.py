"""The default signal reader, ``answer-support``: the assay-faithfulness text detector."""

from __future__ import annotations

import attrs

from assay_answer.mapping import reading_from_evidence
from assay_faithfulness import analyze_answer
from assay_scorecard import AnswerRecord, SignalReading

__all__ = ["ANSWER_SUPPORT", "AnswerSupportReader"]


@attrs.frozen
class AnswerSupportReader:
    """Reads an answer's text with :func:`assay_faithfulness.analyze_answer` (deterministic,
    no model, no network) and maps what it finds to the scorecard's signals
    (:mod:`assay_answer.mapping`).

    Attributes:
        name: the name it is registered under.
    """

    name: str = "answer-support"

    def read(self, record: AnswerRecord) -> SignalReading:
        """The signals and the display evidence of ``record``."""
        evidence = analyze_answer(record.question, record.answer, record.texts)
        return reading_from_evidence(evidence, record, self.name)


ANSWER_SUPPORT = AnswerSupportReader()
"""The reader instance the plugin registers."""
