"""The text evidence behind an answer's support: per-claim findings a person can check.

:func:`assay_faithfulness.analyze_answer` returns an :class:`AnswerEvidence`; the
``answer_support`` metric and the answer-first scorecard read it. Offsets are Python string
indices (``answer[start:end]`` is the claim, ``contexts[i][start:end]`` the span).
"""

from __future__ import annotations

from typing import Literal

import attrs

__all__ = ["AnswerEvidence", "ClaimEvidence", "SupportSpan", "UnsupportedItem"]

UnsupportedKind = Literal["number", "name", "negation", "yes-no", "term", "relation"]


@attrs.frozen
class SupportSpan:
    """Where in the contexts a claim is stated: ``contexts[context_index][start:end] == text``."""

    context_index: int
    start: int
    end: int
    text: str


@attrs.frozen
class UnsupportedItem:
    """One thing the answer says that the contexts do not support.

    Attributes:
        kind: ``number`` (a number or date the passage does not give for what is asked),
            ``name`` (a name absent from the contexts or not the one the question asks about),
            ``negation`` / ``yes-no`` (the polarity disagrees with what the passage states),
            ``term`` (another content word found in no context), ``relation`` (the words are
            present but not related as the question asks).
        text: the answer's words, as written.
        reason: one sentence a reader can check against the contexts.
    """

    kind: UnsupportedKind
    text: str
    reason: str


@attrs.frozen
class ClaimEvidence:
    """One claim of the answer and what the contexts say about it.

    Attributes:
        text: the claim as written (``answer[start:end]``).
        start: offset of the claim in the answer.
        end: end offset of the claim in the answer.
        support: how far the contexts support this claim, in [0, 1].
        supported: ``support`` reached the detector's threshold and nothing is unsupported.
        span: the best supporting context span, ``None`` when no context sentence matches.
        unsupported: what in this claim the contexts do not support.
    """

    text: str
    start: int
    end: int
    support: float
    supported: bool
    span: SupportSpan | None
    unsupported: tuple[UnsupportedItem, ...] = ()


@attrs.frozen
class AnswerEvidence:
    """Everything the detector found in one answer.

    Attributes:
        score: the answer's support as an answer to the question, in [0, 1]; ``None`` when it is
            undetermined (no contexts, or an answer without words).
        reason: one sentence that agrees with ``score``.
        claims: the answer's claims in order.
        conflicts: contradictions detected between contexts (each a readable sentence).
    """

    score: float | None
    reason: str
    claims: tuple[ClaimEvidence, ...]
    conflicts: tuple[str, ...] = ()

    @property
    def total_claims(self) -> int:
        return len(self.claims)

    @property
    def supported_claims(self) -> int:
        return sum(1 for claim in self.claims if claim.supported)

    @property
    def unsupported(self) -> tuple[UnsupportedItem, ...]:
        return tuple(item for claim in self.claims for item in claim.unsupported)
