"""The source authority dimension ("Source Authority", max 20 points, Tier 1).

How authoritative are the sources the answer was drawn from? Each of the top-K candidates gets an
effective authority rank (lower is more authoritative), the rank becomes points, the points are
aggregated (weighted by retrieval score, or best source wins) and two small bonuses are added.
The rules are applied in the order transparent-confidence 0.3 applies them.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import assay
from assay.jsmath import js_number, js_round, to_fixed
from assay_scorecard.signals import is_number

__all__ = ["DEFAULT_TIERS", "AuthorityDimension", "rank_points"]

#: The tiers used when ``config.authority.tiers`` is absent. They carry no keywords, so without
#: an explicit ``authorityRank`` every candidate is unclassified (rank 99).
DEFAULT_TIERS: tuple[Mapping[str, Any], ...] = (
    {"name": "Primary", "rank": 10},
    {"name": "Secondary", "rank": 20},
    {"name": "Supporting", "rank": 30},
)

UNCLASSIFIED_RANK = 99
UNCLASSIFIED = "authority-unclassified"
MAX_POINTS = 20
DEFAULT_TOP_K = 5
_BEST = "best"
_WEIGHTED = "weighted"


#: Upper rank limit of each bucket (<= 10, <= 20, <= 30) and the points of the buckets, the
#: last one for any other rank (NaN too).
RANK_LIMITS = (10, 20, 30)
BUCKET_POINTS = (18, 13, 7, 2)


def _bucket(rank: float) -> int:
    """Index of the rank's bucket: <= 10, <= 20, <= 30, other (``uniqueTierCount`` counts these);
    NaN is "other"."""
    return bisect_left(RANK_LIMITS, rank) if rank == rank else len(RANK_LIMITS)


def rank_points(rank: float) -> int:
    """Points of one effective rank: <= 10: 18, <= 20: 13, <= 30: 7, else (NaN too) 2."""
    return BUCKET_POINTS[_bucket(rank)]


def _number(value: Any) -> float:
    """JavaScript's numeric reading of a provided value: ``null`` is 0, a non-number is NaN."""
    if type(value) is float:
        return value
    if value is None:
        return 0.0
    if isinstance(value, int | float):
        return float(value)
    return math.nan


def _slice_end(top_k: Any, length: int) -> int:
    """``Array.prototype.slice(0, topK)``'s end index: negatives count from the end, fractions
    truncate, NaN is 0 (``topK`` is not validated, so 0 and -1 are meaningful)."""
    k = _number(top_k)
    if math.isnan(k):
        return 0
    if math.isinf(k):
        return length if k > 0 else 0
    end = int(k)
    return max(length + end, 0) if end < 0 else min(end, length)


def _minimum(values: Sequence[float]) -> float:
    """``Math.min(...values)``: +inf for none, NaN as soon as one value is NaN."""
    result = math.inf
    for value in values:
        if math.isnan(value):
            return math.nan
        result = min(result, value)
    return result


