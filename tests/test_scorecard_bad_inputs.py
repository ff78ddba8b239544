"""Inputs and configs of the wrong type or size raise AssayError with a stable code and a path,
never a TypeError, OverflowError or a NaN total; a bounded seeded fuzz checks only AssayError
escapes compute_confidence, create_scorer and score_jsonl."""

from __future__ import annotations

import io
import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay import AssayError
from assay_scorecard import compute_confidence, create_scorer, score_jsonl

# fuzzed inputs carry unknown and ill-typed fields: the FieldWarning each gives is tested
# where it is the subject (assay-scorecard's test_field_checks.py) and noise here
pytestmark = pytest.mark.filterwarnings("ignore::assay_scorecard.field_checks.FieldWarning")

B: dict[str, Any] = {
    "supportLevel": "high",
    "hasConflict": False,
    "candidates": [{"retrievalScores": {"a": 0.9, "b": 0.8}, "combinedScore": 0.9}],
}


def _cand(**fields: Any) -> dict[str, Any]:
    return {**B, "candidates": [{**B["candidates"][0], **fields}]}


@pytest.mark.parametrize(
    ("inputs", "config", "code", "path"),
    [
        ({**B, "supportLevel": ["high"]}, None, "MALFORMED_INPUT", "supportLevel"),
        (_cand(documentId=["d"]), None, "MALFORMED_INPUT", "candidates[0].documentId"),
        (_cand(combinedScore=10**400), None, "MALFORMED_INPUT", "candidates[0].combinedScore"),
        ({**B, "citationCount": 10**400}, None, "MALFORMED_INPUT", "citationCount"),
        (B, {"signalPolicy": [1]}, "INVALID_CONFIG", "signalPolicy"),
        (B, {"signalPolicy": {"require": 0.5}}, "INVALID_CONFIG", "signalPolicy"),
        (B, {"actionPolicy": 5}, "INVALID_CONFIG", "actionPolicy"),
        (B, {"actionPolicy": {"reviewOnWarnings": 7}}, "INVALID_CONFIG", "actionPolicy"),
        (B, {"retrieval": {"methodThresholds": 1}}, "INVALID_CONFIG", "retrieval"),
        (B, {"retrieval": {"rankPenalty": [1]}}, "INVALID_CONFIG", "retrieval"),
        (B, {"weights": {"grounding": 10**400}}, "INVALID_CONFIG", "weights.grounding"),
    ],
)
def test_wrong_types_and_sizes_are_coded_errors_with_a_path(
    inputs: Any, config: Any, code: str, path: str
) -> None:
    with pytest.raises(AssayError) as info:
        compute_confidence(inputs, config)
    assert (info.value.code, info.value.path) == (code, path)


def test_weights_whose_sum_overflows_are_invalid_config_not_a_nan_total() -> None:
    huge = {"grounding": 1e308, "retrieval": 1e308, "authority": 1e308, "freshness": 1e308}
    with pytest.raises(AssayError) as info:
        compute_confidence(B, {"weights": huge})
    assert (info.value.code, info.value.path) == ("INVALID_CONFIG", "weights")
    card = compute_confidence(B, {"weights": {"grounding": 1e307, "retrieval": 1e307}})
    assert math.isfinite(card.total)


_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**400), max_value=10**400)
    | st.sampled_from([0.0, 0.5, 1.0, -1.0, 1e308, math.nan, math.inf])
    | st.sampled_from(["", "high", "medium", "low", "none", "a", "2024-01-01", "not a date"])
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["a", "b", "high", "x"]), inner, max_size=3)
    ),
    max_leaves=6,
)
_INPUT_KEYS = [
    "supportLevel", "hasConflict", "citationCount", "ambiguityNotes", "documentsSilent",
    "claimSupport", "faithfulnessScore", "presentTypes", "corpusTypeCount", "indexIntegrity",
]  # fmt: skip
_CANDIDATE_KEYS = [
    "retrievalScores", "combinedScore", "documentId", "contentHash", "rank",
    "extractionQuality", "lastUpdated", "authority", "sourceType",
]  # fmt: skip
_CANDIDATE = st.fixed_dictionaries(
    {"retrievalScores": st.dictionaries(st.sampled_from(["a", "b"]), _SCALARS, max_size=2)},
    optional={key: _JSON for key in _CANDIDATE_KEYS[1:]},
)
_INPUTS = st.fixed_dictionaries(
    {"candidates": st.lists(_CANDIDATE, max_size=3)},
    optional={key: _JSON for key in _INPUT_KEYS},
)
_CONFIG = st.none() | st.fixed_dictionaries(
    {},
    optional={
        key: _JSON
        for key in (
            "weights",
            "actionPolicy",
            "signalPolicy",
            "retrieval",
            "freshness",
            "corpus",
            "authority",
            "grounding",
            "validation",
        )
    },
)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(inputs=_INPUTS, config=_CONFIG)
def test_fuzz_only_assay_error_escapes_compute_confidence(inputs: Any, config: Any) -> None:
    try:
        card = compute_confidence(inputs, config)
    except AssayError:
        return
    assert isinstance(card.total, float)


@settings(max_examples=100, derandomize=True, deadline=None)
@given(config=_CONFIG, inputs=st.lists(_INPUTS, max_size=3))
def test_fuzz_only_assay_error_escapes_create_scorer_and_score_jsonl(
    config: Any, inputs: list[Any]
) -> None:
    try:
        create_scorer(config)
    except AssayError:
        return
    lines = [json.dumps(row, default=str) for row in inputs]  # NaN / 10**400 written as JSON
    sink = io.BytesIO()
    summary = score_jsonl(io.BytesIO("\n".join(lines).encode() + b"\n"), sink, config)
    out = sink.getvalue().splitlines()
    assert summary.rows == len(out) == len(inputs)
    for line in out:
        record = json.loads(line)
        assert "total" in record or record["error"]["code"] != "INTERNAL_ERROR", record


def test_an_unreadable_last_updated_is_invalid_input_in_strict_mode() -> None:
    inputs = _cand(lastUpdated="not a date")
    config: dict[str, Any] = {"freshness": {"now": "2026-01-01T00:00:00Z"}}
    with pytest.raises(AssayError) as info:
        compute_confidence(inputs, {**config, "validation": "strict"})
    assert (info.value.code, info.value.path) == ("INVALID_INPUT", "candidates[0].lastUpdated")
    compute_confidence(inputs, config)  # warn mode: as the reference (a NaN age, no warning)
