"""Write history.jsonl: 400 synthetic, labelled scorecard records for the calibration examples.

Each record is {"total", "recommendedAction", "outcome"} as a RAG service would log them: the
scorecard total (0-100), the action the default policy recommended (answer >= 85, review >= 40,
abstain below), and what happened: answered questions were later judged correct / incorrect;
reviewed ones were accepted, rejected or escalated by a reviewer; abstentions were escalated.
The chance of a good outcome rises with the total but is lower than total/100 at the top
(totals are over-confident), which is what the calibration report should reveal.

Deterministic: numpy's default_rng(2026), so the committed history.jsonl is exactly what this
writes. Prints: "wrote 400 records to history.jsonl" (or to the file name given as argument).
Run: uv run --all-packages python examples/calibration/make_history.py [OUT.jsonl]
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def records(count: int = 400, seed: int = 2026) -> list[dict[str, object]]:
    rng = np.random.default_rng(seed)
    out: list[dict[str, object]] = []
    for _ in range(count):
        total = int(np.clip(round(rng.normal(66, 18)), 0, 100))
        good = rng.uniform() < 1 / (1 + math.exp(-(total - 58) / 9)) * 0.93
        if total >= 85:
            action, outcome = "answer", "correct" if good else "incorrect"
        elif total >= 40:
            action = "review"
            outcome = "accepted" if good else ("rejected" if rng.uniform() < 0.7 else "escalated")
        else:
            action, outcome = "abstain", "accepted" if good else "escalated"
        out.append({"total": total, "recommendedAction": action, "outcome": outcome})
    return out


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "history.jsonl"
    rows = records()
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    print(f"wrote {len(rows)} records to {path.name}")


if __name__ == "__main__":
    main()
