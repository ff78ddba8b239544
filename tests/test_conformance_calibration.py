"""Every analyzeCalibration vector of the scorecard conformance set, run through
analyze_calibration: the twenty ``c-cal-*`` cases and the ``ex-calibration-analysis-report``
example.

Reads ../shared/conformance/scorecard/cases.jsonl and examples.jsonl in place. Results must
equal the reference's output on every field; error lines must raise with the matching
category: a reference ``Error`` mentioning ``samples`` is an input error (INVALID_INPUT, same
leading path), any other ``Error`` a config error (INVALID_CONFIG), a ``TypeError`` a
structural error (MALFORMED_INPUT).
"""

from __future__ import annotations

import json

import pytest
from shared_data import shared_path

import assay
import assay.wire
from assay_calibration.score_bands import analyze_calibration

CASES = shared_path("conformance", "scorecard", "cases.jsonl")


def calibration_cases() -> list[dict]:
    lines = CASES.read_text(encoding="utf-8").splitlines()
    cases = [assay.wire.from_json_safe(json.loads(line)) for line in lines if line.strip()]
    return [case for case in cases if case.get("fn") == "analyzeCalibration"]


ALL = calibration_cases()


def test_the_vector_file_holds_the_twenty_calibration_cases() -> None:
    assert len(ALL) == 20
    assert all(case["id"].startswith("c-cal-") for case in ALL)


def expected_error(reference: dict) -> tuple[str, str | None]:
    """(code, leading path) our error must carry for a reference error."""
    if reference["name"] == "TypeError":
        return "MALFORMED_INPUT", None
    message = reference["message"]
    if message.startswith("samples["):
        return "INVALID_INPUT", message.split(" ", 1)[0]
    if "at least one sample" in message:
        return "INVALID_INPUT", "samples"
    if message.startswith("bands["):
        return "INVALID_CONFIG", message.split(" ", 1)[0]
    return "INVALID_CONFIG", "bands"


@pytest.mark.parametrize("case", ALL, ids=[case["id"] for case in ALL])
def test_matches_the_reference(case: dict) -> None:
    expected = case["expected"]
    if "error" in expected:
        code, path = expected_error(expected["error"])
        with pytest.raises(assay.AssayError) as caught:
            analyze_calibration(case["samples"], case.get("config"))
        assert caught.value.code == code
        if path is not None:
            assert caught.value.path == path
        return
    report = analyze_calibration(case["samples"], case.get("config"))
    assert report.to_wire() == expected
    assert list(report.to_wire()) == list(expected)  # the reference's key order
