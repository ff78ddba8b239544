"""Conformance of compute_confidence with the reference vectors (transparent-confidence 0.3).

Reads ../shared/conformance/scorecard/{cases,examples}.jsonl in place. Every machine-readable
field must match; free text (dimension ``explanation``, warning ``message``) is not compared.
Error lines must raise the same category: config error, strict input error with the same leading
field path, or structurally broken input.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from shared_data import shared_path

import assay
import assay.wire
import assay_scorecard
from assay.testing import assert_wire_equal

# some vectors carry unknown or ill-typed fields, which the reference ignores and assay warns
# about (a FieldWarning, outside the fields the vectors compare): noise here
pytestmark = pytest.mark.filterwarnings("ignore::assay_scorecard.field_checks.FieldWarning")

VECTORS = shared_path("conformance", "scorecard")

# Dimensions are provided by plugins; a vector that needs one that is not installed is skipped
# with the name of the plugin that provides it.
PROVIDERS = {
    "grounding": "assay-grounding",
    "relevance": "assay-grounding",
    "retrieval": "assay-retrieval",
    "consistency": "assay-retrieval",
    "authority": "assay-authority",
    "freshness": "assay-freshness",
    "corpus": "assay-corpus",
    "indexIntegrity": "assay-corpus",
}
FREE_TEXT = ("explanation", "message")
STRICT_INPUT = re.compile(r"^([A-Za-z0-9_.\[\]]+): ")


def _load() -> list[dict[str, Any]]:
    lines = []
    for name in ("cases.jsonl", "examples.jsonl"):
        with open(VECTORS / name, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if "fn" not in record:
                    lines.append(record)
    return lines


VECTOR_LINES = _load()


def _needed_dimensions(record: dict[str, Any]) -> set[str]:
    expected = record["expected"]
    needed = set(expected.get("dimensions", {})) if "error" not in expected else set()
    needed |= {key for key in record["config"] if key in PROVIDERS}
    return needed


@pytest.fixture(scope="module")
def registry() -> assay.Registry:
    return assay.default_registry()


@pytest.mark.parametrize("record", VECTOR_LINES, ids=[r["id"] for r in VECTOR_LINES])
def test_vector(record: dict[str, Any], registry: assay.Registry) -> None:
    missing = sorted(d for d in _needed_dimensions(record) if not registry.has("dimension", d))
    if missing:
        plugins = sorted({PROVIDERS[d] for d in missing})
        pytest.skip(
            f"needs dimension(s) {missing}: install {plugins} "
            "(uv run --all-packages installs every plugin; CI runs them all)"
        )
    inputs = assay.wire.from_json_safe(record["inputs"])
    config = assay.wire.from_json_safe(record["config"])
    expected = assay.wire.from_json_safe(record["expected"])
    if "error" in expected:
        _check_error(inputs, config, expected["error"])
        return
    scorecard = assay_scorecard.compute_confidence(inputs, config)
    actual = assay_scorecard.scorecard_to_wire(scorecard)
    assert_wire_equal(actual, expected, ignore=FREE_TEXT)
    for name, dimension in scorecard.dimensions.items():
        assert dimension.breakdown.raw == dimension.raw or (dimension.raw != dimension.raw), (
            f"{name}: breakdown.raw != raw"
        )


def _check_error(inputs: Any, config: Any, error: dict[str, str]) -> None:
    with pytest.raises(assay.AssayError) as caught:
        assay_scorecard.compute_confidence(inputs, config)
    raised = caught.value
    if error["name"] == "TypeError":
        assert raised.code == "MALFORMED_INPUT", raised
        return
    strict = STRICT_INPUT.match(error["message"])
    if strict:
        assert raised.code == "INVALID_INPUT", raised
        assert raised.path == strict.group(1), raised
    else:
        assert raised.code == "INVALID_CONFIG", raised
        assert raised.path and error["message"].startswith(raised.path), (raised, error)
