"""Choosing a router's thresholds from labelled retrievals, and measuring a router on them.

Give :func:`tune_thresholds` the router's score of each retrieval (``CragClassification.score``:
the best document's relevance in paper mode, the composite in composite mode) and whether people
judged it relevant; it returns the pair of thresholds that routes them best under a ceiling on
the ambiguous share. :func:`route_counts` measures any pair of thresholds on the same data.

The comparisons are the router's own:

* paper mode: *correct* when ``score > upper``, *incorrect* when ``score <= lower``, else
  *ambiguous*;
* composite mode: *correct* when ``score >= correct_at``, else *incorrect* when
  ``score <= incorrect_at``, else *ambiguous*.

Right calls are *correct* on a relevant retrieval and *incorrect* on an irrelevant one; wrong
calls are the reverse. ``accuracy`` is right calls over all retrievals (an ambiguous call is not
a right one).

Pure Python, deterministic: candidates are ``k / round(1 / step)`` for every integer ``k`` that
keeps them in [0, 1] (the multiples of ``step`` when it divides 1); ties go to the
narrower ambiguous band, then to the lower thresholds.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from typing import Any, Literal

import attrs

import assay
from assay_crag.checks import config_number, score_input

__all__ = ["RouteCounts", "ThresholdChoice", "route_counts", "tune_thresholds"]

TuningMode = Literal["composite", "paper"]


@attrs.frozen
class RouteCounts:
    """How a pair of thresholds routes labelled retrievals.

    Attributes:
        mode: whose comparisons were applied (``"paper"`` or ``"composite"``).
        low: ``lower`` (paper) or ``incorrect_at`` (composite).
        high: ``upper`` (paper) or ``correct_at`` (composite).
        relevant: ``(correct, ambiguous, incorrect)`` counts on relevant retrievals.
        irrelevant: the same on irrelevant retrievals.
    """

    mode: TuningMode
    low: float
    high: float
    relevant: tuple[int, int, int]
    irrelevant: tuple[int, int, int]

    @property
    def total(self) -> int:
        """All retrievals."""
        return sum(self.relevant) + sum(self.irrelevant)

    @property
    def right(self) -> int:
        """Relevant routed correct plus irrelevant routed incorrect."""
        return self.relevant[0] + self.irrelevant[2]

    @property
    def wrong(self) -> int:
        """Relevant routed incorrect plus irrelevant routed correct."""
        return self.relevant[2] + self.irrelevant[0]

    @property
    def ambiguous(self) -> int:
        """Retrievals routed ambiguous."""
        return self.relevant[1] + self.irrelevant[1]

    @property
    def accuracy(self) -> float:
        """Right calls over all retrievals (0 when there are none)."""
        return self.right / self.total if self.total else 0.0

    @property
    def ambiguous_rate(self) -> float:
        """Ambiguous calls over all retrievals (0 when there are none)."""
        return self.ambiguous / self.total if self.total else 0.0

    def utility(self, wrong_cost: float) -> float:
        """Mean over the two classes of (right - wrong_cost * wrong) / class size; a class with
        no retrievals is left out."""
        parts = []
        for counts, right, wrong in (
            (self.relevant, self.relevant[0], self.relevant[2]),
            (self.irrelevant, self.irrelevant[2], self.irrelevant[0]),
        ):
            if sum(counts):
                parts.append((right - wrong_cost * wrong) / sum(counts))
        return sum(parts) / len(parts) if parts else 0.0

    def router_options(self) -> dict[str, float]:
        """The thresholds as :class:`~assay_crag.router.CragRouter` keyword arguments."""
        if self.mode == "paper":
            return {"lower": self.low, "upper": self.high}
        return {"incorrect_at": self.low, "correct_at": self.high}

    def to_wire(self) -> dict[str, Any]:
        """JSON shape: thresholds, counts and rates."""
        return {
            "mode": self.mode,
            "thresholds": self.router_options(),
            "relevant": dict(
                zip(("correct", "ambiguous", "incorrect"), self.relevant, strict=True)
            ),
            "irrelevant": dict(
                zip(("correct", "ambiguous", "incorrect"), self.irrelevant, strict=True)
            ),
            "accuracy": self.accuracy,
            "ambiguousRate": self.ambiguous_rate,
        }


@attrs.frozen
class ThresholdChoice:
    """The result of :func:`tune_thresholds`.

    Attributes:
        counts: how the chosen thresholds route the tuning data.
        max_ambiguous: the ceiling on the ambiguous share that was applied.
        wrong_cost: the cost of a wrong call that was applied.
        utility: the chosen pair's utility (see :meth:`RouteCounts.utility`).
    """

    counts: RouteCounts
    max_ambiguous: float
    wrong_cost: float
    utility: float

    def router_options(self) -> dict[str, float]:
        """The chosen thresholds as :class:`~assay_crag.router.CragRouter` keyword arguments."""
        return self.counts.router_options()


class _Sorted:
    """The scores of one class, sorted, for counting by bisection."""

    def __init__(self, scores: Iterable[float]) -> None:
        self.values = sorted(scores)

    def above(self, t: float, inclusive: bool) -> int:
        cut = bisect.bisect_left if inclusive else bisect.bisect_right
        return len(self.values) - cut(self.values, t)

    def at_most(self, t: float) -> int:
        return bisect.bisect_right(self.values, t)


def _counts(values: _Sorted, mode: TuningMode, low: float, high: float) -> tuple[int, int, int]:
    inclusive = mode == "composite"
    correct = values.above(high, inclusive)
    incorrect = min(values.at_most(low), len(values.values) - correct)
    return correct, len(values.values) - correct - incorrect, incorrect


def _labelled(scores: Sequence[float], relevant: Sequence[bool]) -> tuple[_Sorted, _Sorted]:
    if len(scores) != len(relevant):
        raise assay.AssayError(
            assay.ErrorCode.INVALID_INPUT,
            f"{len(scores)} scores for {len(relevant)} labels",
            "relevant",
        )
    checked = [score_input(s, f"scores[{i}]") for i, s in enumerate(scores)]
    yes = _Sorted(s for s, r in zip(checked, relevant, strict=True) if r)
    no = _Sorted(s for s, r in zip(checked, relevant, strict=True) if not r)
    return yes, no


def _mode(mode: str) -> TuningMode:
    if mode not in ("composite", "paper"):
        raise assay.AssayError(
            assay.ErrorCode.INVALID_CONFIG,
            f"unknown routing mode {mode!r}; use 'paper' or 'composite'",
            "mode",
        )
    return mode  # type: ignore[return-value]


def route_counts(
    scores: Sequence[float],
    relevant: Sequence[bool],
    *,
    low: float,
    high: float,
    mode: TuningMode = "paper",
) -> RouteCounts:
    """How thresholds ``low`` / ``high`` route retrievals with these scores and labels.

    :raises assay.AssayError: ``INVALID_INPUT`` when a score is not a number in [0, 1] (path
        ``scores[i]``) or the two sequences differ in length; ``INVALID_CONFIG`` for an unknown
        mode, a threshold outside [0, 1] or ``low > high``.
    """
    mode = _mode(mode)
    low, high = config_number(low, "low"), config_number(high, "high")
    if low > high:
        raise assay.AssayError(
            assay.ErrorCode.INVALID_CONFIG, f"low ({low:g}) must not exceed high ({high:g})", "low"
        )
    yes, no = _labelled(scores, relevant)
    return RouteCounts(mode, low, high, _counts(yes, mode, low, high), _counts(no, mode, low, high))


def tune_thresholds(
    scores: Sequence[float],
    relevant: Sequence[bool],
    *,
    mode: TuningMode = "paper",
    max_ambiguous: float = 0.05,
    wrong_cost: float = 2.0,
    step: float = 0.01,
) -> ThresholdChoice:
    """The thresholds that route labelled retrievals best.

    Among every pair ``low <= high`` of multiples of ``step`` in [0, 1] whose ambiguous share is
    at most ``max_ambiguous``, the pair with the highest utility: +1 for a right call, minus
    ``wrong_cost`` for a wrong one, 0 for an ambiguous one, averaged within each class and then
    over the two classes (so a class ten times larger does not outvote the other). A higher
    ``wrong_cost`` buys fewer wrong calls with more ambiguous ones, up to the ceiling.

    :raises assay.AssayError: ``INVALID_INPUT`` for a score that is not a number in [0, 1],
        sequences of different lengths, or no retrievals; ``INVALID_CONFIG`` for an unknown mode,
        ``max_ambiguous`` outside [0, 1], a negative ``wrong_cost`` or ``step`` outside
        [0.001, 0.5].
    """
    mode = _mode(mode)
    max_ambiguous = config_number(max_ambiguous, "maxAmbiguous")
    wrong_cost = config_number(wrong_cost, "wrongCost", 0.0, 1e9)
    step = config_number(step, "step", 0.001, 0.5)
    yes, no = _labelled(scores, relevant)
    if not yes.values and not no.values:
        raise assay.AssayError(assay.ErrorCode.INVALID_INPUT, "no labelled scores", "scores")
    steps = round(1 / step)
    grid = [min(k / steps, 1.0) for k in range(steps + 1)]
    best: tuple[float, float, RouteCounts] | None = None
    for i, low in enumerate(grid):
        for high in grid[i:]:
            counts = RouteCounts(
                mode, low, high, _counts(yes, mode, low, high), _counts(no, mode, low, high)
            )
            if counts.ambiguous_rate > max_ambiguous:
                continue
            utility = counts.utility(wrong_cost)
            width = high - low
            if (
                best is None
                or utility > best[0] + 1e-12
                or (abs(utility - best[0]) <= 1e-12 and width < best[1] - 1e-12)
            ):
                best = (utility, width, counts)
    assert best is not None  # low == high gives no ambiguous call, so some pair qualifies
    return ThresholdChoice(best[2], max_ambiguous, wrong_cost, best[0])
