"""Score a retrieval's context quality and route it with both CRAG modes.

Run: uv run --all-packages python examples/route/route_a_retrieval.py

Reads retrieval.json beside this file (a query, three ranked chunks and the assembled context)
and prints:
  * the four sub-scores and the composite ("overall ...");
  * the specification's routing on the composite ("composite mode: <classification> ...") with its action;
  * the paper's routing on per-document relevance ("paper mode: <classification> ...") with the
    document scores and the refined knowledge strips kept for generation;
  * the same retrieval with its two relevant chunks removed, routed again by the paper mode
    ("off-topic retrieval: incorrect ...") with the keyword query for a supplemental search.
"""

from __future__ import annotations

import json
from pathlib import Path

from assay_crag import CragRouter, QualityInput, QualityScorer, parse_quality_input

HERE = Path(__file__).resolve().parent


def main() -> None:
    retrieval = parse_quality_input(json.loads((HERE / "retrieval.json").read_text("utf-8")))
    quality = QualityScorer().score(retrieval)
    for name, value in quality.to_wire().items():
        if isinstance(value, float):
            print(f"{name:<22} {value:.3f}")

    composite = CragRouter("composite").classify(retrieval)
    print(f"composite mode: {composite.classification} (confidence {composite.confidence:.3f})")
    print(f"  {composite.reason}")
    print(f"  action: {json.dumps(composite.action.to_wire())}")

    paper = CragRouter("paper", refine=True, refine_top_k=2).classify(retrieval)
    scores = ", ".join(f"{s:.2f}" for s in paper.document_scores or ())
    print(f"paper mode: {paper.classification} (confidence {paper.confidence:.3f})")
    print(f"  document scores: {scores}")
    refined = paper.action.refined_context
    for strip in refined.strips if refined else ():
        print(f"  kept strip [{strip.score:.2f}]: {strip.text}")

    off_topic = QualityInput(retrieval.query, retrieval.chunks[2:], retrieval.context)
    result = CragRouter("paper").classify(off_topic)
    print(f"off-topic retrieval: {result.classification} (confidence {result.confidence:.3f})")
    print(f"  search query: {result.action.search_query}")


if __name__ == "__main__":
    main()
