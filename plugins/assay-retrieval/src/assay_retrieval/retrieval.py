"""Retrieval confidence (max 25): quality, breadth and agreement of the retrieved candidates.

"Dimension 2" and "Retrieval Tuning" of transparent-confidence 0.3; the same rules, to the number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import attrs

import assay
from assay.jsmath import js_number, round_to
from assay_scorecard.signals import MISSING_CANDIDATES, is_finite_number, resolve_score_bands

MAX_POINTS = 25.0
_ABSENT = object()
_SAFE_INT = 1 << 53
DEFAULT_BANDS = {"full": 0.80, "high": 0.65, "medium": 0.50, "low": 0.35}

SINGLE_METHOD = assay.ScoreWarning(
    "single-retrieval-method",
    "warn",
    "All candidates were returned by a single retrieval method while minConfirmedMethods is "
    "greater than 1.",
    "candidates[].retrievalScores",
)
AMBIGUOUS_TOP = assay.ScoreWarning(
    "ambiguous-top-results",
    "warn",
    "Top retrieval results are close together; no clear winner was identified.",
    "candidates[].combinedScore",
)


def _fail(message: str, path: str) -> assay.AssayError:
    return assay.AssayError("INVALID_CONFIG", message, path)


def _require_finite(value: Any, path: str, minimum: float | None = None) -> None:
    if not is_finite_number(value) or (minimum is not None and value < minimum):
        bound = f" >= {js_number(minimum)}" if minimum is not None else ""
        raise _fail(f"must be a finite number{bound}, got {value!r}", path)


def _require_int(value: Any, path: str, minimum: int) -> None:
    if not is_finite_number(value) or not float(value).is_integer() or value < minimum:
        raise _fail(f"must be an integer >= {minimum}, got {value!r}", path)


@attrs.frozen
class RetrievalSettings:
    """The resolved ``retrieval`` config section (defaults merged, validated)."""

    bands: Mapping[str, float]
    default_method_threshold: float = 0
    method_thresholds: Mapping[str, float] = attrs.field(factory=dict)
    min_confirmed_methods: int = 2
    top_k: int = 3
    min_top_score_gap: float = 0.05
    duplicate_mode: str = "diagnostic"
    penalty_per_duplicate: float = 1
    max_duplicate_penalty: float = 4
    rank_mode: str = "diagnostic"
    after_rank: int = 10
    penalty_per_rank: float = 0.25
    max_rank_penalty: float = 3

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> RetrievalSettings:
        """Resolve and validate ``config["retrieval"]`` (checked in the order transparent-confidence 0.3 checks them).

        :raises assay.AssayError: ``INVALID_CONFIG`` with the field path.
        """
        section = config.get("retrieval") or {}
        if not isinstance(section, Mapping):
            raise _fail("retrieval must be an object", "retrieval")
        bands = resolve_score_bands(
            section.get("scoreBands"), "retrieval.scoreBands", DEFAULT_BANDS
        )
        top_k = section.get("topK", 3)
        _require_int(top_k, "retrieval.topK", 1)
        min_confirmed = section.get("minConfirmedMethods", 2)
        _require_int(min_confirmed, "retrieval.minConfirmedMethods", 1)
        default_threshold = section.get("defaultMethodThreshold", 0)
        _require_finite(default_threshold, "retrieval.defaultMethodThreshold")
        thresholds = section.get("methodThresholds") or {}
        for method, value in thresholds.items():
            _require_finite(value, f"retrieval.methodThresholds.{method}")
        dup: dict[str, Any] = {"mode": "diagnostic", "penaltyPerDuplicate": 1, "maxPenalty": 4}
        dup.update(section.get("duplicateContent") or {})
        if dup["mode"] not in ("diagnostic", "penalize"):
            raise _fail(
                "mode must be 'diagnostic' or 'penalize'", "retrieval.duplicateContent.mode"
            )
        _require_finite(
            dup["penaltyPerDuplicate"], "retrieval.duplicateContent.penaltyPerDuplicate", 0
        )
        _require_finite(dup["maxPenalty"], "retrieval.duplicateContent.maxPenalty", 0)
        rank: dict[str, Any] = {
            "mode": "diagnostic",
            "afterRank": 10,
            "penaltyPerRank": 0.25,
            "maxPenalty": 3,
        }
        rank.update(section.get("rankPenalty") or {})
        if rank["mode"] not in ("diagnostic", "penalize"):
            raise _fail("mode must be 'diagnostic' or 'penalize'", "retrieval.rankPenalty.mode")
        _require_int(rank["afterRank"], "retrieval.rankPenalty.afterRank", 1)
        _require_finite(rank["penaltyPerRank"], "retrieval.rankPenalty.penaltyPerRank", 0)
        _require_finite(rank["maxPenalty"], "retrieval.rankPenalty.maxPenalty", 0)
        return cls(
            bands=bands,
            default_method_threshold=default_threshold,
            method_thresholds=dict(thresholds),
            min_confirmed_methods=int(min_confirmed),
            top_k=int(top_k),
            min_top_score_gap=section.get("minTopScoreGapForClearWinner", 0.05),
            duplicate_mode=dup["mode"],
            penalty_per_duplicate=dup["penaltyPerDuplicate"],
            max_duplicate_penalty=dup["maxPenalty"],
            rank_mode=rank["mode"],
            after_rank=int(rank["afterRank"]),
            penalty_per_rank=rank["penaltyPerRank"],
            max_rank_penalty=rank["maxPenalty"],
        )


def _is_valid_rank(value: Any) -> bool:
    return is_finite_number(value) and value > 0 and float(value).is_integer()


def _combined(candidate: Mapping[str, Any]) -> float:
    """The combined score as JavaScript arithmetic sees it (null -> 0, non-numbers -> NaN)."""
    value = candidate.get("combinedScore")
    kind = type(value)
    if kind is float or kind is int:
        return value  # type: ignore[return-value]
    if value is None:
        return 0.0
    return float(value) if isinstance(value, int | float) else math.nan


def population_std(values: list[float]) -> float:
    """Population standard deviation, summing left to right as the reference does (not with
    ``sum``, which compensates rounding on Python 3.12+).

    A square beyond binary64 is Infinity, as in JavaScript.
    """
    n = len(values)
    total = 0.0
    for value in values:
        total += value
    mean = total / n
    squares = 0.0
    for value in values:
        deviation = value - mean
        squares += deviation * deviation  # x * x overflows to inf where x ** 2 would raise
    return math.sqrt(squares / n)


class RetrievalConfidence(assay.Dimension):
    """Method agreement (0-15) + score magnitude (0-8) + source diversity (0-3) + breadth
    (0-2), optional duplicate-content and late-rank penalties, capped at 25. Always active."""

    name = "retrieval"
    tier = 1
    max_points = MAX_POINTS
    default_weight = MAX_POINTS
    extension = False
    reads = frozenset(
        {
            "candidates",
            "candidates[].retrievalScores",
            "candidates[].combinedScore",
            "candidates[].documentId",
            "candidates[].extractionQuality",
            "candidates[].contentHash",
            "candidates[].rank",
        }
    )
    missing_signals = MappingProxyType({MISSING_CANDIDATES.code: "candidates"})

    def __init__(self) -> None:
        # resolved settings per config section object; the section is kept so its id stays valid
        self._settings_cache: dict[int, tuple[Any, RetrievalSettings]] = {}
        # the last section resolved and its settings, one tuple (read and replaced atomically):
        # a scorer asks for the same section answer after answer
        self._last: tuple[Any, RetrievalSettings | None] = (_ABSENT, None)

    def validate_config(self, config: Mapping[str, Any]) -> None:
        RetrievalSettings.from_config(config)

    def settings(self, config: Mapping[str, Any]) -> RetrievalSettings:
        """The resolved settings for ``config`` (memoized per config section object, the
        1024 most recently resolved)."""
        section = config.get("retrieval")
        last = self._last
        if last[0] is section:
            return last[1]  # type: ignore[return-value]
        hit = self._settings_cache.get(id(section))
        if hit is not None and hit[0] is section:
            self._last = hit
            return hit[1]
        settings = RetrievalSettings.from_config(config)
        cache = self._settings_cache
        if len(cache) >= 1024:
            cache.clear()  # atomic: safe beside other threads
        cache[id(section)] = self._last = (section, settings)
        return settings

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        s = self.settings(config)
        candidates = inputs["candidates"]
        n = len(candidates)
        if n == 0:
            return assay.dimension_score(
                raw=0,
                max_points=MAX_POINTS,
                explanation="No retrieved candidates were provided.",
                components={"agreement": 0, "magnitude": 0, "diversity": 0, "breadth": 0},
                diagnostics={
                    "candidateCount": 0,
                    "topK": s.top_k,
                    "duplicateContentHashCount": 0,
                    "rankedCandidateCount": 0,
                    "missingRankCount": 0,
                    "singleMethodCandidateCount": 0,
                },
                warnings=[MISSING_CANDIDATES],
            )
        warnings: list[assay.ScoreWarning] = []
        adjustments: dict[str, float] = {}

        # One pass over the candidates collects everything the sub-signals need.
        thresholds = s.method_thresholds
        default_threshold = s.default_method_threshold
        min_confirmed = s.min_confirmed_methods
        combined: list[float] = []
        document_ids: set[Any] = set()
        hashes: list[Any] = []
        valid_ranks: list[float] = []
        confirmed = single = 0
        for candidate in candidates:
            value = candidate.get("combinedScore")
            kind = type(value)
            combined.append(value if kind is float or kind is int else _combined(candidate))
            scores = candidate["retrievalScores"]
            if len(scores) < 2:
                single += 1
            confirming = 0
            if thresholds:
                for method, value in scores.items():
                    if value is None:
                        value = 0
                    kind = type(value)
                    if (kind is float or kind is int or isinstance(value, int | float)) and (
                        value > thresholds.get(method, default_threshold)
                    ):
                        confirming += 1
            else:
                for value in scores.values():
                    kind = type(value)
                    if kind is float or kind is int:
                        if value > default_threshold:
                            confirming += 1
                    elif value is None:
                        if default_threshold < 0:
                            confirming += 1
                    elif isinstance(value, int | float) and value > default_threshold:
                        confirming += 1
            if confirming >= min_confirmed:
                confirmed += 1
            # ``in`` before reading: the optional keys are more often absent than not
            if "documentId" in candidate:
                document_id = candidate["documentId"]
                if type(document_id) is not str and isinstance(document_id, list | dict):
                    raise assay.AssayError(
                        "MALFORMED_INPUT",
                        "documentId must be a string or a number",
                        f"candidates[{next(i for i, c in enumerate(candidates) if c is candidate)}]"
                        ".documentId",
                    )
                document_ids.add(document_id)
            if "contentHash" in candidate:
                hashes.append(candidate["contentHash"])
            if "rank" in candidate:
                rank = candidate["rank"]
                if rank is not None and (
                    (type(rank) is int and 0 < rank < _SAFE_INT) or _is_valid_rank(rank)
                ):
                    valid_ranks.append(rank)
        agreement = 15 if confirmed >= 3 else 12 if confirmed == 2 else 8 if confirmed == 1 else 3
        if single == n and min_confirmed > 1:
            warnings.append(SINGLE_METHOD)

        # stable descending order by combined score (ties keep input order)
        if n > 1:
            order = sorted(range(n), key=combined.__getitem__, reverse=True)
            scores_sorted = list(map(combined.__getitem__, order))
        else:
            order, scores_sorted = [0], combined
        top = order[: s.top_k]
        effective_sum = 0.0
        for index in top:
            candidate = candidates[index]
            value = combined[index]
            if "extractionQuality" in candidate:
                quality = candidate["extractionQuality"]
                value = value * (0.0 if quality is None else quality)
            effective_sum += value
        average = effective_sum / len(top)
        bands = s.bands
        if average >= bands["full"]:
            magnitude = 8
        elif average >= bands["high"]:
            magnitude = 6
        elif average >= bands["medium"]:
            magnitude = 4
        elif average >= bands["low"]:
            magnitude = 2
        else:
            magnitude = 0

        unique_documents = len(document_ids)
        diversity = 3 if unique_documents >= 3 else 1 if unique_documents == 2 else 0
        breadth = 2 if n >= 5 else 1 if n >= 3 else 0

        duplicates = len(hashes) - len(set(hashes)) if hashes else 0
        penalize_duplicates = s.duplicate_mode == "penalize"
        if duplicates > 0:
            warnings.append(
                assay.ScoreWarning(
                    "duplicate-content",
                    "warn" if penalize_duplicates else "info",
                    f"{duplicates} duplicate content hash(es) detected among candidates.",
                    "candidates[].contentHash",
                )
            )
            if penalize_duplicates:
                penalty = min(duplicates * s.penalty_per_duplicate, s.max_duplicate_penalty)
                if penalty:
                    adjustments["duplicateContentPenalty"] = -penalty

        missing_ranks = n - len(valid_ranks)
        if s.rank_mode == "penalize":
            if missing_ranks:
                warnings.append(
                    assay.ScoreWarning(
                        "rank-signal-missing",
                        "info",
                        f"{missing_ranks} candidate rank value(s) missing while rank penalty "
                        "is active.",
                        "candidates[].rank",
                    )
                )
            late = 0.0
            for rank in valid_ranks:
                if rank > s.after_rank:
                    late += (rank - s.after_rank) * s.penalty_per_rank
            penalty = min(late, s.max_rank_penalty)
            if penalty:
                adjustments["rankPenalty"] = -penalty

        gap = scores_sorted[0] - scores_sorted[1] if n >= 2 else 0.0
        if n >= 2 and gap < s.min_top_score_gap:
            warnings.append(AMBIGUOUS_TOP)

        uncapped: float = agreement + magnitude + diversity + breadth
        if adjustments:
            uncapped += sum(adjustments.values())
        raw: float
        if uncapped != uncapped:  # NaN passes through
            raw = uncapped
        else:  # min(MAX_POINTS, max(0.0, uncapped)), with the types those return
            raw = uncapped if uncapped > 0.0 else 0.0
            if not raw < MAX_POINTS:
                raw = MAX_POINTS
        if raw < uncapped:
            adjustments["cap"] = raw - uncapped
        explanation = (
            f"{confirmed} candidates confirmed by {s.min_confirmed_methods}+ retrieval methods. "
            f"Top-{s.top_k} effective score avg: {average:.2f}. "
            f"{unique_documents} distinct source documents. {n} total candidates."
        )
        return assay.dimension_score(
            raw=raw,
            max_points=MAX_POINTS,
            explanation=explanation,
            components={
                "agreement": agreement,
                "magnitude": magnitude,
                "diversity": diversity,
                "breadth": breadth,
            },
            adjustments=adjustments,
            diagnostics={
                "avgEffectiveScore": round_to(average, 4),
                "candidateCount": n,
                "confirmedCandidateCount": confirmed,
                "duplicateContentHashCount": duplicates,
                "missingRankCount": missing_ranks,
                "rankedCandidateCount": len(valid_ranks),
                "scoreStdDev": round_to(population_std(scores_sorted), 4) if n > 1 else 0,
                "singleMethodCandidateCount": single,
                "topK": s.top_k,
                "topScoreGap": round_to(gap, 4),
                "uniqueDocumentCount": unique_documents,
            },
            uncapped_raw=uncapped,
            warnings=warnings or None,
        )
