"""The text evidence shown beside a scorecard scored from an answer's text.

A signal reader (see :mod:`assay_scorecard.answers`) derives the scoring signals from the
answer's text and returns what it found as a :class:`TextEvidence`: each claim of the answer,
whether the contexts support it, the supporting span and what is unsupported. The renderers
(:func:`~assay_scorecard.render_text`, :func:`~assay_scorecard.render_html`,
:func:`~assay_scorecard.render_markdown`) show it to people; :meth:`TextEvidence.to_wire` is its
JSON shape (camelCase).
"""

from __future__ import annotations

from typing import Any

import attrs

__all__ = ["ClaimFinding", "TextEvidence", "UnsupportedFinding"]


def _tuple(value: Any) -> tuple[Any, ...]:
    return tuple(value)


@attrs.frozen
class UnsupportedFinding:
    """Something the answer says that the contexts do not support.

    Attributes:
        kind: what it is, e.g. ``number``, ``name``, ``negation``, ``yes-no``, ``term``,
            ``relation`` (a reader may use its own kinds).
        text: the answer's words, as written.
        reason: one sentence a reader can check against the contexts.
    """

    kind: str
    text: str
    reason: str


@attrs.frozen
class ClaimFinding:
    """One claim of the answer and what the contexts say about it.

    Attributes:
        text: the claim as written in the answer.
        supported: the contexts support it (and nothing in it is unsupported).
        support: how far they support it, in [0, 1]; ``None`` when the reader gives no degree.
        span: the best supporting (or, for an unsupported claim, closest) context text;
            ``None`` when no context matches.
        source: which context the span is from: its ``id``, else ``context N`` (1-based).
        unsupported: what in this claim the contexts do not support.
    """

    text: str
    supported: bool
    support: float | None = None
    span: str | None = None
    source: str | None = None
    unsupported: tuple[UnsupportedFinding, ...] = attrs.field(default=(), converter=_tuple)


@attrs.frozen
class TextEvidence:
    """What a signal reader found in an answer's text.

    Attributes:
        reader: the name of the reader that found it.
        score: the answer's support as the reader measures it, in [0, 1]; ``None`` when it is
            undetermined (no contexts, an answer without words).
        summary: one sentence that agrees with ``score``.
        claims: the answer's claims in order.
        conflicts: contradictions the reader found between contexts, one sentence each.
        notes: signals that could not be derived and what was done instead (e.g. a context
            without a retrieval score), one sentence each.
    """

    reader: str
    score: float | None
    summary: str
    claims: tuple[ClaimFinding, ...] = attrs.field(default=(), converter=_tuple)
    conflicts: tuple[str, ...] = attrs.field(default=(), converter=_tuple)
    notes: tuple[str, ...] = attrs.field(default=(), converter=_tuple)

    @property
    def supported_claims(self) -> int:
        """How many claims the contexts support."""
        return sum(1 for claim in self.claims if claim.supported)

    @property
    def unsupported_claims(self) -> tuple[ClaimFinding, ...]:
        """The claims the contexts do not support, in order."""
        return tuple(claim for claim in self.claims if not claim.supported)

    def to_wire(self) -> dict[str, Any]:
        """The JSON shape: ``{"reader", "score", "summary", "claims": [{"text", "supported",
        "support", "span", "source", "unsupported": [{"kind", "text", "reason"}]}], "conflicts",
        "notes"}``; an unknown ``score``, ``support``, ``span`` or ``source`` is ``null``."""
        return {
            "reader": self.reader,
            "score": self.score,
            "summary": self.summary,
            "claims": [
                {
                    "text": claim.text,
                    "supported": claim.supported,
                    "support": claim.support,
                    "span": claim.span,
                    "source": claim.source,
                    "unsupported": [
                        {"kind": item.kind, "text": item.text, "reason": item.reason}
                        for item in claim.unsupported
                    ],
                }
                for claim in self.claims
            ],
            "conflicts": list(self.conflicts),
            "notes": list(self.notes),
        }
