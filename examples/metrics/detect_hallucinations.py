"""Tell right from hallucinated answers on real HaluEval QA rows.

Reads the first 8 rows of shared/data/halueval_qa_dev.jsonl (in place, beside the repository).
For each row it scores the right and the hallucinated answer against the row's passage, and
prints one line per answer: "right" or "hallucinated", the faithfulness score, the claim_support
score (3 decimals each) and the answer (cut to 60 characters). Then it prints how many of the 8
rows each metric ranks correctly (right answer scored above the hallucinated one), as
"faithfulness ranks k/8 rows correctly" and "claim_support ranks k/8 rows correctly":
claim_support gets all 8, faithfulness fewer.

Run: uv run --package assay-faithfulness python examples/metrics/detect_hallucinations.py
"""

import json
from pathlib import Path

import assay
import assay_faithfulness as af

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "halueval_qa_dev.jsonl"
ROWS = 8

rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").split("\n")[:ROWS]]
correct = {"faithfulness": 0, "claim_support": 0}
for row in rows:
    scores = {}
    for label, key in (("right", "right_answer"), ("hallucinated", "hallucinated_answer")):
        sample = assay.EvalSample(
            question=row["question"], answer=row[key], contexts=[row["knowledge"]]
        )
        results = af.score_sample(sample, ["faithfulness", "claim_support"])
        scores[label] = {metric_id: r.score for metric_id, r in results.items()}
        print(
            f"{label:12s} faithfulness={results['faithfulness'].score:.3f} "
            f"claim_support={results['claim_support'].score:.3f}  {row[key][:60]}"
        )
    for metric_id in correct:
        correct[metric_id] += scores["right"][metric_id] > scores["hallucinated"][metric_id]
for metric_id, count in correct.items():
    print(f"{metric_id} ranks {count}/{ROWS} rows correctly")
