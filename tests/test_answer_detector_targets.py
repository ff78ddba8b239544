"""answer_support's detection targets on the held-out rows (2,000-4,999) of HaluEval QA: the
adversarial pairs of benchmarks/answer_detector.py, scored with the row's passage as context.

Two targets are not reached yet; their tests are strict expected failures that name the level
measured, so that reaching a target (or losing ground) fails the suite until this file is
updated. Every kind also keeps a floor just under its measured level.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from shared_data import needs_shared

pytestmark = needs_shared("data", "halueval_qa_dev.jsonl")

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "answer_detector.py"

TARGETS = {"wrong-entity": 0.85, "yes-no": 0.80, "swapped-number": 0.90, "halueval": 0.99}
"""The AUROC each kind of pair must reach."""

FLOORS = {"wrong-entity": 0.84, "yes-no": 0.75, "swapped-number": 0.94, "halueval": 0.99}
"""Just under the held-out AUROCs measured (0.8492, 0.7589, 0.9504, 0.9939): a change that loses
ground fails."""


def _benchmark() -> ModuleType:
    """benchmarks/answer_detector.py as a module (it imports its neighbour metrics_halueval)."""
    if str(BENCHMARK.parent) not in sys.path:
        sys.path.append(str(BENCHMARK.parent))
    spec = importlib.util.spec_from_file_location("answer_detector", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("answer_detector", module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def aurocs() -> dict[str, tuple[float, float]]:
    """Kind -> (answer_support's AUROC, claim_support's AUROC) on the held-out pairs."""
    bench = _benchmark()
    pairs = bench.build_pairs(bench.load_rows(), *bench.SPLITS["held-out"])
    return {
        kind: (
            bench.pair_auroc(pairs[kind], bench.answer_support_score),
            bench.pair_auroc(pairs[kind], bench.claim_support_score),
        )
        for kind in bench.KINDS
    }


@pytest.mark.parametrize("kind", ["swapped-number", "halueval"])
def test_the_target_is_reached(aurocs: dict[str, tuple[float, float]], kind: str) -> None:
    assert aurocs[kind][0] >= TARGETS[kind]


@pytest.mark.xfail(
    strict=True,
    reason="measured 0.84996 on the held-out rows (target 0.85); passes once answer_support "
    "reads the answer type the question asks for (country/state names, sentence-opening capitals)",
)
def test_same_passage_wrong_names_reach_the_target(
    aurocs: dict[str, tuple[float, float]],
) -> None:
    assert aurocs["wrong-entity"][0] >= TARGETS["wrong-entity"]


@pytest.mark.xfail(
    strict=True,
    reason="measured 0.7589 on the held-out rows (target 0.80); passes once answer_support "
    "compares each entity's attribute for yes/no comparison questions beyond shared words",
)
def test_flipped_yes_no_reaches_the_target(aurocs: dict[str, tuple[float, float]]) -> None:
    assert aurocs["yes-no"][0] >= TARGETS["yes-no"]


@pytest.mark.parametrize("kind", sorted(FLOORS))
def test_no_kind_falls_below_its_floor_or_behind_claim_support(
    aurocs: dict[str, tuple[float, float]], kind: str
) -> None:
    answer_support, claim_support = aurocs[kind]
    assert answer_support >= FLOORS[kind]
    assert answer_support > claim_support
