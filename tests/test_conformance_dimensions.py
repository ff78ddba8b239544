"""Conformance of the four extension dimensions against the reference's scorecard vectors.

Dimension by dimension: for every vector that does not raise and whose expected scorecard holds
the dimension, ``score(inputs, config)`` must reproduce ``expected.dimensions[<name>]`` on every
machine-readable field (explanations are free text and not compared). ``check_inputs`` must
reproduce the dimension's own input-check warnings (RULES.md section 11, "V"), and
``validate_config`` must reject every config-error vector aimed at the dimension's section.

The vectors are read in place from ``shared/conformance/scorecard`` beside the repository root.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from shared_data import shared_path

import assay
import assay.wire
from assay.testing import assert_wire_equal
from assay_authority import AuthorityDimension
from assay_corpus import CorpusDimension, IndexIntegrityDimension
from assay_freshness import FreshnessDimension

VECTORS = shared_path("conformance", "scorecard")
FILES = ("cases.jsonl", "examples.jsonl")
DIMENSIONS: dict[str, Any] = {
    "authority": AuthorityDimension(),
    "corpus": CorpusDimension(),
    "freshness": FreshnessDimension(),
    "indexIntegrity": IndexIntegrityDimension(),
}
# The input checks of RULES.md section 11 that belong to each dimension, by warning code (and,
# for input-out-of-range, by path prefix).
OWN_CHECKS = {
    "freshness": lambda w: w["code"] == "missing-freshness-dates",
    "corpus": lambda w: w["code"] == "missing-corpus-count",
    "indexIntegrity": lambda w: (
        w["code"] == "input-out-of-range" and w["path"].startswith("indexIntegrity.")
    ),
}


def _vectors() -> Iterator[dict[str, Any]]:
    for name in FILES:
        with (VECTORS / name).open(encoding="utf-8") as handle:
            for line in handle:
                case = json.loads(line)
                if "fn" not in case:
                    yield assay.wire.from_json_safe(case)


def _score_cases() -> list[Any]:
    params = []
    for case in _vectors():
        expected = case["expected"]
        if "error" in expected:
            continue
        for name in DIMENSIONS:
            if name in expected["dimensions"]:
                params.append(pytest.param(name, case, id=f"{name}:{case['id']}"))
    return params


SCORE_CASES = _score_cases()


def test_vectors_cover_every_dimension() -> None:
    counts = {name: sum(1 for p in SCORE_CASES if p.values[0] == name) for name in DIMENSIONS}
    assert all(count >= 40 for count in counts.values()), counts


@pytest.mark.parametrize(("name", "case"), SCORE_CASES)
def test_score_matches_reference(name: str, case: dict[str, Any]) -> None:
    dimension = DIMENSIONS[name]
    inputs, config = case["inputs"], case["config"]
    assert dimension.is_active(inputs, config)
    expected = dict(case["expected"]["dimensions"][name])
    expected.pop("explanation")
    actual = assay.wire.to_wire(dimension.score(inputs, config))
    actual.pop("explanation")
    assert_wire_equal(actual, expected)
    for part in ("components", "adjustments", "diagnostics"):  # the reference's emitted order
        assert list(actual["breakdown"][part]) == list(expected["breakdown"][part])


def _own_input_checks(name: str, expected: Mapping[str, Any]) -> list[dict[str, str]]:
    """The dimension's part of V: meta warnings with its input-check codes, minus the ones the
    dimension itself emits while scoring (those have their own text)."""
    own = list(expected["dimensions"][name].get("warnings", []))
    checks = []
    for warning in expected["meta"]["warnings"]:
        if warning in own:
            own.remove(warning)
        elif OWN_CHECKS[name](warning):
            checks.append(warning)
    return checks


def _check_cases() -> list[Any]:
    return [
        pytest.param(name, case, id=f"{name}:{case['id']}")
        for case in _vectors()
        if "error" not in case["expected"]
        for name in OWN_CHECKS
        if name in case["expected"]["dimensions"]
    ]


@pytest.mark.parametrize(("name", "case"), _check_cases())
def test_input_checks_match_reference(name: str, case: dict[str, Any]) -> None:
    expected = _own_input_checks(name, case["expected"])
    checks = DIMENSIONS[name].check_inputs(case["inputs"], case["config"])
    actual = [assay.wire.to_wire(w) for w in checks]
    assert actual == expected


def _strict_cases() -> list[Any]:
    """Strict-mode vectors rejected because of one of our input checks."""
    params = []
    for case in _vectors():
        error = case["expected"].get("error")
        if (
            error is None
            or error["name"] != "Error"
            or case["config"].get("validation") != "strict"
        ):
            continue
        for name in OWN_CHECKS:
            if name not in case["config"]:
                continue
            warnings = DIMENSIONS[name].check_inputs(case["inputs"], case["config"])
            if warnings and error["message"].startswith(f"{warnings[0].path}: "):
                params.append(pytest.param(name, case, id=f"{name}:{case['id']}"))
    return params


STRICT_CASES = _strict_cases()


def test_strict_vectors_raised_by_our_checks_are_found() -> None:
    ids = {p.values[1]["id"] for p in STRICT_CASES}
    assert {
        "c-b-val-strict-corpus-no-count",
        "c-b-val-strict-freshness-no-dates",
        "c-b-val-strict-index-out",
    } <= ids


@pytest.mark.parametrize(("name", "case"), STRICT_CASES)
def test_strict_error_is_our_first_input_check(name: str, case: dict[str, Any]) -> None:
    first = DIMENSIONS[name].check_inputs(case["inputs"], case["config"])[0]
    assert f"{first.path}: {first.message}" == case["expected"]["error"]["message"]


SECTIONS = {"authority", "corpus", "freshness", "indexIntegrity"}


def _config_error_cases() -> list[Any]:
    params = []
    for case in _vectors():
        error = case["expected"].get("error")
        if error is None or not case["id"].startswith("c-b-cfg-"):
            continue
        section = error["message"].split(" ", 1)[0].split(".", 1)[0]
        if section in SECTIONS:
            params.append(pytest.param(section, case, id=case["id"]))
    return params


CONFIG_ERROR_CASES = _config_error_cases()


def test_config_error_vectors_for_our_sections_are_found() -> None:
    assert len(CONFIG_ERROR_CASES) == 13


@pytest.mark.parametrize(("name", "case"), CONFIG_ERROR_CASES)
def test_config_error_matches_reference(name: str, case: dict[str, Any]) -> None:
    with pytest.raises(assay.AssayError) as raised:
        DIMENSIONS[name].validate_config(case["config"])
    error = raised.value
    assert error.code == "INVALID_CONFIG"
    assert error.message == case["expected"]["error"]["message"]
    assert error.message.startswith(error.path)


def _accepted_configs() -> list[Any]:
    return [
        pytest.param(name, case["config"], id=f"{name}:{case['id']}")
        for case in _vectors()
        if "error" not in case["expected"]
        for name in DIMENSIONS
        if name in case["config"]
    ]


@pytest.mark.parametrize(("name", "config"), _accepted_configs())
def test_configs_the_reference_accepts_are_accepted(name: str, config: dict[str, Any]) -> None:
    DIMENSIONS[name].validate_config(config)
