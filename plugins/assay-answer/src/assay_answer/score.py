"""``score_answer``: one call from a RAG pipeline's output to a trust decision."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from assay_scorecard import AnswerResult, ScoringConfig, SignalReader, score_answer_record

__all__ = ["score_answer"]


def score_answer(
    question: str,
    answer: str,
    contexts: Sequence[str | Mapping[str, Any]],
    config: ScoringConfig | Mapping[str, Any] | None = None,
    *,
    signals: Mapping[str, Any] | None = None,
    reader: str | SignalReader | None = None,
) -> AnswerResult:
    """Score one answer from its text.

    :param question: the user's question.
    :param answer: the answer the pipeline generated.
    :param contexts: the retrieved contexts, in retrieval order (a list, a tuple, a numpy
        array or a pandas Series), each a string or an object with ``text`` and
        optional ``id``, ``title``, ``retrievalScores`` / ``score`` / ``combinedScore``,
        ``rank``, ``date`` / ``lastUpdated``, ``sourceType`` / ``documentType``,
        ``authorityRank``, ``contentHash``, ``extractionQuality``, ``isAmendment``,
        ``metadata`` (ignored).
    :param config: the scoring config; preset ``grounded-v1`` unless it names one; its
        ``reader`` names the signal reader.
    :param signals: scoring inputs your pipeline already has (e.g. ``answerRelevanceScore``);
        they take precedence over the derived ones.
    :param reader: the signal reader (a registered name or an object); default: the config's
        ``reader``, else ``answer-support``.
    :return: an :class:`~assay_scorecard.AnswerResult`: ``.scorecard`` (total, tiers,
        ``recommended_action`` and ``action_rule``), ``.evidence`` (claims, spans, what is
        unsupported), ``.inputs`` (the signals scored) and ``.to_wire()``.
    :raises AssayError: ``INVALID_ANSWER_RECORD`` / ``INVALID_CONTEXT`` naming the field at
        fault, ``UNKNOWN_NAME`` for a reader that is not registered, ``INVALID_CONFIG`` for a
        bad config, ``READER_FAILED`` when a reader breaks.
    """
    record: dict[str, Any] = {"question": question, "answer": answer, "contexts": contexts}
    if signals is not None:
        record["signals"] = signals
    return score_answer_record(record, config, reader=reader)
