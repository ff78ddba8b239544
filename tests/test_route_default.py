"""The default router on labelled real retrievals it gets without retriever scores: the held-out
part of benchmarks/route_data.py (odd-indexed questions; the default thresholds were chosen on
the even-indexed HaluEval questions). The numbers are those of docs/route.md."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from shared_data import needs_shared

pytest.importorskip("assay_crag", reason="needs assay-crag installed (uv run --all-packages)")

from assay_crag import CragRouter, QualityInput, route_counts

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _route_data() -> ModuleType:
    spec = importlib.util.spec_from_file_location("route_data", BENCHMARKS / "route_data.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("route_data", module)
    spec.loader.exec_module(module)
    return module


def _labels(router: CragRouter, retrievals: list) -> list[str]:  # type: ignore[type-arg]
    return [
        router.classify(QualityInput.from_texts(r.query, r.documents)).classification
        for r in retrievals
    ]


@needs_shared("data", "halueval_qa_dev.jsonl")
def test_halueval_held_out_meets_the_targets() -> None:
    data = _route_data()
    held = [r for r in data.halueval_retrievals() if data.held_out(r.index)]
    assert len(held) == 5000
    router = CragRouter()
    scores = [router.classify(QualityInput.from_texts(r.query, r.documents)).score for r in held]
    counts = route_counts(scores, [r.relevant for r in held], low=router.lower, high=router.upper)
    assert counts.accuracy >= 0.93 and counts.ambiguous_rate <= 0.05
    assert (counts.relevant, counts.irrelevant) == ((2270, 109, 121), (35, 65, 2400))
    # the previous default, the composite without retriever scores, routes no relevant passage
    # correct; every decision it makes says which input it lacked
    sample = held[:200]
    composite = CragRouter("composite")
    results = [composite.classify(QualityInput.from_texts(r.query, r.documents)) for r in sample]
    assert not any(c.classification == "correct" for c in results)
    assert all(c.warnings and c.warnings[0].code == "missing-retrieval-score" for c in results)


@needs_shared("data", "hotpotqa_distractor_100.json")
def test_hotpotqa_gold_pairs_versus_distractors() -> None:
    """Lexical relevance cannot tell HotpotQA's gold paragraphs from its distractors (chosen by
    word overlap with the question): the default never routes a gold pair incorrect, but calls
    most distractor pairs correct too. docs/route.md states this limit."""
    data = _route_data()
    identified, _ = data.hotpot_identified()
    assert identified == 64
    held = [r for r in data.hotpot_retrievals() if data.held_out(r.index)]
    labels = _labels(CragRouter(), held)
    gold = [label for label, r in zip(labels, held, strict=True) if r.relevant]
    distractors = [label for label, r in zip(labels, held, strict=True) if not r.relevant]
    assert (gold.count("correct"), gold.count("ambiguous"), gold.count("incorrect")) == (26, 6, 0)
    assert distractors.count("correct") == 20
