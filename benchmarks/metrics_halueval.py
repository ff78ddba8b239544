"""Detection quality on real data (issue 4, item 8): how well each answer-side metric separates
right from hallucinated answers on HaluEval QA.

Reads shared/data/halueval_qa_dev.jsonl in place (5,000 rows: knowledge passage, question, right
answer, hallucinated answer). Every answer becomes a sample with the passage as its only
context; a metric's AUROC is the probability that a right answer scores higher than a
hallucinated one (ties count half), computed over all right x hallucinated pairs.

Rows 1-1,000 were used to design claim_support (its weights and threshold); the report is on
rows 1,001-5,000 ("held out"), with the design rows and all rows shown for comparison.
answer_correctness needs a ground truth, which this setting does not give, so it is
undetermined on every sample and has no AUROC.

Run: uv run --package assay-faithfulness python benchmarks/metrics_halueval.py [--limit N]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import assay
import assay_faithfulness as af

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "halueval_qa_dev.jsonl"
DESIGN_ROWS = 1000
METRICS = ("faithfulness", "answer_relevance", "hallucination_rate", "claim_support")


def auroc(positives: Sequence[float], negatives: Sequence[float]) -> float:
    """Mann-Whitney AUROC with tied scores sharing their average rank."""
    pooled = sorted([(v, 1) for v in positives] + [(v, 0) for v in negatives])
    rank_sum = 0.0
    i = 0
    while i < len(pooled):
        j = i
        while j < len(pooled) and pooled[j][0] == pooled[i][0]:
            j += 1
        average_rank = (i + 1 + j) / 2
        rank_sum += average_rank * sum(label for _, label in pooled[i:j])
        i = j
    p, n = len(positives), len(negatives)
    return (rank_sum - p * (p + 1) / 2) / (p * n)


def token_support(answer: str, passage: str) -> float:
    """The baseline: share of the answer's tokens that occur in the passage."""
    tokens = af.tokenize(answer)
    known = set(af.tokenize(passage))
    return sum(t in known for t in tokens) / len(tokens) if tokens else 0.0


def score_rows(rows: list[dict[str, str]]) -> dict[str, tuple[list[float], list[float]]]:
    scores: dict[str, tuple[list[float], list[float]]] = {
        name: ([], []) for name in (*METRICS, "token_support (baseline)")
    }
    for row in rows:
        for side, key in ((0, "right_answer"), (1, "hallucinated_answer")):
            sample = assay.EvalSample(
                question=row["question"], answer=row[key], contexts=[row["knowledge"]]
            )
            for metric_id, result in af.score_sample(sample, METRICS).items():
                # An undetermined result (no token in the answer) ranks lowest.
                scores[metric_id][side].append(-1.0 if result.score is None else result.score)
            scores["token_support (baseline)"][side].append(
                token_support(row[key], row["knowledge"])
            )
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="read only the first N rows")
    args = parser.parse_args()
    lines = DATA.read_text(encoding="utf-8").split("\n")
    rows = [json.loads(line) for line in lines if line][: args.limit]
    scores = score_rows(rows)
    print(f"HaluEval QA, {len(rows)} rows; AUROC right vs hallucinated (passage as context)")
    print(f"{'metric':26s} {'held out':>9s} {'design':>9s} {'all':>9s}")
    for name, (right, hallucinated) in scores.items():
        held = auroc(right[DESIGN_ROWS:], hallucinated[DESIGN_ROWS:]) if len(rows) > 1000 else 0
        design = auroc(right[:DESIGN_ROWS], hallucinated[:DESIGN_ROWS])
        print(f"{name:26s} {held:9.4f} {design:9.4f} {auroc(right, hallucinated):9.4f}")


if __name__ == "__main__":
    main()
