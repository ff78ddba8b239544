"""Hand-computed cases for every sub-signal of the index integrity dimension (RULES.md 10)."""

from __future__ import annotations

from typing import Any

import pytest

import assay
from assay.testing import check_dimension
from assay_corpus import IndexIntegrityDimension

DIM = IndexIntegrityDimension()
HEALTHY = {
    "expectedEmbeddingModelVersion": "v1",
    "actualEmbeddingModelVersion": "v1",
    "sourceVersionMatchRatio": 0.998,
    "staleIndexedDocumentRatio": 0.004,
    "failedIngestionCount": 0,
    "aclFilterConfirmed": True,
    "deletedSourceLeakageCount": 0,
}
FULL = {
    "embeddingVersion": 4,
    "sourceVersionMatch": 3,
    "staleness": 3,
    "ingestionFailures": 2,
    "aclFilter": 2,
    "deletedSourceLeakage": 1,
}


def score(section: dict[str, Any] | None = None, **changes: Any) -> assay.DimensionScore:
    signals = {k: v for k, v in {**HEALTHY, **changes}.items() if v is not ...}
    return DIM.score(
        {"candidates": [], "indexIntegrity": signals}, {"indexIntegrity": section or {}}
    )


def codes(result: assay.DimensionScore) -> list[tuple[str, str]]:
    return [(w.code, w.path.removeprefix("indexIntegrity.")) for w in result.warnings or ()]


def test_registers_through_its_entry_point() -> None:
    registry = assay.build_registry()
    assert isinstance(registry.get("dimension", "indexIntegrity"), IndexIntegrityDimension)


def test_contract_attributes_and_activation() -> None:
    assert (DIM.name, DIM.tier, DIM.max_points) == ("indexIntegrity", 2, 15)
    assert DIM.extension is True and DIM.check_order == 40
    assert DIM.is_active({}, {"indexIntegrity": {}}) and not DIM.is_active(
        {"indexIntegrity": HEALTHY}, {}
    )
    check_dimension(DIM, {"candidates": [], "indexIntegrity": HEALTHY}, {"indexIntegrity": {}})


def test_healthy_index_scores_15_with_diagnostics_in_order() -> None:
    result = score()
    assert result.raw == 15 and result.warnings == ()
    assert result.breakdown.components == FULL
    assert list(result.breakdown.diagnostics) == [
        *HEALTHY,
        "staleRatioWarnAt",
        "staleRatioZeroAt",
        "maxFailedIngestionsForFullScore",
        "requireAclFilterConfirmation",
    ]
    assert list(result.breakdown.diagnostics.values())[7:] == [0.01, 0.1, 0, True]


def test_no_signals_scores_2_with_every_warning_in_table_order() -> None:
    result = DIM.score({"candidates": []}, {"indexIntegrity": {}})
    assert result.raw == 2
    assert codes(result) == [
        ("index-integrity-incomplete", "expectedEmbeddingModelVersion"),
        ("index-integrity-incomplete", "sourceVersionMatchRatio"),
        ("index-integrity-incomplete", "staleIndexedDocumentRatio"),
        ("index-integrity-incomplete", "failedIngestionCount"),
        ("acl-filter-unconfirmed", "aclFilterConfirmed"),
        ("index-integrity-incomplete", "deletedSourceLeakageCount"),
    ]
    diagnostics = result.breakdown.diagnostics
    assert [diagnostics[k] for k in HEALTHY] == ["", "", -1, -1, -1, False, -1]


@pytest.mark.parametrize(
    ("changes", "points", "warning"),
    [
        ({"actualEmbeddingModelVersion": ...}, 2, "expectedEmbeddingModelVersion"),
        ({"expectedEmbeddingModelVersion": ...}, 2, "expectedEmbeddingModelVersion"),
        ({"actualEmbeddingModelVersion": "V1"}, 0, "actualEmbeddingModelVersion"),
        ({"actualEmbeddingModelVersion": ""}, 0, "actualEmbeddingModelVersion"),
    ],
)
def test_embedding_versions(changes: dict[str, Any], points: int, warning: str) -> None:
    result = score(**changes)
    assert result.breakdown.components["embeddingVersion"] == points
    assert [path for _, path in codes(result)] == [warning]


@pytest.mark.parametrize(
    ("ratio", "points"), [(1.0, 3), (0.99, 3), (0.98999, 2), (0.95, 2), (0.9, 1), (0.89999, 0)]
)
def test_source_version_match(ratio: float, points: int) -> None:
    assert score(sourceVersionMatchRatio=ratio).breakdown.components["sourceVersionMatch"] == points


@pytest.mark.parametrize(
    ("ratio", "section", "points"),
    [
        (0.0, {}, 3),
        (0.01, {}, 3),
        (0.0100001, {}, 1),
        (0.09999, {}, 1),
        (0.1, {}, 0),
        (0.05, {"staleRatioWarnAt": 0.05, "staleRatioZeroAt": 0.2}, 3),
        (0.2, {"staleRatioWarnAt": 0.05, "staleRatioZeroAt": 0.2}, 0),
    ],
)
def test_staleness(ratio: float, section: dict[str, Any], points: int) -> None:
    result = score(section, staleIndexedDocumentRatio=ratio)
    assert result.breakdown.components["staleness"] == points


