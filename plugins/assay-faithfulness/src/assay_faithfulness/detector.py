"""The answer detector's public entry point: it checks what it is given, then hands it to
:func:`.answer_support.analyze_answer`.

The check lives here, in a module that stays Python, because the detector's own modules are
compiled where the package was built with a C compiler (setup.py), and a compiled function
refuses an argument of another type with a plain ``TypeError``; a caller of this function gets
the project's coded errors instead, compiled or not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import assay
from assay_faithfulness import answer_support
from assay_faithfulness.analysis import check_contexts
from assay_faithfulness.codes import INVALID_SAMPLE, MISSING_ANSWER
from assay_faithfulness.evidence import AnswerEvidence

__all__ = ["analyze_answer"]


def analyze_answer(question: str | None, answer: str, contexts: Sequence[str]) -> AnswerEvidence:
    """How far ``contexts`` support ``answer`` as an answer to ``question``, claim by claim.

    :param question: the question (``None``: checked without it, as a plain statement).
    :param answer: the answer.
    :param contexts: the retrieved passages.
    :return: the evidence; its ``score`` is ``None`` without contexts or when the answer has
        no word.
    :raises assay.AssayError: ``MISSING_ANSWER`` when ``answer`` is not a string,
        ``INVALID_SAMPLE`` when ``question`` is neither a string nor None,
        ``INVALID_CONTEXTS`` when ``contexts`` is not a sequence of strings.
    """
    _check(question, answer, contexts)
    return answer_support.analyze_answer(question, answer, contexts)


def _check(question: Any, answer: Any, contexts: Any) -> None:
    if not isinstance(answer, str):
        raise assay.AssayError(
            MISSING_ANSWER, f"answer must be a string, got {type(answer).__name__}", "answer"
        )
    if question is not None and not isinstance(question, str):
        raise assay.AssayError(
            INVALID_SAMPLE,
            f"question must be a string or None, got {type(question).__name__}",
            "question",
        )
    check_contexts(contexts)
