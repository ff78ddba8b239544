"""The specification's evaluate / evaluateBatch vectors
(../shared/conformance/metrics/batches.jsonl) run through assay_evaluation with the
assay-faithfulness metrics: per-sample scores, pass flags, thresholds, composites, aggregates,
overall pass and regressions must match exactly.

Two deliberate differences from the reference, both checked here: an unknown metric id raises
UNKNOWN_METRIC instead of being skipped silently (the vectors are then compared without it), and
concurrency 0 raises INVALID_OPTION instead of a TypeError.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from shared_data import shared_path

import assay
from assay_evaluation import batch_to_wire, evaluate, evaluate_batch, result_to_wire, snake_case

VECTORS = shared_path("conformance", "metrics")
BATCHES = VECTORS / "batches.jsonl"

pytest.importorskip("assay_faithfulness", reason="needs the assay-faithfulness plugin installed")


def _vectors() -> list[dict]:
    if not BATCHES.exists():
        return []
    return [json.loads(line) for line in BATCHES.read_text("utf-8").split("\n") if line]


VECTOR_LIST = _vectors()


@pytest.fixture(scope="module")
def registry():
    return assay.build_registry(env={"ASSAY_PLUGINS": "faithfulness"})


def _args(vector: dict) -> tuple[object, list | None, dict]:
    """The vector's arguments; a vector naming no metrics ran rag-eval-node-ts's seven, which
    are assay's ``compatible`` profile (assay's own default list is another)."""
    args = list(vector["args"]) + [None] * (3 - len(vector["args"]))
    options = dict(args[2] or {})
    if args[1] is None:
        options["profile"] = "compatible"
    return args[0], args[1], options


def _known(metrics: list | None) -> list | None:
    return None if metrics is None else [m for m in metrics if m != "bogusMetric"]


def _check_result(got: dict, expected: dict) -> int:
    """Compare one sample's result; return how many metric results were compared."""
    assert got["compositeScore"] == expected["compositeScore"]
    assert got["passed"] == expected["passed"]
    assert set(got["metrics"]) == {snake_case(k) for k in expected["metrics"]}
    for wire_id, want in expected["metrics"].items():
        have = got["metrics"][snake_case(wire_id)]
        assert (have["score"], have["passed"], have["threshold"]) == (
            want["score"],
            want["passed"],
            want["threshold"],
        ), wire_id
        assert have["explanation"] == want["explanation"]
        assert len(have["signals"]) == len(want["signals"])
    return len(expected["metrics"])


def _check_batch(got: dict, expected: dict) -> None:
    for wire_id, want in expected["aggregates"].items():
        if wire_id == "bogusMetric":
            continue
        have = got["aggregates"][snake_case(wire_id)]
        for key in ("mean", "median", "min", "max", "stdDev", "passRate", "nullRate"):
            assert have[key] == want[key], (wire_id, key)
    for key, want in expected["compositeAggregate"].items():
        assert got["compositeAggregate"][key] == want, key
    assert got["passed"] == expected["passed"]
    if "regressions" in expected:
        assert [
            {**r, "metricId": snake_case(r["metricId"])} for r in expected["regressions"]
        ] == got["regressions"]
    else:
        assert "regressions" not in got
    for have, want in zip(got["results"], expected["results"], strict=True):
        _check_result(have, want)


def test_the_vectors_are_there():
    assert len(VECTOR_LIST) == 16, f"expected 16 vectors in {BATCHES}"


@pytest.mark.parametrize("vector", VECTOR_LIST, ids=[v["id"] for v in VECTOR_LIST])
def test_batch_vector(vector, registry):
    sample_or_samples, metrics, options = _args(vector)
    if "expected_error" in vector:
        with pytest.raises(assay.AssayError) as excinfo:
            evaluate_batch(sample_or_samples, metrics, options, registry=registry)
        assert (excinfo.value.code, excinfo.value.path) == ("INVALID_OPTION", "options.concurrency")
        return
    if metrics is not None and "bogusMetric" in metrics:
        run = evaluate if vector["fn"] == "evaluate" else evaluate_batch
        with pytest.raises(assay.AssayError) as excinfo:
            run(sample_or_samples, metrics, options, registry=registry)
        assert excinfo.value.code == "UNKNOWN_METRIC"
    metrics = _known(metrics)
    if vector["fn"] == "evaluate":
        got = result_to_wire(evaluate(sample_or_samples, metrics, options, registry=registry))
        _check_result(got, vector["expected"])
        return
    got = batch_to_wire(evaluate_batch(sample_or_samples, metrics, options, registry=registry))
    _check_batch(got, vector["expected"])
    with ThreadPoolExecutor(2) as pool:
        threaded = evaluate_batch(
            sample_or_samples,
            metrics,
            {**options, "executor": pool, "chunkSize": 2},
            registry=registry,
        )
    assert batch_to_wire(threaded) == got
