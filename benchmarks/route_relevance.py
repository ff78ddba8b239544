"""How the CRAG router's classifications line up with relevance decided by people.

Run by hand:  uv run --package assay-crag python benchmarks/route_relevance.py [--queries N]

Data (read in place from ../shared/data, beside the repository):

* HaluEval QA (first N rows, default 400): each question with its own knowledge passage
  (relevant by construction). Three retrievals per question: ``own`` (its passage alone),
  ``mixed`` (its passage plus two other rows' passages: relevant, one document of three) and
  ``others`` (three other rows' passages: not relevant).
* HotpotQA distractor (all 100): ``own`` (its ten paragraphs, two of them gold: relevant) and
  ``others`` (another question's ten paragraphs: not relevant). The file has no supporting-fact
  labels, so no mixture can be labelled without deciding relevance ourselves; none is made.

The chunk ``score`` (what a retriever would report, read by the composite mode) is the TF-IDF
cosine between the question and the passage, with IDF over all passages of the dataset; chunks
are ranked by it. The paper mode scores documents with the built-in lexical scorer, or with the
scorer named by ``--scorer`` (for example ``metric:context_relevance`` when assay-faithfulness
is installed).

Thresholds are chosen on one half of the questions and reported on the other half, then the
halves swap (two-fold cross-fitting): every reported classification is out of sample. The choice
maximises the balanced utility: +1 for a right definite call (correct on relevant, incorrect on
not relevant), minus the wrong cost for a wrong one, 0 for ambiguous, averaged within each class, then over the two
classes; ``--wrong-cost`` sets the cost of a wrong call, default 2. The routers' default
thresholds are reported too: the specification's 0.7 / 0.3 for the composite, and for the paper mode
0.29 / 0.24, chosen on HaluEval's even-numbered questions against random other passages (the
paper mode's defaults before they were re-chosen against word-sharing passages by
benchmarks/route_default.py).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from assay_crag import CragRouter, QualityInput
from assay_crag.inputs import AssembledContext, RankedChunk

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
_TOKEN = re.compile(r"[^\W_]+")
GRID = np.round(np.arange(0.0, 1.0001, 0.01), 2)


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


class TfIdf:
    """Cosine similarity of TF-IDF vectors, IDF over a fixed pool of passages."""

    def __init__(self, passages: Sequence[str]) -> None:
        df: Counter[str] = Counter()
        for passage in passages:
            df.update(set(_tokens(passage)))
        n = len(passages)
        self.idf = {t: math.log((1 + n) / (1 + c)) + 1 for t, c in df.items()}

    def _vector(self, text: str) -> dict[str, float]:
        counts = Counter(_tokens(text))
        vec = {t: c * self.idf.get(t, math.log(1 + 1e6)) for t, c in counts.items()}
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        return {t: v / norm for t, v in vec.items()}

    def cosine(self, a: str, b: str) -> float:
        va, vb = self._vector(a), self._vector(b)
        return sum(v * vb.get(t, 0.0) for t, v in va.items())


def _retrieval(query: str, docs: Sequence[tuple[str, str, str]], tfidf: TfIdf) -> QualityInput:
    """docs: (document id, section title, text); ranked by TF-IDF cosine, best first."""
    scored = sorted(
        ((tfidf.cosine(query, text), doc_id, title, text) for doc_id, title, text in docs),
        key=lambda item: -item[0],
    )
    chunks = [
        RankedChunk(text, doc_id, round(score, 6), metadata={"sectionTitle": title})
        for score, doc_id, title, text in scored
    ]
    context = "\n\n".join(c.content for c in chunks)
    return QualityInput(query.strip(), chunks, AssembledContext(context, len(context.split())))


def halueval_cases(n: int, rng: random.Random) -> list[tuple[int, str, bool, QualityInput]]:
    rows = []
    with (DATA / "halueval_qa_dev.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            rows.append(json.loads(line))
            if len(rows) == n:
                break
    tfidf = TfIdf([r["knowledge"] for r in rows])
    cases = []
    for i, row in enumerate(rows):
        others = rng.sample([j for j in range(n) if j != i], 5)

        def doc(j: int) -> tuple[str, str, str]:
            return (f"halueval-{j}", f"row {j}", rows[j]["knowledge"])

        q = row["question"]
        cases.append((i, "own", True, _retrieval(q, [doc(i)], tfidf)))
        cases.append(
            (i, "mixed", True, _retrieval(q, [doc(i), doc(others[0]), doc(others[1])], tfidf))
        )
        cases.append((i, "others", False, _retrieval(q, [doc(j) for j in others[2:5]], tfidf)))
    return cases


def hotpot_cases(rng: random.Random) -> list[tuple[int, str, bool, QualityInput]]:
    items = json.loads((DATA / "hotpotqa_distractor_100.json").read_text(encoding="utf-8"))
    paragraphs = [
        [(f"{title}", title, "".join(sentences).strip()) for title, sentences in item["context"]]
        for item in items
    ]
    tfidf = TfIdf([text for paras in paragraphs for _, _, text in paras])
    n = len(items)
    cases = []
    for i, item in enumerate(items):
        other = (i + rng.randrange(1, n)) % n
        q = item["question"]
        cases.append((i, "own", True, _retrieval(q, paragraphs[i], tfidf)))
        cases.append((i, "others", False, _retrieval(q, paragraphs[other], tfidf)))
    return cases


def _classify(scores: np.ndarray, low: float, high: float, inclusive: bool) -> np.ndarray:
    """2 correct, 1 ambiguous, 0 incorrect, with the router's comparison rules."""
    if inclusive:  # composite: >= high correct, <= low incorrect
        return np.where(scores >= high, 2, np.where(scores <= low, 0, 1))
    return np.where(scores > high, 2, np.where(scores > low, 1, 0))  # paper


