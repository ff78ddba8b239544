"""The compiled twins of the scorecard hot path give exactly what the pure-Python reference gives.

Every computeConfidence input of ../shared/conformance/scorecard (read in place), with its
config, is scored twice: in this process, where the compiled twins of the core and of every
installed dimension plugin are in use, and in a subprocess with ``ASSAY_PURE_PYTHON=1``, where
none is. The two results must be identical: every field of the wire shape including the
explanation and warning texts, every field of the records with the Python type of every number
(JSON tells 3 from 3.0, and the wire shape writes 3.0 as 3), and, for inputs that are refused,
the same error code, path and message.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import assay
from assay.testing import pure_python_result, typed_fields

VECTORS = Path(__file__).resolve().parents[1].parent / "shared" / "conformance" / "scorecard"
COMPILED = ("assay._scorecard._speedups", "assay_grounding._speedups", "assay_retrieval._speedups")


def score_every_vector() -> list[Any]:
    """Score every computeConfidence line; one typed wire result (or error) per line."""
    results = []
    for name in ("cases.jsonl", "examples.jsonl"):
        for line in (VECTORS / name).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if "fn" in record:
                continue
            try:
                scorer = assay.create_scorer(assay.from_json_safe(record["config"]))
                card = scorer.compute(assay.from_json_safe(record["inputs"]))
                text = typed_fields(json.loads(assay.scorecard_to_json(card)))  # JSON Lines text
                results.append([typed_fields(assay.to_wire(card)), typed_fields(card), text])
            except assay.AssayError as error:
                results.append(["error", error.code, error.path, str(error)])
    return results


def test_compiled_twins_are_built_and_in_use() -> None:
    """CI's guarantee that what ships is the fast path (a silent fallback would fail here)."""
    for module in COMPILED:
        assert importlib.import_module(module).__file__.endswith(".so"), module
    assert assay.Scorer.compute is importlib.import_module(COMPILED[0]).compute
    assert assay.dimension_score is importlib.import_module(COMPILED[0]).dimension_score
    assert assay.scorecard_to_wire is importlib.import_module(COMPILED[0]).scorecard_to_wire


def test_compiled_and_pure_results_are_identical_on_every_vector() -> None:
    expected = pure_python_result(__file__, "score_every_vector")
    actual = json.loads(json.dumps(score_every_vector()))
    assert len(actual) == len(expected) > 600
    mismatches = [i for i, (a, e) in enumerate(zip(actual, expected, strict=True)) if a != e]
    assert not mismatches, f"{len(mismatches)} lines differ, first: {mismatches[:5]}"


def test_pure_python_switch_leaves_the_reference_in_place() -> None:
    script = (
        "import assay, assay._scorecard.engine as e, assay._scorecard.types as t, "
        "assay._wire as w; "
        "print(assay.Scorer.compute is e.PURE_COMPUTE, "
        "assay.dimension_score is t.PURE_DIMENSION_SCORE, "
        "assay.scorecard_to_wire is w.PURE_SCORECARD_TO_WIRE)"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "ASSAY_PURE_PYTHON": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == ["True", "True", "True"]


@pytest.mark.parametrize("value", ["1", "true", "YES", " 1 "])
def test_speedups_allowed_reads_the_switch(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("ASSAY_PURE_PYTHON", value)
    assert assay.speedups_allowed() is False
    monkeypatch.setenv("ASSAY_PURE_PYTHON", "0")
    assert assay.speedups_allowed() is True
