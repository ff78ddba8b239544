"""``EvalResult.timestamp``: caller-supplied (never a clock), on the wire only when given."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import assay
from assay_evaluation import (
    evaluate,
    evaluate_batch,
    read_results,
    result_from_wire,
    result_to_wire,
)

sys.path.insert(0, str(Path(__file__).parent))
from test_evaluation_toys import toy_registry, toy_samples

SAMPLES = toy_samples(5)
STAMP = "2024-05-01T12:00:00Z"


@pytest.fixture(scope="module")
def registry():
    return toy_registry()


def test_no_timestamp_unless_the_caller_gives_one(registry):
    result = evaluate(SAMPLES[0], registry=registry)
    assert result.timestamp is None
    assert "timestamp" not in result_to_wire(result)


def test_evaluate_stamps_the_given_timestamp_and_the_wire_round_trips(registry):
    result = evaluate(SAMPLES[0], options={"timestamp": STAMP}, registry=registry)
    assert result.timestamp == STAMP
    wire = result_to_wire(result)
    assert wire["timestamp"] == STAMP
    assert result_from_wire(wire) == result
    unstamped = result_to_wire(evaluate(SAMPLES[0], registry=registry))
    assert {k: v for k, v in wire.items() if k != "timestamp"} == unstamped


def test_evaluate_batch_stamps_every_result_and_resume_keeps_the_stored_stamp(registry, tmp_path):
    out = tmp_path / "out.jsonl"
    first = evaluate_batch(
        SAMPLES[:3], options={"timestamp": STAMP, "output": str(out)}, registry=registry
    )
    assert [r.timestamp for r in first.results] == [STAMP] * 3
    later = "2024-05-02T08:30:00+02:00"
    resumed = evaluate_batch(
        SAMPLES,
        options={"timestamp": later, "output": str(out), "resume": True},
        registry=registry,
    )
    # stored results were evaluated at the first stamp; only the new ones get the later one
    assert [r.timestamp for r in resumed.results] == [STAMP] * 3 + [later] * 2
    assert [r.timestamp for r in read_results(out)] == [STAMP] * 3 + [later] * 2


@pytest.mark.parametrize("bad", ["yesterday", "2024-13-01T00:00:00", "", 1714564800, True])
def test_a_timestamp_that_is_not_iso_8601_is_an_invalid_option(registry, bad):
    with pytest.raises(assay.AssayError) as caught:
        evaluate(SAMPLES[0], options={"timestamp": bad}, registry=registry)
    assert caught.value.code == "INVALID_OPTION"
    assert caught.value.path == "options.timestamp"


def test_a_stored_timestamp_that_is_not_a_string_is_malformed(registry):
    wire = result_to_wire(evaluate(SAMPLES[0], registry=registry))
    with pytest.raises(assay.AssayError) as caught:
        result_from_wire({**wire, "timestamp": 12})
    assert caught.value.code == "MALFORMED_INPUT"