def _utility(classes: np.ndarray, relevant: np.ndarray, wrong_cost: float) -> float:
    right = np.where(relevant, classes == 2, classes == 0).astype(float)
    wrong = np.where(relevant, classes == 0, classes == 2).astype(float)
    u = right - wrong_cost * wrong
    return 0.5 * (u[relevant].mean() + u[~relevant].mean())


def tune(
    scores: np.ndarray, relevant: np.ndarray, inclusive: bool, wrong_cost: float
) -> tuple[float, float]:
    best = (-math.inf, 0.0, 0.0)
    for i, low in enumerate(GRID):
        for high in GRID[i:]:
            u = _utility(_classify(scores, low, high, inclusive), relevant, wrong_cost)
            if u > best[0] + 1e-12:
                best = (u, float(low), float(high))
    return best[1], best[2]


SCORER = "lexical"


def _router(mode: str, low: float, high: float) -> CragRouter:
    if mode == "composite":
        return CragRouter("composite", correct_at=high, incorrect_at=low)
    return CragRouter("paper", upper=high, lower=low, scorer=SCORER)


def _summary(labels: list[str], relevant: list[bool], kinds: list[str]) -> dict[str, object]:
    def count(label: str, rel: bool | None = None, kind: str | None = None) -> int:
        return sum(
            1
            for lab, r, k in zip(labels, relevant, kinds, strict=True)
            if lab == label and (rel is None or r == rel) and (kind is None or k == kind)
        )

    n_rel, n_irr = sum(relevant), len(relevant) - sum(relevant)
    correct, incorrect = count("correct"), count("incorrect")
    return {
        "n": len(labels),
        "relevant": n_rel,
        "notRelevant": n_irr,
        "correctPrecision": count("correct", True) / correct if correct else None,
        "correctRecall": count("correct", True) / n_rel if n_rel else None,
        "incorrectPrecision": count("incorrect", False) / incorrect if incorrect else None,
        "incorrectRecall": count("incorrect", False) / n_irr if n_irr else None,
        "ambiguousOnRelevant": count("ambiguous", True),
        "ambiguousOnNotRelevant": count("ambiguous", False),
        "byKind": {
            kind: {lab: count(lab, kind=kind) for lab in ("correct", "ambiguous", "incorrect")}
            for kind in dict.fromkeys(kinds)
        },
    }