class AuthorityDimension(assay.Dimension):
    """Source authority, 0-20 points, active when ``config["authority"]`` is present.

    Input (wire shape): ``candidates[].combinedScore``, ``documentType``, ``authorityRank``,
    ``isAmendment``. Config section ``authority``: ``tiers`` (``[{name, rank, keywords?}]``, first
    match in list order wins), ``aggregation`` (``"best"``; anything else is weighted),
    ``topK`` (default 5, used as a JavaScript slice end).

    Output: components ``{weightedAuthority, bonuses}``, adjustment ``cap`` when the sum exceeds
    20, diagnostics ``{aggregation, topK, includedCount, unclassifiedCount, uniqueTierCount}`` and
    an ``authority-unclassified`` warning when an included candidate has rank 99.
    """

    name = "authority"
    tier = 1
    max_points = float(MAX_POINTS)
    default_weight = float(MAX_POINTS)
    extension = True
    check_order = 50
    reads = frozenset(
        {
            "candidates",
            "candidates[].combinedScore",
            "candidates[].documentType",
            "candidates[].authorityRank",
            "candidates[].isAmendment",
        }
    )
    missing_signals = MappingProxyType({UNCLASSIFIED: "authorityRanks"})

    config_activated = True  # is_active reads the config only: asked once per scorer

    def __init__(self) -> None:
        # (keyword, rank) pairs per tiers object (kept, so that its id stays valid)
        self._keywords: dict[int, tuple[Any, list[tuple[str, float]]]] = {}

    def _keyword_ranks(self, tiers: Sequence[Mapping[str, Any]]) -> list[tuple[str, float]]:
        hit = self._keywords.get(id(tiers))
        if hit is not None and hit[0] is tiers:
            return hit[1]
        pairs = _keyword_ranks(tiers)
        if len(self._keywords) >= 1024:
            self._keywords.clear()  # atomic: safe beside other threads
        self._keywords[id(tiers)] = (tiers, pairs)
        return pairs

    def is_active(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> bool:
        """Active when the ``authority`` config key is present (``{}`` suffices)."""
        return self.name in config

    def validate_config(self, config: Mapping[str, Any]) -> None:
        """Structural checks only (the reference validates nothing here): ``tiers`` must be a
        list of objects with a numeric ``rank`` and optional string ``keywords``; ``topK`` a
        number. Raises ``INVALID_CONFIG`` with the field path."""
        section = config.get(self.name)
        if section is None:
            return
        if not isinstance(section, Mapping):
            raise assay.AssayError("INVALID_CONFIG", "authority must be an object.", "authority")
        top_k = section.get("topK")
        if top_k is not None and not is_number(top_k):
            raise assay.AssayError(
                "INVALID_CONFIG", "authority.topK must be a number.", "authority.topK"
            )
        tiers = section.get("tiers")
        if tiers is None:
            return
        if not isinstance(tiers, Sequence) or isinstance(tiers, str):
            raise assay.AssayError(
                "INVALID_CONFIG", "authority.tiers must be a list of tiers.", "authority.tiers"
            )
        for index, tier in enumerate(tiers):
            _validate_tier(tier, f"authority.tiers[{index}]")

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        """Score the top-K candidates' authority."""
        section = config.get(self.name) or {}
        top_k = section.get("topK")
        if top_k is None:
            top_k = DEFAULT_TOP_K
        candidates = inputs.get("candidates")
        if type(candidates) is not list and (
            not isinstance(candidates, Sequence) or isinstance(candidates, str)
        ):
            raise assay.AssayError(
                "MALFORMED_INPUT", "candidates must be a list of candidates.", "candidates"
            )
        if not candidates:
            return assay.dimension_score(
                raw=0.0,
                max_points=self.max_points,
                explanation="No candidates retrieved — authority cannot be evaluated.",
                components={"weightedAuthority": 0},
                diagnostics={"candidateCount": 0, "unclassifiedCount": 0, "topK": top_k},
                warnings=[],
            )
        tiers = section.get("tiers")
        if tiers is None:
            tiers = DEFAULT_TIERS
        aggregation = section.get("aggregation")
        if aggregation is None:
            aggregation = _WEIGHTED

        scores = [_number(c.get("combinedScore")) for c in candidates]
        negated = [-score for score in scores]
        order = sorted(range(len(candidates)), key=negated.__getitem__)  # stable, best first
        order = order[: _slice_end(top_k, len(order))]
        keyword_ranks = self._keyword_ranks(tiers)
        ranks: list[float] = []
        points: list[int] = []
        buckets: set[int] = set()
        has_amendment = False
        for index in order:
            candidate = candidates[index]
            rank = _effective_rank(candidate, keyword_ranks)
            bucket = _bucket(rank)
            ranks.append(rank)
            points.append(BUCKET_POINTS[bucket])
            buckets.add(bucket)
            has_amendment = has_amendment or candidate.get("isAmendment") is True
        included = len(order)
        unclassified = ranks.count(UNCLASSIFIED_RANK)

        base, summary = _aggregate(aggregation, ranks, points, [scores[i] for i in order])
        multi_tier = len(buckets) > 1
        bonuses = int(has_amendment) + int(multi_tier)
        uncapped = base + bonuses
        raw = min(float(MAX_POINTS), uncapped)
        adjustments = {"cap": raw - uncapped} if raw < uncapped else {}

        notes = [summary]
        if has_amendment:
            notes.append(
                "Amendment sections included — amended version controls over original "
                "language (+1)."
            )
        if multi_tier:
            notes.append("Multiple authority tiers consulted (+1).")
        if unclassified == included:
            notes.append(
                "All included candidates are unclassified — authority signal is unavailable."
            )
        warnings = [_unclassified_warning(unclassified, included)] if unclassified else []
        return assay.dimension_score(
            raw=raw,
            max_points=self.max_points,
            explanation=" ".join(notes),
            components={"weightedAuthority": base, "bonuses": bonuses},
            adjustments=adjustments,
            diagnostics={
                "aggregation": aggregation,
                "topK": top_k,
                "includedCount": included,
                "unclassifiedCount": unclassified,
                "uniqueTierCount": len(buckets),
            },
            uncapped_raw=uncapped,
            warnings=warnings,
        )


def _aggregate(
    aggregation: Any, ranks: Sequence[float], points: Sequence[int], scores: Sequence[float]
) -> tuple[float, str]:
    """The base points and their explanation: *best* scores the best (lowest) rank, nothing
    included being 2 points; any other aggregation is the score-weighted mean, rounded half up."""
    if aggregation == _BEST:
        best_rank = _minimum(ranks)
        base = float(rank_points(best_rank))
        return base, (
            f"Best-source authority: rank {js_number(best_rank)} → {js_number(base)} pts "
            "(aggregation: best)."
        )
    weighted = _weighted_points(scores, points)
    base = js_round(weighted)
    return base, (
        f"Weighted authority across {len(ranks)} candidate(s): "
        f"{to_fixed(weighted, 2):.2f} → {js_number(base)} pts."
    )


def _unclassified_warning(unclassified: int, included: int) -> assay.ScoreWarning:
    return assay.ScoreWarning(
        code=UNCLASSIFIED,
        severity="warn",
        message=(
            f"{unclassified} of {included} included candidate(s) could not be classified into "
            "any authority tier."
        ),
        path="candidates[].authorityRank",
    )


def _validate_tier(tier: Any, path: str) -> None:
    if not isinstance(tier, Mapping):
        raise assay.AssayError("INVALID_CONFIG", f"{path} must be an object.", path)
    if not is_number(tier.get("rank")):
        raise assay.AssayError("INVALID_CONFIG", f"{path}.rank must be a number.", f"{path}.rank")
    keywords = tier.get("keywords")
    if keywords is None:
        return
    if (
        not isinstance(keywords, Sequence)
        or isinstance(keywords, str)
        or not all(isinstance(k, str) for k in keywords)
    ):
        raise assay.AssayError(
            "INVALID_CONFIG", f"{path}.keywords must be a list of strings.", f"{path}.keywords"
        )


def _keyword_ranks(tiers: Sequence[Mapping[str, Any]]) -> list[tuple[str, float]]:
    """(lower-cased keyword, tier rank) in tier order, then keyword order: the first contained
    keyword classifies a document type."""
    return [
        (keyword.lower(), float(tier["rank"]))
        for tier in tiers
        for keyword in tier.get("keywords") or ()
    ]


def _effective_rank(candidate: Mapping[str, Any], keyword_ranks: list[tuple[str, float]]) -> float:
    """``authorityRank`` when present (``null`` reads as 0); else the rank of the first tier with
    a keyword contained in ``documentType`` (case-insensitive); else 99."""
    if "authorityRank" in candidate:
        return _number(candidate["authorityRank"])
    document_type = candidate.get("documentType")
    if not document_type or not isinstance(document_type, str):
        return UNCLASSIFIED_RANK
    lowered = document_type.lower()
    for keyword, rank in keyword_ranks:
        if keyword in lowered:
            return rank
    return UNCLASSIFIED_RANK


def _weighted_points(scores: Sequence[float], points: Sequence[int]) -> float:
    """Sum of ``w_i * points_i`` with ``w_i = score_i / sum(scores)``, or uniform weights when
    the sum is not positive; 0 for no candidates."""
    total = 0.0
    for score in scores:
        total += score
    uniform = not total > 0
    weighted = 0.0
    for score, pts in zip(scores, points, strict=True):
        weight = 1 / len(scores) if uniform else score / total
        weighted += weight * pts
    return weighted
