"""How the default router routes relevant and irrelevant retrievals it gets without retriever scores.

Run by hand:  uv run --all-packages python benchmarks/route_default.py [--json FILE]

Retrievals (benchmarks/route_data.py, from ../shared/data read in place): HaluEval questions with
their own passage (relevant) and the passage a BM25 retriever returns from a pool of other rows'
passages that lacks the answer (irrelevant); HotpotQA questions with their two gold paragraphs
(relevant) and the two distractors BM25 ranks highest (irrelevant). Each retrieval is given to the
routers as the query and the passages only, as ``QualityInput.from_texts`` builds it (no
retriever scores).

Routers compared, on the held-out part (odd-indexed questions) of each data set:

* ``composite 0.7/0.3`` — the previous default: the specification's composite rule;
* ``paper 0.29/0.24`` — the paper mode with its previous thresholds;
* ``default`` — ``CragRouter()`` as shipped (paper mode, lexical scorer, thresholds
  ``PAPER_LOWER`` / ``PAPER_UPPER``);
* ``topical`` — the same thresholds with the opt-in topical scorer
  (``CragRouter(scorer="topical")``), which judges a retrieval's documents together.

The default thresholds are re-derived first with ``tune_thresholds`` on the tuning part of the
HaluEval retrievals (even-indexed questions, pool 50) and printed next to the shipped ones. Then
harder variants are reported for the default router: HaluEval with the irrelevant passage drawn
from pools of 500 and of all 5,000 rows, and HotpotQA paragraph by paragraph. Last, the default
and the topical scorer on both parts of HotpotQA and on HaluEval retrievals of two passages (the
question's own passage with the irrelevant one, all relevant): where the topical scorer's gain on
HotpotQA costs relevant retrievals.

Accuracy = (relevant routed correct + irrelevant routed incorrect) / all; an ambiguous call is
not a right one. Ambiguous = ambiguous calls / all.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from route_data import (
    Retrieval,
    halueval_pairs,
    halueval_retrievals,
    held_out,
    hotpot_identified,
    hotpot_paragraphs,
    hotpot_retrievals,
    split_counts,
)

from assay_crag import CragRouter, QualityInput, route_counts, tune_thresholds
from assay_crag.router import PAPER_LOWER, PAPER_UPPER

ROUTERS = {
    "composite 0.7/0.3 (previous default)": CragRouter("composite"),
    "paper 0.29/0.24 (previous paper thresholds)": CragRouter("paper", upper=0.29, lower=0.24),
    f"default: paper {PAPER_UPPER}/{PAPER_LOWER}": CragRouter(),
    f"topical: paper {PAPER_UPPER}/{PAPER_LOWER}, topical scorer": CragRouter(scorer="topical"),
}
LABELS = ("correct", "ambiguous", "incorrect")


def route(router: CragRouter, retrievals: Sequence[Retrieval]) -> dict[str, Any]:
    """Route each retrieval; counts per class, accuracy, ambiguous share."""
    counts = {True: dict.fromkeys(LABELS, 0), False: dict.fromkeys(LABELS, 0)}
    for r in retrievals:
        label = router.classify(QualityInput.from_texts(r.query, r.documents)).classification
        counts[r.relevant][label] += 1
    total = len(retrievals)
    right = counts[True]["correct"] + counts[False]["incorrect"]
    ambiguous = counts[True]["ambiguous"] + counts[False]["ambiguous"]
    return {
        "n": total,
        "accuracy": right / total,
        "ambiguous": ambiguous / total,
        "relevant": counts[True],
        "irrelevant": counts[False],
    }


def paper_scores(retrievals: Sequence[Retrieval]) -> list[float]:
    """The paper mode's score (best document's lexical relevance) of each retrieval."""
    router = CragRouter()
    return [
        router.classify(QualityInput.from_texts(r.query, r.documents)).score for r in retrievals
    ]


def _row(data: str, router: str, result: dict[str, Any]) -> str:
    rel, irr = result["relevant"], result["irrelevant"]
    split = " / ".join(str(rel[k]) for k in LABELS), " / ".join(str(irr[k]) for k in LABELS)
    return (
        f"| {data} | {router} | {result['n']} | {result['accuracy']:.3f} "
        f"| {result['ambiguous']:.1%} | {split[0]} | {split[1]} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", dest="json_out", help="also write every number to this file")
    args = parser.parse_args()
    report: dict[str, Any] = {}

    halueval = halueval_retrievals()
    tuning = [r for r in halueval if not held_out(r.index)]
    choice = tune_thresholds(paper_scores(tuning), [r.relevant for r in tuning])
    report["tuning"] = {"retrievals": len(tuning), **choice.counts.to_wire()}
    print(
        f"thresholds chosen on the HaluEval tuning part ({len(tuning)} retrievals): "
        f"{choice.router_options()} (shipped: lower {PAPER_LOWER}, upper {PAPER_UPPER}); "
        f"tuning accuracy {choice.counts.accuracy:.3f}, ambiguous {choice.counts.ambiguous_rate:.1%}"
    )
    identified, reasons = hotpot_identified()
    print(
        f"HotpotQA: gold pair identified for {identified} of 100 questions; others: {dict(reasons)}"
    )
    hotpot = hotpot_retrievals()
    print(f"questions per part: HaluEval {split_counts(halueval)}, HotpotQA {split_counts(hotpot)}")

    print(
        "\n| data (held-out part) | router | retrievals | accuracy | ambiguous "
        "| relevant: correct / ambiguous / incorrect | irrelevant: correct / ambiguous / incorrect |"
    )
    print("|---|---|---|---|---|---|---|")
    datasets = {
        "HaluEval, pool 50": [r for r in halueval if held_out(r.index)],
        "HotpotQA, gold pair vs top-2 distractors": [r for r in hotpot if held_out(r.index)],
    }
    for data, retrievals in datasets.items():
        for name, router in ROUTERS.items():
            result = route(router, retrievals)
            report[f"{data} / {name}"] = result
            print(_row(data, name, result))
    harder = {
        "HaluEval, pool 500": [r for r in halueval_retrievals(500) if held_out(r.index)],
        "HaluEval, pool 5,000": [r for r in halueval_retrievals(None) if held_out(r.index)],
        "HotpotQA, each paragraph alone": [r for r in hotpot_paragraphs() if held_out(r.index)],
    }
    default_name, topical_name = list(ROUTERS)[-2:]
    for data, retrievals in harder.items():
        result = route(ROUTERS[default_name], retrievals)
        report[f"{data} / {default_name}"] = result
        print(_row(data, default_name, result))
        # what the best thresholds for this data itself would reach (tuned and measured on it)
        scores = paper_scores(retrievals)
        labels = [r.relevant for r in retrievals]
        best = tune_thresholds(scores, labels).counts
        again = route_counts(scores, labels, low=best.low, high=best.high)
        report[f"{data} / in-sample best"] = again.to_wire()
        print(
            f"| {data} | in-sample best {best.high}/{best.low} (not held out) | {again.total} "
            f"| {again.accuracy:.3f} | {again.ambiguous_rate:.1%} | - | - |"
        )
    both = {
        "HotpotQA, tuning part": [r for r in hotpot if not held_out(r.index)],
        "HaluEval, own + irrelevant passage (all relevant), tuning part": [
            r for r in halueval_pairs(halueval) if not held_out(r.index)
        ],
        "HaluEval, own + irrelevant passage (all relevant)": [
            r for r in halueval_pairs(halueval) if held_out(r.index)
        ],
    }
    for data, retrievals in both.items():
        for name in (default_name, topical_name):
            result = route(ROUTERS[name], retrievals)
            report[f"{data} / {name}"] = result
            print(_row(data, name, result))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(report, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