def evaluate(
    cases: list[tuple[int, str, bool, QualityInput]], mode: str, wrong_cost: float
) -> dict[str, object]:
    score_router = _router(mode, 0.0, 1.0)
    scores = np.array([score_router.classify(qi).score for _, _, _, qi in cases])
    relevant = np.array([rel for _, _, rel, _ in cases])
    fold = np.array([q % 2 for q, _, _, _ in cases])
    labels: list[str] = [""] * len(cases)
    thresholds = {}
    for tune_fold in (0, 1):
        mask = fold == tune_fold
        low, high = tune(scores[mask], relevant[mask], mode == "composite", wrong_cost)
        thresholds[f"tunedOnFold{tune_fold}"] = {"low": low, "high": high}
        router = _router(mode, low, high)
        for k in np.flatnonzero(~mask):
            labels[k] = router.classify(cases[k][3]).classification
    kinds = [kind for _, kind, _, _ in cases]
    result: dict[str, object] = {
        "mode": mode,
        "thresholds": thresholds,
        "crossFitted": _summary(labels, [bool(r) for r in relevant], kinds),
    }
    default_router = (
        CragRouter("composite")
        if mode == "composite"
        else CragRouter("paper", scorer=SCORER, upper=0.29, lower=0.24)
    )
    default_labels = [default_router.classify(qi).classification for _, _, _, qi in cases]
    result["defaultThresholds"] = _summary(default_labels, [bool(r) for r in relevant], kinds)
    tune_all = tune(scores, relevant, mode == "composite", wrong_cost)
    result["tunedOnAll"] = {"low": tune_all[0], "high": tune_all[1]}
    result["meanScore"] = {
        "relevant": float(scores[relevant].mean()),
        "notRelevant": float(scores[~relevant].mean()),
    }
    return result


def _fmt(x: object) -> str:
    return "-" if x is None else f"{x:.3f}" if isinstance(x, float) else str(x)


def _print(dataset: str, result: dict[str, object]) -> None:
    print(f"\n## {dataset}, mode {result['mode']}")
    print(f"thresholds: {json.dumps(result['thresholds'])}; tuned on all: {result['tunedOnAll']}")
    print(f"mean score: {json.dumps(result['meanScore'])}")
    defaults = "defaults 0.7/0.3 (spec)" if result["mode"] == "composite" else "defaults 0.29/0.24"
    rows = [("cross-fitted", result["crossFitted"]), (defaults, result["defaultThresholds"])]
    print(
        "| thresholds | n | P(correct) | R(correct) | P(incorrect) | R(incorrect) "
        "| ambiguous on relevant | ambiguous on not relevant |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, s in rows:
        assert isinstance(s, dict)
        print(
            f"| {name} | {s['n']} | {_fmt(s['correctPrecision'])} | {_fmt(s['correctRecall'])} "
            f"| {_fmt(s['incorrectPrecision'])} | {_fmt(s['incorrectRecall'])} "
            f"| {s['ambiguousOnRelevant']}/{s['relevant']} "
            f"| {s['ambiguousOnNotRelevant']}/{s['notRelevant']} |"
        )
        print(f"  by retrieval kind: {json.dumps(s['byKind'])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=400, help="HaluEval questions (default 400)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--wrong-cost",
        type=float,
        default=2.0,
        help="cost of a wrong definite call relative to the gain of a right one (default 2)",
    )
    parser.add_argument("--json", dest="json_out", help="also write all numbers to this file")
    parser.add_argument(
        "--scorer",
        default="lexical",
        help="document scorer of the paper mode: lexical (default), metric:<id> or judge:<name>",
    )
    parser.add_argument(
        "--modes", default="composite,paper", help="routing modes to run (default both)"
    )
    args = parser.parse_args()
    global SCORER
    SCORER = args.scorer
    results = {}
    datasets = {
        "halueval": halueval_cases(args.queries, random.Random(args.seed)),
        "hotpotqa": hotpot_cases(random.Random(args.seed)),
    }
    for name, cases in datasets.items():
        questions = len({q for q, _, _, _ in cases})
        print(f"\n# {name}: {questions} questions, {len(cases)} retrievals")
        for mode in args.modes.split(","):
            result = evaluate(cases, mode, args.wrong_cost)
            results[f"{name}/{mode}"] = result
            _print(name, result)
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
