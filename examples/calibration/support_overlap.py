"""Is a heuristic support score a probability? Brier score, ECE and a reliability table on HaluEval.

Reads the first 1,000 rows of ../shared/data/halueval_qa_dev.jsonl (real data, read in place).
Each row gives two answers to one question: the right one (outcome 1) and a hallucinated one
(outcome 0). The "predicted probability" of each answer is a simple support score: the share of
its word tokens that also appear in the row's knowledge passage. 2,000 predictions in all.

Prints:
  - "2000 predictions, 1000 positive";
  - the Brier score and the expected calibration error over 10 bins (both 4 decimals);
  - the reliability table, one line per bin: range, count, mean predicted, observed rate.
    It shows the score ranks answers well but is not a probability: the middle bins (0.1-0.9)
    are almost never right although they predict 0.16-0.84, the top bin holds most right
    answers (observed about 0.89), and the 0.0-0.1 bin (answers such as "yes" that never occur
    in the passage) is right about 72% of the time.
Run: uv run --all-packages python examples/calibration/support_overlap.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from assay_calibration.probability import reliability_table

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "halueval_qa_dev.jsonl"
ROWS = 1000
TOKEN = re.compile(r"\w+")


def support(answer: str, knowledge: str) -> float:
    """Share of the answer's distinct word tokens found in the knowledge passage (0 if none)."""
    words = set(TOKEN.findall(answer.lower()))
    if not words:
        return 0.0
    return len(words & set(TOKEN.findall(knowledge.lower()))) / len(words)


def main() -> None:
    probabilities: list[float] = []
    outcomes: list[int] = []
    with DATA.open(encoding="utf-8") as handle:
        for _, line in zip(range(ROWS), handle, strict=False):
            row = json.loads(line)
            probabilities += [
                support(row["right_answer"], row["knowledge"]),
                support(row["hallucinated_answer"], row["knowledge"]),
            ]
            outcomes += [1, 0]
    table = reliability_table(probabilities, outcomes, bins=10)
    print(f"{table.total} predictions, {sum(outcomes)} positive")
    print(f"Brier score {table.brier_score:.4f}")
    print(f"expected calibration error {table.expected_calibration_error:.4f}")
    for item in table.bins:
        mean = "-" if item.mean_predicted is None else f"{item.mean_predicted:.3f}"
        rate = "-" if item.observed_rate is None else f"{item.observed_rate:.3f}"
        label = f"{item.lower:.1f}-{item.upper:.1f}:"
        print(f"{label} {item.count:4d}  predicted {mean:>5}  observed {rate:>5}")


if __name__ == "__main__":
    main()