@pytest.mark.parametrize(
    ("count", "allowed", "points"), [(0, 0, 2), (1, 0, 0), (1, 1, 2), (2, 1, 0)]
)
def test_ingestion_failures(count: int, allowed: int, points: int) -> None:
    result = score({"maxFailedIngestionsForFullScore": allowed}, failedIngestionCount=count)
    assert result.breakdown.components["ingestionFailures"] == points


@pytest.mark.parametrize(
    ("confirmed", "required", "points", "warned"),
    [
        (True, True, 2, False),
        (False, True, 0, True),
        (..., True, 0, True),
        (False, False, 0, False),
        (..., False, 0, False),
        ("yes", True, 0, True),
    ],
)
def test_acl_filter(confirmed: Any, required: bool, points: int, warned: bool) -> None:
    result = score({"requireAclFilterConfirmation": required}, aclFilterConfirmed=confirmed)
    assert result.breakdown.components["aclFilter"] == points
    assert (("acl-filter-unconfirmed", "aclFilterConfirmed") in codes(result)) is warned
    assert result.breakdown.diagnostics["requireAclFilterConfirmation"] is required


@pytest.mark.parametrize(("count", "points"), [(0, 1), (-1, 1), (1, 0), (5, 0), (0.5, 0)])
def test_deleted_source_leakage(count: float, points: int) -> None:
    result = score(deletedSourceLeakageCount=count)
    assert result.breakdown.components["deletedSourceLeakage"] == points
    leaks = [w for w in result.warnings or () if w.code == "deleted-source-leakage"]
    assert len(leaks) == (1 - points)
    assert all(w.severity == "error" for w in leaks)


def test_input_checks_flag_out_of_range_ratios_and_counts_in_order() -> None:
    inputs = {
        "candidates": [],
        "indexIntegrity": {
            "sourceVersionMatchRatio": 1.01,
            "staleIndexedDocumentRatio": -1,
            "failedIngestionCount": 1.5,
            "deletedSourceLeakageCount": -2,
        },
    }
    checks = DIM.check_inputs(inputs, {"indexIntegrity": {}})
    assert [(w.code, w.path) for w in checks] == [
        ("input-out-of-range", "indexIntegrity.sourceVersionMatchRatio"),
        ("input-out-of-range", "indexIntegrity.staleIndexedDocumentRatio"),
        ("input-out-of-range", "indexIntegrity.failedIngestionCount"),
        ("input-out-of-range", "indexIntegrity.deletedSourceLeakageCount"),
    ]
    assert checks[0].message == (
        "indexIntegrity.sourceVersionMatchRatio should be a finite number in the 0-1 range."
    )
    assert (
        checks[2].message == "indexIntegrity.failedIngestionCount should be a non-negative integer."
    )
    # out-of-range values still score by their comparisons (1.01 >= 0.99, -1 <= 0.01, -2 <= 0)
    result = DIM.score(inputs, {"indexIntegrity": {}})
    assert [result.breakdown.components[k] for k in list(FULL)[1:4]] == [3, 3, 0]


def test_input_checks_pass_healthy_signals_and_need_the_inputs() -> None:
    assert DIM.check_inputs({"indexIntegrity": HEALTHY}, {"indexIntegrity": {}}) == []
    assert DIM.check_inputs({}, {"indexIntegrity": {}}) == []
    assert DIM.check_inputs({"indexIntegrity": {"failedIngestionCount": True}}, {}) != []


@pytest.mark.parametrize(
    ("section", "path"),
    [
        ({"maxFailedIngestionsForFullScore": -1}, "indexIntegrity.maxFailedIngestionsForFullScore"),
        (
            {"maxFailedIngestionsForFullScore": 0.5},
            "indexIntegrity.maxFailedIngestionsForFullScore",
        ),
        ({"staleRatioWarnAt": 1.5}, "indexIntegrity.staleRatioWarnAt"),
        ({"staleRatioZeroAt": -0.1}, "indexIntegrity.staleRatioZeroAt"),
        ({"staleRatioWarnAt": 0.2}, "indexIntegrity.staleRatioZeroAt"),
        ({"staleRatioWarnAt": 0.05, "staleRatioZeroAt": 0.05}, "indexIntegrity.staleRatioZeroAt"),
        ({"staleRatioWarnAt": "0.05"}, "indexIntegrity.staleRatioWarnAt"),
        ([], "indexIntegrity"),
    ],
)
def test_invalid_config(section: Any, path: str) -> None:
    with pytest.raises(assay.AssayError) as raised:
        DIM.validate_config({"indexIntegrity": section})
    assert (raised.value.code, raised.value.path) == ("INVALID_CONFIG", path)


def test_valid_configs() -> None:
    DIM.validate_config({"indexIntegrity": {}})
    DIM.validate_config({"indexIntegrity": {"staleRatioWarnAt": 0, "staleRatioZeroAt": 1}})
    DIM.validate_config({})
