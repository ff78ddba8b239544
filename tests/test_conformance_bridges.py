"""Conformance of the evaluator bridges with the reference (RULES.md section 17).

Reads every bridge line of ../shared/conformance/scorecard/cases.jsonl (``c-br-*``) and
examples.jsonl (``fn`` lines of the evaluator-bridge example) in place and checks every field.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from shared_data import shared_path

import assay
from assay_bridges import (
    from_custom_judge,
    from_deepeval_like,
    from_ragas_like,
    from_trulens_like,
    merge_evaluation_signals,
)

SCORECARD_VECTORS = shared_path("conformance", "scorecard")

ADAPTERS = {
    "fromRagasLike": from_ragas_like,
    "fromDeepEvalLike": from_deepeval_like,
    "fromTruLensLike": from_trulens_like,
    "fromCustomJudge": from_custom_judge,
}
BRIDGE_FNS = {*ADAPTERS, "mergeEvaluationSignals"}
NON_FINITE = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def _decode(value: Any) -> Any:
    """Undo the vectors' ``{"$float": "NaN"}`` encoding of non-finite numbers."""
    if isinstance(value, dict):
        if set(value) == {"$float"}:
            return NON_FINITE[value["$float"]]
        return {key: _decode(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_decode(item) for item in value]
    return value


def _bridge_cases() -> list[dict[str, Any]]:
    cases = []
    for name in ("cases.jsonl", "examples.jsonl"):
        with (SCORECARD_VECTORS / name).open(encoding="utf-8") as lines:
            cases += [_decode(json.loads(line)) for line in lines if line.strip()]
    return [case for case in cases if case.get("fn") in BRIDGE_FNS]


def _same(actual: Any, expected: Any) -> bool:
    """Equal as the vectors define it: numbers numerically (NaN equals NaN), same key sets."""
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and actual.keys() == expected.keys()
            and all(_same(actual[key], expected[key]) for key in expected)
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(_same(a, e) for a, e in zip(actual, expected, strict=True))
        )
    if isinstance(expected, bool) or expected is None or isinstance(expected, str):
        return type(actual) is type(expected) and actual == expected
    if isinstance(expected, int | float):
        if isinstance(actual, bool) or not isinstance(actual, int | float):
            return False
        return (math.isnan(actual) and math.isnan(expected)) or actual == expected
    raise AssertionError(f"unexpected value in a vector: {expected!r}")


CASES = _bridge_cases()


def test_all_bridge_vectors_are_found() -> None:
    ids = [case["id"] for case in CASES]
    assert len([i for i in ids if i.startswith("c-br-")]) == 24
    assert {"ex-evaluator-bridge-signals", "ex-evaluator-bridge-merge"} <= set(ids)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_bridge_vector(case: dict[str, Any]) -> None:
    expected = case["expected"]
    if case["fn"] in ADAPTERS:
        actual = ADAPTERS[case["fn"]](case["result"]).to_wire()
        assert _same(actual, expected), (actual, expected)
        return
    if "error" in expected:
        # The reference throws a TypeError on structurally broken input: our MALFORMED_INPUT.
        assert expected["error"]["name"] == "TypeError"
        with pytest.raises(assay.AssayError) as caught:
            merge_evaluation_signals(case["inputs"], case["signals"])
        assert caught.value.code == assay.ErrorCode.MALFORMED_INPUT
        return
    actual = merge_evaluation_signals(case["inputs"], case["signals"]).to_wire()
    assert _same(actual, expected), (actual, expected)
    assert list(actual["inputs"]) == list(expected["inputs"]), (
        "keys appended in specification order"
    )
