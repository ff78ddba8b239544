"""A judge from any ``(prompt: str) -> str`` callable (rag-eval-node-ts 0.3 ``JudgeFn``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

import assay
from assay_evaluation import EvaluationErrorCode as Code

__all__ = ["CallableJudge", "judge_from_callable"]


@attrs.frozen
class CallableJudge:
    """A :class:`assay.Judge` that calls a function.

    Attributes:
        name: identifies the judge in caches and reports; two judges with the same name must
            answer alike.
        function: ``(prompt) -> str`` (or ``-> assay.JudgeReply`` to report token counts).
    """

    name: str
    function: Callable[[str], Any]

    def complete(self, prompt: str) -> assay.JudgeReply:
        """The function's reply to ``prompt``.

        :raises assay.AssayError: ``JUDGE_ERROR`` when the function raises or returns something
            other than a string or a JudgeReply.
        """
        try:
            reply = self.function(prompt)
        except assay.AssayError:
            raise
        except Exception as exc:
            raise assay.AssayError(
                Code.JUDGE_ERROR, f"judge {self.name!r} raised {type(exc).__name__}: {exc}"
            ) from exc
        if isinstance(reply, assay.JudgeReply):
            return reply
        if not isinstance(reply, str):
            raise assay.AssayError(
                Code.JUDGE_ERROR,
                f"judge {self.name!r} returned {type(reply).__name__}; expected a string",
            )
        return assay.JudgeReply(reply)


def judge_from_callable(function: Callable[[str], Any], name: str | None = None) -> CallableJudge:
    """Wrap ``function`` as a judge named ``name`` (default: ``callable:<function name>``).

    :raises assay.AssayError: ``JUDGE_MISCONFIGURED`` when ``function`` is not callable.
    """
    if not callable(function):
        raise assay.AssayError(
            Code.JUDGE_MISCONFIGURED,
            f"a judge function must be callable, got {function!r}",
            "judge",
        )
    return CallableJudge(name or f"callable:{getattr(function, '__name__', 'judge')}", function)
