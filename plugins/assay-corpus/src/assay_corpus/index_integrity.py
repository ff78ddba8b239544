"""The index integrity dimension ("Index Integrity", max 15 points, Tier 2).

Is the index itself healthy: built with the expected embedding model, in step with its sources,
not stale, fully ingested, filtered by ACL, free of deleted content? Six operational sub-signals
each earn a few points. The rules are those of transparent-confidence 0.3.

A sub-signal given as ``None`` is treated as not provided.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import assay
from assay_corpus.numbers import is_integer
from assay_corpus.readiness import ReadinessDimension
from assay_scorecard.signals import is_finite_number, is_number

__all__ = ["DEFAULTS", "IndexIntegrityDimension"]

#: Defaults of ``config.indexIntegrity``.
DEFAULTS: Mapping[str, Any] = {
    "staleRatioWarnAt": 0.01,
    "staleRatioZeroAt": 0.1,
    "maxFailedIngestionsForFullScore": 0,
    "requireAclFilterConfirmation": True,
}
INCOMPLETE = "index-integrity-incomplete"
RATIO_FIELDS = ("sourceVersionMatchRatio", "staleIndexedDocumentRatio")
COUNT_FIELDS = ("failedIngestionCount", "deletedSourceLeakageCount")
#: The seven inputs in diagnostics order, with the value shown when one is not provided.
INPUT_FIELDS: tuple[tuple[str, Any], ...] = (
    ("expectedEmbeddingModelVersion", ""),
    ("actualEmbeddingModelVersion", ""),
    ("sourceVersionMatchRatio", -1),
    ("staleIndexedDocumentRatio", -1),
    ("failedIngestionCount", -1),
    ("aclFilterConfirmed", False),
    ("deletedSourceLeakageCount", -1),
)
#: (minimum sourceVersionMatchRatio, points), first match wins, else 0.
SOURCE_MATCH_STEPS: tuple[tuple[float, int], ...] = ((0.99, 3), (0.95, 2), (0.90, 1))
_LABELS = (
    ("embeddingVersion", "Embedding version", 4),
    ("sourceVersionMatch", "Source version match", 3),
    ("staleness", "Staleness", 3),
    ("ingestionFailures", "Ingestion failures", 2),
    ("aclFilter", "ACL filter", 2),
    ("deletedSourceLeakage", "Deleted source leakage", 1),
)


_COMPONENTS = tuple(key for key, _, _ in _LABELS)
# "Embedding version: {}/4. Source version match: {}/3. ..." (each {} an int of points)
_EXPLANATION = " ".join(f"{label}: {{}}/{top}." for _, label, top in _LABELS)


def _path(field: str) -> str:
    return f"indexIntegrity.{field}"


def _warning(code: str, field: str, message: str, severity: str = "warn") -> assay.ScoreWarning:
    return assay.ScoreWarning(code=code, severity=severity, message=message, path=_path(field))


def _incomplete(field: str, message: str | None = None) -> assay.ScoreWarning:
    if message is None:
        known = _INCOMPLETE.get(field)
        if known is None:
            known = _INCOMPLETE[field] = _warning(INCOMPLETE, field, f"{field} was not provided.")
        return known
    return _warning(INCOMPLETE, field, message)


# warnings are immutable records: the fixed ones are built once
_INCOMPLETE: dict[str, assay.ScoreWarning] = {}
_EMBEDDING_INCOMPLETE = _warning(
    INCOMPLETE,
    "expectedEmbeddingModelVersion",
    "Embedding model version information is incomplete.",
)
_EMBEDDING_MISMATCH = _warning(
    "embedding-version-mismatch",
    "actualEmbeddingModelVersion",
    "Actual embedding model version does not match the expected index version.",
)
_ACL_UNCONFIRMED = _warning(
    "acl-filter-unconfirmed",
    "aclFilterConfirmed",
    "ACL or tenant filter confirmation was not provided.",
)
_LEAKAGE = _warning(
    "deleted-source-leakage",
    "deletedSourceLeakageCount",
    "Deleted source content appears in retrieval results.",
    severity="error",
)


def _number(value: Any) -> float:
    return float(value) if is_number(value) else math.nan


def _settings(config: Mapping[str, Any]) -> dict[str, Any]:
    section = config.get("indexIntegrity") or {}
    return {
        key: default if section.get(key) is None else section[key]
        for key, default in DEFAULTS.items()
    }


class IndexIntegrityDimension(ReadinessDimension):
    """Index integrity, 0-15 points, active when ``config["indexIntegrity"]`` is present.

    Input ``inputs.indexIntegrity``: ``expectedEmbeddingModelVersion`` /
    ``actualEmbeddingModelVersion`` (equal: 4, different: 0, either missing: 2),
    ``sourceVersionMatchRatio`` (>= .99: 3, >= .95: 2, >= .90: 1), ``staleIndexedDocumentRatio``
    (<= warnAt: 3, < zeroAt: 1), ``failedIngestionCount`` (<= max: 2), ``aclFilterConfirmed``
    (true: 2), ``deletedSourceLeakageCount`` (0 or less: 1; more: 0 and an ``error`` warning).
    A missing sub-signal scores 0 with an ``index-integrity-incomplete`` warning (the embedding
    pair scores 2; a missing ACL confirmation warns ``acl-filter-unconfirmed`` when required).
    """

    name = "indexIntegrity"
    check_order = 40
    reads = frozenset({"indexIntegrity"})
    missing_signals = MappingProxyType({INCOMPLETE: "indexIntegrity"})

    def validate_config(self, config: Mapping[str, Any]) -> None:
        """Config checks for ``indexIntegrity``: ``maxFailedIngestionsForFullScore`` a
        non-negative integer; ``staleRatioWarnAt`` and ``staleRatioZeroAt`` finite in [0, 1]
        with zeroAt > warnAt.

        :raises assay.AssayError: ``INVALID_CONFIG`` with the field path.
        """
        if self.name not in config:
            return
        if config[self.name] is not None and not isinstance(config[self.name], Mapping):
            raise assay.AssayError(
                "INVALID_CONFIG", "indexIntegrity must be an object.", "indexIntegrity"
            )
        settings = _settings(config)
        max_failed = settings["maxFailedIngestionsForFullScore"]
        if not is_integer(max_failed) or max_failed < 0:
            raise assay.AssayError(
                "INVALID_CONFIG",
                "indexIntegrity.maxFailedIngestionsForFullScore must be a non-negative integer.",
                "indexIntegrity.maxFailedIngestionsForFullScore",
            )
        for key in ("staleRatioWarnAt", "staleRatioZeroAt"):
            if not _is_ratio(settings[key]):
                raise assay.AssayError(
                    "INVALID_CONFIG", f"indexIntegrity.{key} must be in the 0-1 range.", _path(key)
                )
        if not settings["staleRatioZeroAt"] > settings["staleRatioWarnAt"]:
            raise assay.AssayError(
                "INVALID_CONFIG",
                "indexIntegrity.staleRatioZeroAt must be greater than staleRatioWarnAt.",
                "indexIntegrity.staleRatioZeroAt",
            )

    def check_inputs(
        self, inputs: Mapping[str, Any], config: Mapping[str, Any]
    ) -> list[assay.ScoreWarning]:
        """``input-out-of-range`` for ratios outside [0, 1] and counts that are not non-negative
        integers, when ``inputs.indexIntegrity`` is given."""
        signals = inputs.get(self.name)
        if not isinstance(signals, Mapping):
            return []
        warnings = []
        for field in ("sourceVersionMatchRatio", "staleIndexedDocumentRatio", *COUNT_FIELDS):
            value = signals.get(field)
            if value is None:
                continue
            if field in RATIO_FIELDS and not _is_ratio(value):
                expectation = "a finite number in the 0-1 range"
            elif field in COUNT_FIELDS and not (is_integer(value) and value >= 0):
                expectation = "a non-negative integer"
            else:
                continue
            warnings.append(
                _warning("input-out-of-range", field, f"{_path(field)} should be {expectation}.")
            )
        return warnings

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        """Score the six sub-signals."""
        settings = _settings(config)
        signals = inputs.get(self.name)
        if type(signals) is not dict and not isinstance(signals, Mapping):
            signals = {}
        warnings: list[assay.ScoreWarning] = []

        expected_version = signals.get("expectedEmbeddingModelVersion")
        actual_version = signals.get("actualEmbeddingModelVersion")
        if expected_version is None or actual_version is None:
            embedding = 2
            warnings.append(_EMBEDDING_INCOMPLETE)
        elif expected_version != actual_version:
            embedding = 0
            warnings.append(_EMBEDDING_MISMATCH)
        else:
            embedding = 4

        source_match = _scored(signals, "sourceVersionMatchRatio", warnings, _source_points)
        staleness = _scored(
            signals,
            "staleIndexedDocumentRatio",
            warnings,
            lambda ratio: _stale_points(ratio, settings),
        )
        ingestion = _scored(
            signals,
            "failedIngestionCount",
            warnings,
            lambda count: 2 if count <= settings["maxFailedIngestionsForFullScore"] else 0,
        )
        acl = 2 if signals.get("aclFilterConfirmed") is True else 0
        if not acl and settings["requireAclFilterConfirmation"]:
            warnings.append(_ACL_UNCONFIRMED)
        leakage = _scored(signals, "deletedSourceLeakageCount", warnings, _leakage_points)
        if leakage == 0 and _number(signals.get("deletedSourceLeakageCount")) > 0:
            warnings.append(_LEAKAGE)

        points = (embedding, source_match, staleness, ingestion, acl, leakage)
        components = dict(zip(_COMPONENTS, points, strict=True))
        raw = float(embedding + source_match + staleness + ingestion + acl + leakage)
        diagnostics: dict[str, Any] = {
            field: shown if signals.get(field) is None else signals[field]
            for field, shown in INPUT_FIELDS
        }
        diagnostics.update(settings)
        return assay.dimension_score(
            raw=raw,
            max_points=self.max_points,
            explanation=_EXPLANATION.format(*points),
            components=components,
            diagnostics=diagnostics,
            warnings=warnings,
        )


def _is_ratio(value: Any) -> bool:
    return is_finite_number(value) and 0 <= value <= 1


def _scored(
    signals: Mapping[str, Any], field: str, warnings: list[assay.ScoreWarning], points: Any
) -> int:
    """Points of one numeric sub-signal, or 0 and an ``index-integrity-incomplete`` warning
    when it is not provided (a non-number reads as NaN and scores by its comparisons)."""
    value = signals.get(field)
    if value is None:
        warnings.append(_incomplete(field))
        return 0
    return int(points(_number(value)))


def _source_points(ratio: float) -> int:
    for minimum, points in SOURCE_MATCH_STEPS:
        if ratio >= minimum:
            return points
    return 0


def _stale_points(ratio: float, settings: Mapping[str, Any]) -> int:
    if ratio <= settings["staleRatioWarnAt"]:
        return 3
    if ratio < settings["staleRatioZeroAt"]:
        return 1
    return 0


def _leakage_points(count: float) -> int:
    return 0 if count > 0 else 1
