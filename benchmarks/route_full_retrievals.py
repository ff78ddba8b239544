"""How the lexical and topical scorers route complete HotpotQA retrievals: all ten paragraphs.

Run by hand:  uv run --all-packages python benchmarks/route_full_retrievals.py

Each of the 100 HotpotQA distractor questions (``../shared/data``, read in place) is given to
``CragRouter()`` (paper mode, lexical scorer) and ``CragRouter(scorer="topical")`` as the query
and all ten of its paragraphs, in the file's order, with no retriever scores
(``QualityInput.from_texts``). Every such retrieval holds both gold paragraphs, so each is
relevant: a *correct* route is right, an *incorrect* one sends a complete retrieval to a
supplemental search. Where :func:`route_data.hotpot_gold` identifies the gold pair, the eight
paragraphs without it (distractors only, irrelevant) are routed too: there an *incorrect* route
is right. Counts per router, over all questions and for the held-out part (odd indices).
Then ``assay route gate``'s verdict on the complete retrievals, in paper mode (the default, as
``decide`` scores them) and in composite mode (the context-quality specification's gate, which
counts the missing retriever scores as 0).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from route_data import held_out, hotpot_gold, hotpot_items

from assay_crag import CragRouter, QualityInput, check_context_quality

ROUTERS = {"lexical": CragRouter(), "topical": CragRouter(scorer="topical")}


def main() -> None:
    items = hotpot_items()
    retrievals = []
    complete: dict[str, list[tuple[int, str]]] = {name: [] for name in ROUTERS}
    distractors: dict[str, list[tuple[int, str]]] = {name: [] for name in ROUTERS}
    for i, item in enumerate(items):
        question = str(item["question"])
        paragraphs = ["".join(s) for _, s in item["context"]]  # type: ignore[attr-defined]
        gold, _ = hotpot_gold(item)
        rest = [p for k, p in enumerate(paragraphs) if gold is None or k not in gold]
        retrievals.append(QualityInput.from_texts(question, paragraphs))
        for name, router in ROUTERS.items():
            route = router.classify(QualityInput.from_texts(question, paragraphs))
            complete[name].append((i, route.classification))
            if gold is not None:
                routed = router.classify(QualityInput.from_texts(question, rest))
                distractors[name].append((i, routed.classification))
    for title, table in (
        ("complete retrievals (10 paragraphs, both gold: relevant)", complete),
        ("distractors only (gold pair identified and removed: irrelevant)", distractors),
    ):
        print(title)
        for name, routes in table.items():
            every = Counter(label for _, label in routes)
            odd = Counter(label for i, label in routes if held_out(i))
            print(
                f"  {name:<8} all {len(routes)}: {dict(sorted(every.items()))}; "
                f"held out {sum(odd.values())}: {dict(sorted(odd.items()))}"
            )
    paper = CragRouter()
    for mode, verdict in (
        ("paper", check_context_quality(retrievals, paper.upper, paper.lower, router=paper)),
        ("composite", check_context_quality(retrievals)),
    ):
        print(
            f"route gate, {mode} mode, {len(retrievals)} complete retrievals: "
            f"{'passed' if verdict.passed else 'failed'}, mean {verdict.mean:.3f}, "
            f"{len(verdict.below_floor)} below the floor {verdict.floor}"
        )


if __name__ == "__main__":
    main()
